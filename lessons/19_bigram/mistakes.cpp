// mistake 1: smoothing forgotten, P = count / row_total (log 0 -> inf on unseen pairs) => the smoothing is missing
// mistake 2: normalised by the global total instead of the row of prev => divide by the row total of prev
// mistake 3: the ignored prompt targets k and SEP counted (all 27 pairs of a record) => the prompt targets k and SEP
// mistake 4: log base 2 instead of nats => use the natural log
// mistake 5: divided by the number of records instead of predictions => 25 per record
// mistake 6: the probabilities multiplied and the log taken once (underflows to 0) => add the logarithms
// Lesson 19's planted mistakes: each is built with -DMISTAKE=N and must fail the checks with its hint.
#include "check.hpp"

double exercise::pair_probability(const poet::BigramCounts& counts, int prev, int next, double alpha) {
    [[maybe_unused]] double V = static_cast<double>(counts.vocab_size());  // unused by mistake 1
#if MISTAKE == 1
    return static_cast<double>(counts.count(prev, next)) / static_cast<double>(counts.row_total(prev));
#elif MISTAKE == 2
    return (counts.count(prev, next) + alpha) / (counts.total() + alpha * V);
#else
    return (counts.count(prev, next) + alpha) / (counts.row_total(prev) + alpha * V);
#endif
}

double exercise::bigram_nll(const poet::BigramCounts& counts, const std::vector<std::vector<int>>& records,
                            double alpha) {
    double sum = 0, product = 1;
    size_t predictions = 0;
    for (const std::vector<int>& r : records)
#if MISTAKE == 3
        for (size_t t = 0; t + 1 < r.size(); ++t) {
#else
        for (size_t t = poet::kPromptLength - 1; t + 1 < r.size(); ++t) {
#endif
#if MISTAKE == 4
            sum -= std::log2(pair_probability(counts, r[t], r[t + 1], alpha));
#else
            sum -= std::log(pair_probability(counts, r[t], r[t + 1], alpha));
#endif
            product *= pair_probability(counts, r[t], r[t + 1], alpha);
            ++predictions;
        }
#if MISTAKE == 5
    return sum / static_cast<double>(records.size());
#elif MISTAKE == 6
    return -std::log(product) / static_cast<double>(predictions);
#else
    return sum / static_cast<double>(predictions);
#endif
}
