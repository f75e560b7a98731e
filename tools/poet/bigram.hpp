// The simplest language model, and the baseline the GPT must beat: P(next | previous) from counted
// character pairs with add-alpha smoothing, over exactly the predictions the GPT's loss counts. In a
// record BOS k SEP poem EOS those are SEP -> poem[0], poem[i] -> poem[i+1], poem[23] -> EOS: 25 per
// poem. Leaves out: longer contexts (n-grams), backoff, and k, which a bigram never sees.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>
#include "pg/random.hpp"
#include "poet/records.hpp"
#include "poet/tokenizer.hpp"
#include "poet/val_loss.hpp"

namespace poet {

// The smoothing the course and the baseline use: chosen on held-out training poems (lesson 19).
constexpr double kBigramAlpha = 0.03;

// The 25 (previous, next) pairs of a record whose targets carry loss: record[t] -> record[t+1] for
// t in [2, 27), i.e. SEP -> poem[0] up to poem[23] -> EOS. Throws std::invalid_argument unless the
// record has 28 ids.
std::vector<std::pair<int, int>> counted_pairs(const std::vector<int>& record);

// How often each id follows each other id: a sparse V x V table (most of its 61 million cells are 0),
// stored row by row: for each prev, the ids seen after it in increasing order, with their counts.
class BigramCounts {
public:
    // Counts every (prev, next) of `pairs`; ids outside [0, V) throw std::out_of_range.
    BigramCounts(size_t V, const std::vector<std::pair<int, int>>& pairs);
    uint32_t count(int prev, int next) const;   // 0 for a pair never seen
    uint64_t row_total(int prev) const;          // the pairs that start with prev
    uint64_t total() const { return total_; }    // every pair
    size_t vocab_size() const { return V_; }
    size_t distinct_pairs() const { return next_.size(); }   // cells that are not 0
private:
    void check_id(int id) const;
    size_t V_;
    std::vector<size_t> row_start_;     // (V+1): row prev is next_[row_start_[prev] .. row_start_[prev+1])
    std::vector<int> next_;             // the ids seen after prev, increasing
    std::vector<uint32_t> counts_;      // how often, beside next_
    std::vector<uint64_t> row_totals_;  // (V)
    uint64_t total_ = 0;
};

// The counted pairs of every poem (the same for any slot of k). Ids must be below V.
BigramCounts count_bigrams(const std::vector<Poem>& poems, size_t V);

// P(next | prev) = (count + alpha) / (row_total + alpha V): add-alpha smoothing (alpha = 1 is add-one,
// Laplace). Throws std::invalid_argument for alpha < 0, or alpha = 0 on a row never seen (0 / 0).
double bigram_probability(const BigramCounts& counts, int prev, int next, double alpha);

// The bigram on the records validation_loss measures (validation_slot), in its form: the mean of
// -ln P (nats per character, in double) over the 25 counted predictions of every poem, and per position.
ValLoss bigram_validation_loss(const BigramCounts& counts, const std::vector<Poem>& poems, double alpha);

// One poem drawn from the bigram, starting after SEP; returns the ids after SEP (EOS included when
// drawn). constrained: the quatrain layout is imposed (，and 。at the line ends, EOS after line 4)
// and each of the 20 slots draws among the ideographs only, its probabilities renormalised over
// them; first >= 0 puts that id into slot 0 (the only way a bigram can use a prompt character).
// Free: every id may come at every step, until EOS or 48 ids. Constrained needs the vocabulary
// to hold ，and 。.
std::vector<int> sample_bigram(const BigramCounts& counts, const Tokenizer& tok, double alpha, bool constrained,
                               int first, pg::Generator& gen);

}  // namespace poet
