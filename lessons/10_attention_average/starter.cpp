// Lesson 10 exercise: attention as a weighted average of earlier positions' values. `./poet start 10`
// copies this file to exercise.cpp; write attend_past there, then `./poet check 10`.
// 第 10 课练习：把注意力写成前面各位置的值的加权平均。`./poet start 10` 会把这个文件复制成
// exercise.cpp；在那里写好 attend_past，然后运行 `./poet check 10`。
#include "check.hpp"

pg::Tensor exercise::attend_past(const pg::Tensor& scores, const pg::Tensor& v) {
    // T = scores.size(0), C = v.size(1); for each position t:
    // T = scores.size(0)，C = v.size(1)；对每个位置 t：
    //   w_j = exp(scores[t][j] - m) / (sum of them), for j = 0..t only, m the largest of those scores
    //   w_j = exp(scores[t][j] - m) / (它们的和)，只取 j = 0..t，m 是这些分数里最大的一个
    //   out[t][c] = sum over j = 0..t of w_j * v[j][c]
    //   out[t][c] = 对 j = 0..t 把 w_j * v[j][c] 加起来
    // read the numbers with scores.ptr()[t * T + j] and v.ptr()[j * C + c];
    // return pg::tensor(values, {T, C})
    // 用 scores.ptr()[t * T + j] 和 v.ptr()[j * C + c] 读数；
    // 返回 pg::tensor(values, {T, C})
    throw lesson::NotImplemented("exercise::attend_past");
}
