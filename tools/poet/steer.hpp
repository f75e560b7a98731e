// Steering the decoder toward the poem's character k (the model alone mostly ignores k: docs/POET.md).
// Two adjustments of the logits before each sampled slot, both from counts, not from the model:
//   topic:  + topic_weight · PPMI(k, c) for each ideograph c not yet in the poem that shares poems
//           with k more often than chance in the training poems (k itself gets nothing: whether the
//           draft holds k is left to the model, and placement puts it in otherwise);
//   repeat: − repeat_penalty for each character the poem already holds (the model repeats
//           characters in half its poems, the corpus's quatrains in a third).
// Leaves out: steering the placement pass (k goes where the model's own odds put it), smoothing
// beyond a minimum count, planning per line.
#pragma once
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>
#include "poet/tokenizer.hpp"

namespace poet {

// For a set of prompt ids k: the ideographs related to k, each with PPMI(k, c) =
// max(0, log(N n(k,c) / (n(k) n(c)))) counted per poem over a corpus. Pairs seen in fewer than
// `min_count` poems are left out: with one or two poems holding k, every character of them would
// look related, and the bias would copy those poems' lines.
class TopicTable {
public:
    static constexpr size_t kMinCount = 3;
    TopicTable(const std::vector<std::u32string>& corpus, const Tokenizer& tok, const std::vector<int>& ks,
               size_t min_count = kMinCount);
    // (id, PPMI) with PPMI > 0, ascending ids, k excluded; throws std::invalid_argument for a k not counted.
    const std::vector<std::pair<int, float>>& related(int k) const;

private:
    std::unordered_map<int, std::vector<std::pair<int, float>>> related_;
};

struct Steering {
    const TopicTable* topics = nullptr;   // null: no topical bias
    float topic_weight = 0.f;             // logit added per nat of PPMI(k, c)
    float repeat_penalty = 0.f;           // logit taken from a character already in the poem
    bool active() const { return (topics && topic_weight != 0.f) || repeat_penalty != 0.f; }
};

// The defaults ./poet write, eval and demo use (chosen by ./poet eval, docs/POET.md).
constexpr float kTopicWeight = 1.0f;
constexpr float kRepeatPenalty = 1.0f;

// Adds the steering to `logits` (V), the scores for the slot after `row` (BOS k SEP, then the poem
// so far): row[1] is k, the ideographs of row[3..] are the characters already written.
void steer_logits(std::vector<float>& logits, const std::vector<int>& row, const Steering& s, const Tokenizer& tok);

}  // namespace poet
