// mistake 1: the mean over all N rows instead of the counted ones => divide by the counted predictions, not by N
// mistake 2: only kIgnore skipped, the ignore argument unused (targets of id 0 counted) => skip every target equal to ignore
// mistake 3: no max subtraction, exp(1000) overflows => subtract the row's max before exp
// mistake 4: the log of a softmax probability instead of log-sum-exp => underflowed to 0
// mistake 5: the sum instead of the mean => the sum, not the mean
// mistake 6: log2 instead of the natural log => bits, not nats
// mistake 7: log_softmax along the wrong axis (dim 0) => the wrong axis
// mistake 8: every target ignored gives 0/0 => 0/0 is NaN
// mistake 9: pg::cross_entropy called instead of writing the loss => you called pg::cross_entropy
// mistake 10: targets not shifted (the inputs used as targets) => the targets are the record shifted by one
// mistake 11: the targets k and SEP counted => the targets k and SEP (t = 0 and 1) carry no loss
// mistake 12: the max subtracted only when it is positive (against overflow alone) => where exp(z) is 0 even in double
// mistake 13: the row read through a pointer into a temporary copy, logits.detach().ptr(), freed at once => reads memory it does not own
// mistake 14: the first call's loss kept in a static and returned ever after => your function returned for an earlier, different input
// mistake 15: one max over all the logits instead of each row's own => the max was taken over all the logits
// mistake 16: records_loss keeps its first call's loss in a static => compute it from this call's model and records
// Lesson 24's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// They are plausible wrong losses (the test: lessons/common/expect_mistake_caught.sh).
#include <algorithm>
#include <cmath>
#include "check.hpp"
using lesson::mistake;

exercise::Loss exercise::masked_cross_entropy(const pg::Tensor& logits, const std::vector<int>& targets, int ignore) {
    static Loss kept;   // mistake 14: the first call's loss
    static bool have = false;
    if (mistake(14) && have) return kept;
    const size_t N = logits.size(0), V = logits.size(1);
    if (mistake(9)) {
        size_t kept = 0;
        std::vector<float> t;
        for (int target : targets) {
            t.push_back(static_cast<float>(target));
            kept += target != ignore;
        }
        return {pg::cross_entropy(logits, pg::tensor(t, {N}), ignore).item(), kept};
    }
    const std::vector<float> logp = mistake(7) ? pg::log_softmax(logits, 0).to_vector() : std::vector<float>();
    const int skipped = mistake(2) ? poet::kIgnore : ignore;
    double sum = 0;
    size_t counted = 0;
    for (size_t r = 0; r < N; ++r) {
        if (targets[r] == skipped) continue;
        const float* z = mistake(13) ? logits.detach().ptr() + r * V : logits.ptr() + r * V;
        const double m = mistake(12)   ? std::max(0.0, static_cast<double>(*std::max_element(z, z + V)))
                         : mistake(15) ? *std::max_element(logits.ptr(), logits.ptr() + N * V)   // the whole batch's
                                       : *std::max_element(z, z + V);
        double total = 0;
        for (size_t v = 0; v < V; ++v) total += mistake(3) ? std::exp(z[v]) : std::exp(z[v] - m);
        const double log_sum_exp = mistake(3) ? std::log(total) : m + std::log(total);
        if (mistake(7)) sum -= logp[r * V + static_cast<size_t>(targets[r])];
        else if (mistake(4)) sum -= std::log(std::exp(z[targets[r]] - m) / total);
        else if (mistake(6)) sum += (log_sum_exp - z[targets[r]]) / std::log(2.0);
        else sum += log_sum_exp - z[targets[r]];
        ++counted;
    }
    if (mistake(1)) return {sum / static_cast<double>(N), counted};
    if (mistake(5)) return {sum, counted};
    if (counted == 0 && !mistake(8)) return {0.0, 0};
    if (mistake(14)) have = true, kept = {sum / static_cast<double>(counted), counted};
    return {sum / static_cast<double>(counted), counted};
}

exercise::Loss exercise::records_loss(pg::nn::GPT& gpt, const std::vector<std::vector<int>>& records) {
    static Loss kept;   // mistake 16: the first call's loss
    static bool have = false;
    if (mistake(16) && have) return kept;
    pg::NoGradGuard no_grad;
    const size_t B = records.size(), T = poet::kInputLength, V = gpt.config().vocab_size;
    std::vector<float> inputs;
    std::vector<int> targets;
    for (const std::vector<int>& record : records)
        for (size_t t = 0; t < T; ++t) {
            inputs.push_back(static_cast<float>(record[t]));
            const int next = mistake(10) ? record[t] : record[t + 1];
            targets.push_back(t < 2 && !mistake(11) ? poet::kIgnore : next);
        }
    pg::Tensor logits = gpt.forward(pg::tensor(inputs, {B, T}));
    const Loss loss = masked_cross_entropy(pg::reshape(logits, {B * T, V}), targets, poet::kIgnore);
    if (mistake(16)) have = true, kept = loss;
    return loss;
}
