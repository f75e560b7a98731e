// Lesson 24 solution: the masked cross-entropy from the logits (log-sum-exp, in double), and the
// validation loss of a batch of records with it.
#include <algorithm>
#include <cmath>
#include "check.hpp"

exercise::Loss exercise::masked_cross_entropy(const pg::Tensor& logits, const std::vector<int>& targets, int ignore) {
    const size_t N = logits.size(0), V = logits.size(1);
    double sum = 0;
    size_t counted = 0;
    for (size_t r = 0; r < N; ++r) {
        if (targets[r] == ignore) continue;
        const float* z = logits.ptr() + r * V;   // row r: V logits
        const double m = *std::max_element(z, z + V);
        double total = 0;
        for (size_t v = 0; v < V; ++v) total += std::exp(z[v] - m);   // every term <= 1
        sum += m + std::log(total) - z[targets[r]];                 // log-sum-exp - z[target]
        ++counted;
    }
    if (counted == 0) return {0.0, 0};
    return {sum / static_cast<double>(counted), counted};
}

exercise::Loss exercise::records_loss(pg::nn::GPT& gpt, const std::vector<std::vector<int>>& records) {
    pg::NoGradGuard no_grad;
    const size_t B = records.size(), T = poet::kInputLength, V = gpt.config().vocab_size;
    std::vector<float> inputs;
    std::vector<int> targets;
    for (const std::vector<int>& record : records)
        for (size_t t = 0; t < T; ++t) {
            inputs.push_back(static_cast<float>(record[t]));
            targets.push_back(t < 2 ? poet::kIgnore : record[t + 1]);   // k and SEP carry no loss
        }
    pg::Tensor logits = gpt.forward(pg::tensor(inputs, {B, T}));      // (B,T,V)
    return masked_cross_entropy(pg::reshape(logits, {B * T, V}), targets, poet::kIgnore);   // (B*T,V)
}
