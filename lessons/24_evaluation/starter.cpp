// Lesson 24 exercise: the validation loss, written by hand. `./poet start 24` copies this file to
// exercise.cpp; write masked_cross_entropy and records_loss there, then `./poet check 24`.
// 第 24 课练习：亲手写验证损失。`./poet start 24` 会把这个文件复制成 exercise.cpp；
// 在那里写好 masked_cross_entropy 和 records_loss，然后运行 `./poet check 24`。
#include <algorithm>
#include <cmath>
#include "check.hpp"

exercise::Loss exercise::masked_cross_entropy(const pg::Tensor& logits, const std::vector<int>& targets, int ignore) {
    // N = logits.size(0), V = logits.size(1); row r's logits are logits.ptr() + r * V
    // N = logits.size(0)，V = logits.size(1)；第 r 行的 logits 从 logits.ptr() + r * V 开始
    // for each row whose target is not ignore:
    // 对目标不等于 ignore 的每一行：
    //   m = the row's max;  nll = m + log(sum over v of exp(z[v] - m)) - z[target]   (in double)
    //   m = 这一行的最大值；nll = m + log(对所有 v 求和 exp(z[v] - m)) - z[target]   （用 double）
    //   add nll to a sum, count the row
    //   把 nll 加进总和，计入的行数加一
    // return {sum / counted, counted}, or {0, 0} when nothing was counted
    // 返回 {sum / counted, counted}；一行都没计入时返回 {0, 0}
    throw lesson::NotImplemented("exercise::masked_cross_entropy");
}

exercise::Loss exercise::records_loss(pg::nn::GPT& gpt, const std::vector<std::vector<int>>& records) {
    // pg::NoGradGuard no_grad;   B = records.size(), T = poet::kInputLength (27), V = gpt.config().vocab_size
    // pg::NoGradGuard no_grad;（不构建计算图）  B = records.size()，T = poet::kInputLength (27)，V = gpt.config().vocab_size
    // inputs (B,T): record[0..26]; targets (B*T): record[t + 1], but poet::kIgnore for t = 0 and 1
    // 输入 inputs (B,T)：record[0..26]；目标 targets (B*T)：record[t + 1]，但 t = 0 和 1 是 poet::kIgnore
    // logits = gpt.forward(pg::tensor(inputs, {B, T}))   (B,T,V), reshaped to (B*T,V)
    // logits = gpt.forward(pg::tensor(inputs, {B, T}))   (B,T,V)，再 reshape 成 (B*T,V)
    // return masked_cross_entropy(logits, targets, poet::kIgnore)
    // 最后返回 masked_cross_entropy(logits, targets, poet::kIgnore)
    throw lesson::NotImplemented("exercise::records_loss");
}
