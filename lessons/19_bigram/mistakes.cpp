// mistake 1: smoothing forgotten, P = count / row_total (log 0 -> inf on unseen pairs) => the smoothing is missing
// mistake 2: normalised by the global total instead of the row of prev => divide by the row total of prev
// mistake 3: the ignored prompt targets k and SEP counted (all 27 pairs of a record) => the prompt targets k and SEP
// mistake 4: log base 2 instead of nats => use the natural log
// mistake 5: divided by the number of records instead of predictions => 25 per record
// mistake 6: the probabilities multiplied and the log taken once (underflows to 0) => add the logarithms
// mistake 7: a static sum and count that keep growing from call to call => a static sum or count keeps growing
// mistake 8: the first call's loss kept in a static and returned ever after => the answer is a constant, or a static variable keeps it
// mistake 9: the library's bigram_probability called instead of the formula => poet::bigram_probability is the reference
// Lesson 19's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
#include "check.hpp"
using lesson::mistake;

double exercise::pair_probability(const poet::BigramCounts& counts, int prev, int next, double alpha) {
    double V = static_cast<double>(counts.vocab_size());
    if (mistake(9)) return poet::bigram_probability(counts, prev, next, alpha);
    if (mistake(1)) return static_cast<double>(counts.count(prev, next)) / static_cast<double>(counts.row_total(prev));
    if (mistake(2)) return (counts.count(prev, next) + alpha) / (counts.total() + alpha * V);
    return (counts.count(prev, next) + alpha) / (counts.row_total(prev) + alpha * V);
}

double exercise::bigram_nll(const poet::BigramCounts& counts, const std::vector<std::vector<int>>& records,
                            double alpha) {
    static double kept = NAN, static_sum = 0;   // mistakes 7 and 8
    static size_t static_predictions = 0;
    if (mistake(8) && !std::isnan(kept)) return kept;
    double sum = 0, product = 1;
    size_t predictions = 0;
    const size_t first = mistake(3) ? 0 : poet::kPromptLength - 1;
    for (const std::vector<int>& r : records)
        for (size_t t = first; t + 1 < r.size(); ++t) {
            double p = pair_probability(counts, r[t], r[t + 1], alpha);
            sum -= mistake(4) ? std::log2(p) : std::log(p);
            product *= p;
            ++predictions;
        }
    if (mistake(5)) return sum / static_cast<double>(records.size());
    if (mistake(6)) return -std::log(product) / static_cast<double>(predictions);
    static_sum += sum, static_predictions += predictions;
    if (mistake(7)) return static_sum / static_cast<double>(static_predictions);
    if (mistake(8)) return kept = sum / static_cast<double>(predictions);
    return sum / static_cast<double>(predictions);
}
