// Lesson 19's checks for pair_probability and bigram_nll, shared by starter.cpp, solution.cpp and
// your exercise.cpp: hand-made tables, two small poems, then the real validation set against the
// poet's own bigram (poet::bigram_validation_loss). Leaves out: sampling (the experiment shows it).
#pragma once
#include <cmath>
#include <string>
#include <vector>
#include "lesson.hpp"
#include "poet/bigram.hpp"
#include "poet/corpus.hpp"

namespace exercise {
// P(next | prev) with add-alpha smoothing, from a count table over V ids.
double pair_probability(const poet::BigramCounts& counts, int prev, int next, double alpha);
// The bigram's loss on records BOS k SEP poem EOS (28 ids each): the mean of -ln P over the
// predictions that carry loss, 25 per record, in nats per character. records (N, 28) -> a number
double bigram_nll(const poet::BigramCounts& counts, const std::vector<std::vector<int>>& records, double alpha);
}  // namespace exercise

namespace check19 {

// The table of the first checks: V = 10; 5→6 three times, 5→7 once, 6→5 twice; row 7 empty.
inline poet::BigramCounts hand_table() { return poet::BigramCounts(10, {{5, 6}, {5, 6}, {5, 6}, {5, 7}, {6, 5}, {6, 5}}); }

// The hint for a wrong probability, from the wrong formulas it matches.
inline std::string probability_hint(double actual, double count, double row, double total, double alpha, double V) {
    auto is = [&](double v) { return std::fabs(actual - v) < 1e-9; };
    if (is(count / row))
        return "the smoothing is missing: add alpha to every count and alpha * V to the row total, or a pair never "
               "counted gets P = 0";
    if (is((count + alpha) / (total + alpha * V)) || is(count / total))
        return "divide by the row total of prev, counts.row_total(prev) (the pairs that start with prev), not by "
               "counts.total(), the pairs of every row";
    if (is((count + alpha) / (row + alpha)))
        return "alpha goes to each of the V cells of the row, so the denominator grows by alpha * V, not alpha";
    return "P(next | prev) = (count(prev, next) + alpha) / (row_total(prev) + alpha * V)";
}

// The mean of -ln P over record[t] -> record[t+1] for t >= first_t, divided by per_record per record:
// what a loss that counts the prompt's pairs gives (NaN when one of them is 0 / 0).
inline double mean_over(const std::vector<std::vector<int>>& records, size_t first_t, size_t per_record,
                        const poet::BigramCounts& counts, double alpha) {
    double sum = 0;
    try {
        for (const auto& r : records)
            for (size_t t = first_t; t + 1 < r.size(); ++t)
                sum -= std::log(poet::bigram_probability(counts, r[t], r[t + 1], alpha));
    } catch (const std::invalid_argument&) {
        return NAN;
    }
    return sum / static_cast<double>(records.size() * per_record);
}

// The hint for a wrong loss, from the mistake the numbers point to.
inline std::string nll_hint(double actual, double want, const std::vector<std::vector<int>>& records,
                            const poet::BigramCounts& counts, double alpha) {
    auto near = [&](double v) { return std::fabs(actual - v) < 1e-6 * std::max(1.0, std::fabs(v)); };
    if (std::isinf(actual) || std::isnan(actual)) {
        for (const auto& r : records)
            for (auto [a, b] : poet::counted_pairs(r))
                if (!(exercise::pair_probability(counts, a, b, alpha) > 0))
                    return "a pair never counted got P = 0 (or 0 / 0, for an id such as UNK that starts no counted "
                           "pair) and -ln 0 = inf: the smoothing is missing, add alpha to every count (pair_probability)";
        for (const auto& r : records)
            if (!(exercise::pair_probability(counts, r[0], r[1], alpha) > 0) ||
                !(exercise::pair_probability(counts, r[1], r[2], alpha) > 0))
                return "the pairs BOS -> k and k -> SEP are never counted (with alpha = 0 their P is 0 or 0 / 0): the "
                       "prompt targets k and SEP carry no loss, start at record[2] = SEP";
        return "every P is above 0, yet the loss is " + std::to_string(actual) +
               ": a product of thousands of probabilities underflows to 0 even in double; add the logarithms "
               "(sum of -ln P) instead of multiplying the probabilities";
    }
    if (alpha > 0 && near(mean_over(records, poet::kPromptLength - 1, poet::kLossTokens, counts, 0.0)))
        return "that is the loss with alpha = 0: the smoothing is missing, add alpha to every count (pair_probability)";
    if (near(want / std::log(2.0)))
        return "that is the loss in bits: use the natural log, std::log, for nats per character (bits = nats / ln 2)";
    if (near(want * poet::kLossTokens))
        return "divide by the number of predictions, 25 per record (kLossTokens), not by the number of records";
    for (size_t first : {0, 1})
        for (size_t per : {poet::kInputLength - first, poet::kLossTokens})
            if (near(mean_over(records, first, per, counts, alpha)))
                return "the prompt targets k and SEP (predicted from BOS and from k) carry no loss: count only the "
                       "25 pairs from SEP -> poem[0] to poem[23] -> EOS, record[t] -> record[t+1] for t = 2..26";
    return "the mean of -ln P(record[t+1] | record[t]) over t = 2..26 of every record (SEP -> first character up to "
           "the last character -> EOS), divided by 25 per record";
}

// The corpus the poet trains on by default, its tokenizer and the validation records `./poet eval` scores.
struct RealData {
    poet::Tokenizer tok;
    std::vector<poet::Poem> train, val;
    std::vector<std::vector<int>> records;
    RealData() {
        poet::Corpus corpus = poet::load_corpus(poet::default_data_dir(), "all");
        tok = poet::Tokenizer::build(corpus.train);
        train = poet::encode_poems(corpus.train, tok);
        val = poet::encode_poems(corpus.val, tok);
        for (size_t i = 0; i < val.size(); ++i) records.push_back(poet::make_record(val[i], poet::validation_slot(i)));
    }
};

}  // namespace check19

int main() {
    lesson::Checks checks("19", "bigram");
    checks.run("pair_probability on a hand-made table (V = 10, alpha 0.5 and 0)", [] {
        poet::BigramCounts c = check19::hand_table();
        try {
            exercise::pair_probability(c, 7, 3, 0.0);   // row 7 is empty: 0 / 0
        } catch (const std::invalid_argument& e) {
            if (std::string(e.what()).rfind("bigram:", 0) == 0)
                throw lesson::CheckFailed("pair_probability", "your own formula", "poet::bigram_probability's answer",
                                          "write (count + alpha) / (row_total + alpha V) yourself from counts.count and "
                                          "counts.row_total; poet::bigram_probability is the reference it is checked against");
            throw;
        }
        struct Case { int prev, next; double alpha, want; };
        for (Case k : {Case{5, 6, 0.5, 3.5 / 9}, Case{5, 8, 0.5, 0.5 / 9}, Case{6, 5, 0.5, 2.5 / 7}, Case{7, 3, 0.5, 0.1},
                       Case{5, 6, 0.0, 0.75}, Case{5, 7, 0.0, 0.25}}) {
            double got = exercise::pair_probability(c, k.prev, k.next, k.alpha);
            lesson::expect_near("P(" + std::to_string(k.next) + " | " + std::to_string(k.prev) + "), alpha " +
                                    lesson::num(k.alpha, 1),
                                got, k.want, 1e-6,
                                check19::probability_hint(got, c.count(k.prev, k.next), static_cast<double>(c.row_total(k.prev)),
                                                          static_cast<double>(c.total()), k.alpha, 10));
        }
    });
    checks.run("each row is a distribution: P(. | prev) sums to 1 over the V next ids", [] {
        poet::BigramCounts c = check19::hand_table();
        for (int prev : {5, 6, 7})
            for (double alpha : {0.5, 2.0}) {
                double sum = 0;
                for (int next = 0; next < 10; ++next) sum += exercise::pair_probability(c, prev, next, alpha);
                lesson::expect_near("sum over next of P(next | " + std::to_string(prev) + "), alpha " + lesson::num(alpha, 1),
                                    sum, 1.0, 1e-6,
                                    "the row total of prev plus alpha * V is what the V cells (count + alpha) add up to: "
                                    "divide by that, counts.row_total(prev) + alpha * V");
            }
    });

    const std::u32string spring = U"春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。";
    const std::u32string night = U"床前明月光，疑是地上霜。举头望明月，低头思故乡。";
    checks.run("bigram_nll of two poems counted on themselves, alpha 0.5; k must not matter", [&] {
        poet::Tokenizer tok = poet::Tokenizer::build({spring, night});
        std::vector<poet::Poem> poems = poet::encode_poems({spring, night}, tok);
        poet::BigramCounts c = poet::count_bigrams(poems, tok.size());
        std::vector<std::vector<int>> records = {poet::make_record(poems[0], 0), poet::make_record(poems[1], 7)};
        double want = poet::bigram_validation_loss(c, poems, 0.5).mean;
        double got = exercise::bigram_nll(c, records, 0.5);
        lesson::expect_near("bigram_nll", got, want, 1e-6, check19::nll_hint(got, want, records, c, 0.5));
        std::vector<std::vector<int>> other_k = {poet::make_record(poems[0], 13), poet::make_record(poems[1], 19)};
        lesson::expect_near("bigram_nll with other characters as k", exercise::bigram_nll(c, other_k, 0.5), got, 1e-6,
                            "the bigram never sees k: the prompt targets k and SEP carry no loss, so changing k must not "
                            "change the loss; start at record[2] = SEP");
    });
    checks.run("alpha = 0 on the poem it was counted on: 6 ln 2 / 25", [&] {
        poet::Tokenizer tok = poet::Tokenizer::build({spring});
        poet::Poem poem = poet::encode_poems({spring}, tok)[0];
        poet::BigramCounts c = poet::count_bigrams({poem}, tok.size());
        std::vector<std::vector<int>> records = {poet::make_record(poem, 3)};
        double want = 6 * std::log(2.0) / 25;   // 处, ，and 。 are followed by two different ids; the rest by one
        double got = exercise::bigram_nll(c, records, 0.0);
        lesson::expect_near("bigram_nll, alpha 0", got, want, 1e-6, check19::nll_hint(got, want, records, c, 0.0));
    });
    checks.run("the real validation set: 854 records of ./poet eval, counts of corpus 'all', alpha 0.03", [] {
        check19::RealData data;
        poet::BigramCounts c = poet::count_bigrams(data.train, data.tok.size());
        double want = poet::bigram_validation_loss(c, data.val, poet::kBigramAlpha).mean;
        double got = exercise::bigram_nll(c, data.records, poet::kBigramAlpha);
        lesson::expect_near("bigram_nll on the validation records", got, want, 1e-6,
                            check19::nll_hint(got, want, data.records, c, poet::kBigramAlpha));
    });
    return checks.finish();
}
