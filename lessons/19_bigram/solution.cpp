// Lesson 19 reference solution: add-alpha smoothed P(next | prev), and the mean -ln P over the 25
// counted predictions of each record, in double.
#include "check.hpp"

double exercise::pair_probability(const poet::BigramCounts& counts, int prev, int next, double alpha) {
    double V = static_cast<double>(counts.vocab_size());
    return (counts.count(prev, next) + alpha) / (counts.row_total(prev) + alpha * V);
}

double exercise::bigram_nll(const poet::BigramCounts& counts, const std::vector<std::vector<int>>& records,
                            double alpha) {
    double sum = 0;   // nats, added up: a product of the probabilities would underflow to 0
    size_t predictions = 0;
    for (const std::vector<int>& r : records)
        for (size_t t = poet::kPromptLength - 1; t + 1 < r.size(); ++t) {   // SEP -> poem[0] ... poem[23] -> EOS
            sum -= std::log(pair_probability(counts, r[t], r[t + 1], alpha));
            ++predictions;
        }
    return sum / static_cast<double>(predictions);
}
