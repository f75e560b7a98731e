// mistake 1: the mean over all N rows instead of the counted ones => divide by the counted predictions, not by N
// mistake 2: only kIgnore skipped, the ignore argument unused (PAD targets counted) => skip every target equal to ignore
// mistake 3: no max subtraction, exp(1000) overflows => subtract the row's max before exp
// mistake 4: the log of a softmax probability instead of log-sum-exp => underflowed to 0
// mistake 5: the sum instead of the mean => the sum, not the mean
// mistake 6: log2 instead of the natural log => bits, not nats
// mistake 7: log_softmax along the wrong axis (dim 0) => the wrong axis
// mistake 8: every target ignored gives 0/0 => 0/0 is NaN
// mistake 9: pg::cross_entropy called instead of writing the loss => you called pg::cross_entropy
// mistake 10: targets not shifted (the inputs used as targets) => the targets are the record shifted by one
// mistake 11: the targets k and SEP counted => the targets k and SEP (t = 0 and 1) carry no loss
// Lesson 24's planted mistakes: plausible wrong losses. Each is built with -DMISTAKE=N and must fail
// the checks with the hint on its line above (lessons/common/expect_mistake_caught.sh).
#include <algorithm>
#include <cmath>
#include "check.hpp"

exercise::Loss exercise::masked_cross_entropy(const pg::Tensor& logits, const std::vector<int>& targets, int ignore) {
    const size_t N = logits.size(0), V = logits.size(1);
#if MISTAKE == 7
    std::vector<float> logp = pg::log_softmax(logits, 0).to_vector();
#elif MISTAKE == 9
    size_t kept = 0;
    std::vector<float> t;
    for (int target : targets) {
        t.push_back(static_cast<float>(target));
        kept += target != ignore;
    }
    return {pg::cross_entropy(logits, pg::tensor(t, {N}), ignore).item(), kept};
#endif
    double sum = 0;
    size_t counted = 0;
    for (size_t r = 0; r < N; ++r) {
#if MISTAKE == 2
        if (targets[r] == poet::kIgnore) continue;
#else
        if (targets[r] == ignore) continue;
#endif
#if MISTAKE == 3
        const float* z = logits.ptr() + r * V;
        double total = 0;
        for (size_t v = 0; v < V; ++v) total += std::exp(z[v]);
        sum += std::log(total) - z[targets[r]];
#elif MISTAKE == 7
        sum -= logp[r * V + static_cast<size_t>(targets[r])];
#else
        const float* z = logits.ptr() + r * V;
        const double m = *std::max_element(z, z + V);
        double total = 0;
        for (size_t v = 0; v < V; ++v) total += std::exp(z[v] - m);
#if MISTAKE == 4
        sum -= std::log(std::exp(z[targets[r]] - m) / total);
#elif MISTAKE == 6
        sum += (m + std::log(total) - z[targets[r]]) / std::log(2.0);
#else
        sum += m + std::log(total) - z[targets[r]];
#endif
#endif
        ++counted;
    }
#if MISTAKE == 1
    return {sum / static_cast<double>(N), counted};
#elif MISTAKE == 5
    return {sum, counted};
#elif MISTAKE == 8
    return {sum / static_cast<double>(counted), counted};
#else
    if (counted == 0) return {0.0, 0};
    return {sum / static_cast<double>(counted), counted};
#endif
}

exercise::Loss exercise::records_loss(pg::nn::GPT& gpt, const std::vector<std::vector<int>>& records) {
    pg::NoGradGuard no_grad;
    const size_t B = records.size(), T = poet::kInputLength, V = gpt.config().vocab_size;
    std::vector<float> inputs;
    std::vector<int> targets;
    for (const std::vector<int>& record : records)
        for (size_t t = 0; t < T; ++t) {
            inputs.push_back(static_cast<float>(record[t]));
#if MISTAKE == 10
            targets.push_back(t < 2 ? poet::kIgnore : record[t]);
#elif MISTAKE == 11
            targets.push_back(record[t + 1]);
#else
            targets.push_back(t < 2 ? poet::kIgnore : record[t + 1]);
#endif
        }
    pg::Tensor logits = gpt.forward(pg::tensor(inputs, {B, T}));
    return masked_cross_entropy(pg::reshape(logits, {B * T, V}), targets, poet::kIgnore);
}
