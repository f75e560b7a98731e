// Counting, smoothing, scoring and sampling for the bigram of bigram.hpp.
// Leaves out: a dense V x V table (7,817^2 cells, 244 MB as 32-bit counts): only seen pairs are stored.
#include "poet/bigram.hpp"
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include "poet/quatrain.hpp"
#include "poet/writer.hpp"

namespace poet {

std::vector<std::pair<int, int>> counted_pairs(const std::vector<int>& record) {
    if (record.size() != kRecordLength)
        throw std::invalid_argument("counted_pairs: a record has " + std::to_string(kRecordLength) + " ids, got " +
                                    std::to_string(record.size()));
    std::vector<std::pair<int, int>> pairs;
    for (size_t t = kPromptLength - 1; t + 1 < kRecordLength; ++t) pairs.emplace_back(record[t], record[t + 1]);
    return pairs;
}

BigramCounts::BigramCounts(size_t V, const std::vector<std::pair<int, int>>& pairs)
    : V_(V), row_start_(V + 1, 0), row_totals_(V, 0), total_(pairs.size()) {
    for (auto [prev, next] : pairs) {
        check_id(prev);
        check_id(next);
        ++row_totals_[static_cast<size_t>(prev)];
    }
    // A counting sort by prev: row prev's nexts in nexts[first[prev] .. first[prev + 1]), rows in
    // order; then each row sorted, so that equal pairs stand side by side (a sort of the whole list
    // took 4 times as long: most of lesson 19's checks)
    std::vector<size_t> first(V + 1, 0);
    for (size_t v = 0; v < V; ++v) first[v + 1] = first[v] + row_totals_[v];
    std::vector<size_t> fill(first.begin(), first.end() - 1);
    std::vector<int> nexts(pairs.size());
    for (auto [prev, next] : pairs) nexts[fill[static_cast<size_t>(prev)]++] = next;
    for (size_t v = 0; v < V; ++v) {
        const auto begin = nexts.begin() + static_cast<long>(first[v]), end = nexts.begin() + static_cast<long>(first[v + 1]);
        std::sort(begin, end);
        for (auto it = begin; it != end; ++it) {
            if (it == begin || *it != *(it - 1)) {
                next_.push_back(*it);
                counts_.push_back(0);
            }
            ++counts_.back();
        }
        row_start_[v + 1] = next_.size();
    }
}

void BigramCounts::check_id(int id) const {
    if (id < 0 || static_cast<size_t>(id) >= V_)
        throw std::out_of_range("bigram: id " + std::to_string(id) + " is outside [0, " + std::to_string(V_) + ")");
}

uint32_t BigramCounts::count(int prev, int next) const {
    check_id(prev);
    check_id(next);
    auto begin = next_.begin() + static_cast<long>(row_start_[static_cast<size_t>(prev)]);
    auto end = next_.begin() + static_cast<long>(row_start_[static_cast<size_t>(prev) + 1]);
    auto it = std::lower_bound(begin, end, next);
    return it != end && *it == next ? counts_[static_cast<size_t>(it - next_.begin())] : 0;
}

uint64_t BigramCounts::row_total(int prev) const {
    check_id(prev);
    return row_totals_[static_cast<size_t>(prev)];
}

BigramCounts count_bigrams(const std::vector<Poem>& poems, size_t V) {
    std::vector<std::pair<int, int>> pairs;
    pairs.reserve(poems.size() * kLossTokens);
    for (const Poem& poem : poems)
        for (auto pair : counted_pairs(make_record(poem, 0))) pairs.push_back(pair);
    return BigramCounts(V, pairs);
}

double bigram_probability(const BigramCounts& counts, int prev, int next, double alpha) {
    if (alpha < 0) throw std::invalid_argument("bigram: alpha must be >= 0, got " + std::to_string(alpha));
    double row = static_cast<double>(counts.row_total(prev));
    if (row == 0 && alpha == 0)
        throw std::invalid_argument("bigram: id " + std::to_string(prev) +
                                    " never starts a counted pair, so with alpha = 0 its row is 0 / 0");
    return (counts.count(prev, next) + alpha) / (row + alpha * static_cast<double>(counts.vocab_size()));
}

ValLoss bigram_validation_loss(const BigramCounts& counts, const std::vector<Poem>& poems, double alpha) {
    std::vector<double> sum(kLossTokens, 0.0);
    for (size_t i = 0; i < poems.size(); ++i) {
        std::vector<std::pair<int, int>> pairs = counted_pairs(make_record(poems[i], validation_slot(i)));
        for (size_t p = 0; p < kLossTokens; ++p)
            sum[p] -= std::log(bigram_probability(counts, pairs[p].first, pairs[p].second, alpha));
    }
    ValLoss out;
    out.records = poems.size();
    double all = 0;
    for (double s : sum) {
        all += s;
        out.per_position.push_back(s / static_cast<double>(poems.size()));
    }
    out.mean = all / static_cast<double>(poems.size() * kLossTokens);
    return out;
}

// An id drawn from P(. | prev) restricted to `allowed` (every id when empty), renormalised.
static int draw_next(const BigramCounts& counts, int prev, const std::vector<int>& allowed, double alpha,
                     pg::Generator& gen) {
    std::vector<int> ids = allowed;
    if (ids.empty())
        for (size_t v = 0; v < counts.vocab_size(); ++v) ids.push_back(static_cast<int>(v));
    std::vector<double> weight;   // count + alpha: the normaliser cancels
    double total = 0;
    for (int id : ids) {
        weight.push_back(counts.count(prev, id) + alpha);
        total += weight.back();
    }
    if (total == 0)
        throw std::invalid_argument("bigram: nothing can follow id " + std::to_string(prev) + " with alpha = 0");
    double u = gen.uniform() * total, acc = 0;
    for (size_t i = 0; i < ids.size(); ++i) {
        acc += weight[i];   // the same sums as total, so u < acc holds by the last id at the latest
        if (u < acc) return ids[i];
    }
    return ids.back();
}

std::vector<int> sample_bigram(const BigramCounts& counts, const Tokenizer& tok, double alpha, bool constrained,
                               int first, pg::Generator& gen) {
    std::vector<int> out;
    int prev = Tokenizer::SEP;
    if (!constrained) {
        const size_t max_ids = 2 * quatrain::kLength;
        while (out.size() < max_ids && prev != Tokenizer::EOS) {
            prev = out.empty() && first >= 0 ? first : draw_next(counts, prev, {}, alpha, gen);
            out.push_back(prev);
        }
        return out;
    }
    const std::vector<int> han = han_ids(tok);
    for (size_t p = 0; p < quatrain::kLength; ++p) {
        if (quatrain::is_punctuation_position(p)) prev = tok.id(quatrain::punctuation_at(p));
        else if (p == 0 && first >= 0) prev = first;
        else prev = draw_next(counts, prev, han, alpha, gen);
        out.push_back(prev);
    }
    out.push_back(Tokenizer::EOS);
    return out;
}

}  // namespace poet
