// Lesson 09 exercise: cross-entropy's forward and gradient with loops. `./poet start 9` copies this
// file to exercise.cpp; write cross_entropy there, then `./poet check 9`.
// 第 09 课练习：用循环写交叉熵的前向和梯度。`./poet start 9` 会把这个文件复制成 exercise.cpp；
// 在那里写好 cross_entropy，然后运行 `./poet check 9`。
#include <cmath>
#include "check.hpp"

exercise::LossAndGrad exercise::cross_entropy(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index) {
    // N = logits.size(0), C = logits.size(1); logits.ptr()[r * C + c] is z[r][c], targets.ptr()[r]
    // row r's target (a whole number, or ignore_index). For each row whose target is not ignore_index:
    // N = logits.size(0)，C = logits.size(1)；logits.ptr()[r * C + c] 是 z[r][c]，targets.ptr()[r]
    // 是第 r 行的目标（一个整数，或者 ignore_index）。对目标不是 ignore_index 的每一行：
    //   m = the row's max; logsumexp = m + log(sum_c exp(z[r][c] - m)); loss += logsumexp - z[r][target]
    //   grad[r][c] = exp(z[r][c] - logsumexp) (that is softmax), minus 1 at the target
    //   m = 这一行的最大值；logsumexp = m + log(对 c 求和 exp(z[r][c] - m))；loss += logsumexp - z[r][target]
    //   grad[r][c] = exp(z[r][c] - logsumexp)（也就是 softmax），在目标处再减去 1
    // Then divide the loss and every gradient entry by the number of rows that counted, and return
    // {loss, pg::tensor(grad, {N, C})} with grad a std::vector<float> of N * C, zero in ignored rows.
    // 然后把损失和梯度的每一项都除以计入的行数，返回 {loss, pg::tensor(grad, {N, C})}，
    // 其中 grad 是长 N * C 的 std::vector<float>，被忽略的行全是零。
    throw lesson::NotImplemented("exercise::cross_entropy");
}
