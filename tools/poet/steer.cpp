// steer.hpp's counts and logit adjustments. Counting is per poem, as eval.hpp's topicality: a poem
// holds c or not, however often c occurs in it.
#include "poet/steer.hpp"
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_set>
#include "poet/quatrain.hpp"
#include "poet/records.hpp"

namespace poet {

namespace {

// The distinct ids of a poem's 20 slots that are in the vocabulary.
std::vector<int> distinct_ids(const std::u32string& poem, const Tokenizer& tok) {
    std::vector<int> ids;
    for (size_t s = 0; s < quatrain::kChars && s < poem.size(); ++s) {
        size_t pos = quatrain::slot_position(s);
        if (pos < poem.size() && tok.contains(poem[pos])) ids.push_back(tok.id(poem[pos]));
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

}  // namespace

TopicTable::TopicTable(const std::vector<std::u32string>& corpus, const Tokenizer& tok, const std::vector<int>& ks,
                       size_t min_count) {
    const std::unordered_set<int> wanted(ks.begin(), ks.end());
    std::vector<size_t> holding(tok.size(), 0);                      // n(c)
    std::unordered_map<int, std::vector<size_t>> with;               // n(k, c) for each wanted k
    for (int k : wanted) with[k].assign(tok.size(), 0);
    for (const std::u32string& poem : corpus) {
        std::vector<int> ids = distinct_ids(poem, tok);
        for (int c : ids) ++holding[static_cast<size_t>(c)];
        for (int k : ids) {
            auto row = with.find(k);
            if (row == with.end()) continue;
            for (int c : ids) ++row->second[static_cast<size_t>(c)];
        }
    }
    const double n = static_cast<double>(corpus.size());
    for (auto& [k, n_kc] : with) {
        std::vector<std::pair<int, float>>& out = related_[k];
        double n_k = static_cast<double>(holding[static_cast<size_t>(k)]);
        for (size_t c = 0; c < n_kc.size(); ++c) {
            if (static_cast<int>(c) == k || n_kc[c] < std::max<size_t>(min_count, 1)) continue;
            double pmi = std::log(n * static_cast<double>(n_kc[c]) / (n_k * static_cast<double>(holding[c])));
            if (pmi > 0) out.emplace_back(static_cast<int>(c), static_cast<float>(pmi));
        }
    }
}

const std::vector<std::pair<int, float>>& TopicTable::related(int k) const {
    auto it = related_.find(k);
    if (it == related_.end())
        throw std::invalid_argument("steering: the character with id " + std::to_string(k) + " was not counted");
    return it->second;
}

void steer_logits(std::vector<float>& logits, const std::vector<int>& row, const Steering& s, const Tokenizer& tok) {
    if (row.size() < kPromptLength) return;
    std::vector<int> seen;   // the characters already written, each once however often
    for (size_t t = kPromptLength; t < row.size(); ++t)
        if (row[t] >= 0 && static_cast<size_t>(row[t]) < logits.size() && tok.is_han(row[t])) seen.push_back(row[t]);
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    auto written = [&](int id) { return std::binary_search(seen.begin(), seen.end(), id); };
    // the bonus goes to relatives not yet written: one 颃 serves the topic, a second only repeats it
    if (s.topics && s.topic_weight != 0.f)
        for (const auto& [c, pmi] : s.topics->related(row[1]))
            if (static_cast<size_t>(c) < logits.size() && !written(c)) logits[static_cast<size_t>(c)] += s.topic_weight * pmi;
    if (s.repeat_penalty != 0.f)
        for (int id : seen) logits[static_cast<size_t>(id)] -= s.repeat_penalty;
}

}  // namespace poet
