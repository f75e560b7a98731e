// Sampling quality over many prompts: how often poems are well formed, contain their character,
// and copy a whole line from the training set. Used by `./poet eval` and the tests.
// Leaves out: human judgement of the poems (read them).
#pragma once
#include <string>
#include <unordered_set>
#include <vector>
#include "poet/tokenizer.hpp"
#include "poet/writer.hpp"

namespace poet {

// Every five-character line of the training poems.
std::unordered_set<std::u32string> training_lines(const std::vector<std::u32string>& poems);

struct SampleStats {
    size_t poems = 0;
    double well_formed = 0;        // fraction of poems that are well-formed quatrains
    double contains_char = 0;      // fraction whose poem holds its prompt character
    double drafted_with_char = 0;  // fraction whose first pass already held it (model alone)
    double copied_lines = 0;       // fraction of the lines of well-formed poems found in training
    double poems_with_copy = 0;    // fraction of well-formed poems with at least one copied line
};

SampleStats sample_stats(const std::vector<WrittenPoem>& poems, const Tokenizer& tok,
                         const std::unordered_set<std::u32string>& lines);

// n prompt characters drawn uniformly (with replacement) from the vocabulary's ideographs.
std::vector<int> draw_prompts(const Tokenizer& tok, size_t n, pg::Generator& gen);

}  // namespace poet
