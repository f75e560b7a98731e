// Lesson 24 exercise: the validation loss, written by hand. `./poet start 24` copies this file to
// exercise.cpp; write masked_cross_entropy and records_loss there, then `./poet check 24`.
#include <algorithm>
#include <cmath>
#include "check.hpp"

exercise::Loss exercise::masked_cross_entropy(const pg::Tensor& logits, const std::vector<int>& targets, int ignore) {
    // N = logits.size(0), V = logits.size(1); row r's logits are logits.ptr() + r * V
    // for each row whose target is not ignore:
    //   m = the row's max;  nll = m + log(sum over v of exp(z[v] - m)) - z[target]   (in double)
    //   add nll to a sum, count the row
    // return {sum / counted, counted}, or {0, 0} when nothing was counted
    throw lesson::NotImplemented("exercise::masked_cross_entropy");
}

exercise::Loss exercise::records_loss(pg::nn::GPT& gpt, const std::vector<std::vector<int>>& records) {
    // pg::NoGradGuard no_grad;   B = records.size(), T = poet::kInputLength (27), V = gpt.config().vocab_size
    // inputs (B,T): record[0..26]; targets (B*T): record[t + 1], but poet::kIgnore for t = 0 and 1
    // logits = gpt.forward(pg::tensor(inputs, {B, T}))   (B,T,V), reshaped to (B*T,V)
    // return masked_cross_entropy(logits, targets, poet::kIgnore)
    throw lesson::NotImplemented("exercise::records_loss");
}
