// Lesson 02 exercise: a numerically stable softmax. `./poet start 2` copies this file to
// exercise.cpp; write stable_softmax there, then `./poet check 2`.
// 第 02 课练习：数值稳定的 softmax。`./poet start 2` 会把这个文件复制成 exercise.cpp；
// 在那里写好 stable_softmax，然后运行 `./poet check 2`。
#include "check.hpp"

pg::Tensor exercise::stable_softmax(const pg::Tensor& x) {
    // C = x.size(-1); for each row of C numbers in x.ptr():
    // C = x.size(-1)；x.ptr() 里每 C 个数是一行，对每一行：
    //   m = the row's maximum;  e_j = exp(x_j - m);  y_j = e_j / (sum of the row's e)
    //   m = 这一行的最大值；e_j = exp(x_j - m)；y_j = e_j / (这一行所有 e 的和)
    // then return pg::tensor(values, x.shape())
    // 最后返回 pg::tensor(values, x.shape())
    throw lesson::NotImplemented("exercise::stable_softmax");
}
