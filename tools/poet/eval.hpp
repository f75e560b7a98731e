// Sampling quality over many prompts: how often poems are well formed, contain their character,
// copy a whole line from the training set; how often they keep 格律 (form.hpp's checker) and repeat
// a character; what the model thinks of them (mean log-probability per character); how much they
// are about their character (topicality, by PMI over the training poems). Used by `./poet eval`.
// Leaves out: human judgement of the poems (read them).
#pragma once
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>
#include "pg/nn/gpt.hpp"
#include "poet/rhyme.hpp"
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

// Poems with the prompt each was written for, the well-formed ones only (what the measures below read).
struct Prompted {
    std::vector<char32_t> ks;
    std::vector<std::u32string> poems;   // well-formed quatrains, 24 characters
};
Prompted prompted(const std::vector<int>& prompts, const std::vector<WrittenPoem>& written, const Tokenizer& tok);

struct FormStats {
    size_t poems = 0;
    double rhyme = 0;          // lines 2 and 4 end in two characters of one level group
    double tones = 0;          // positions 2, 4 and 5 of every line fit one template (粘 and 对)
    double regular = 0;        // tones and every rhyme slot of one template: 格律
    double repeated_char = 0;  // a character occurs twice or more
    std::vector<double> template_share;   // share of each of form::templates() among the regular poems
};
FormStats form_stats(const std::vector<std::u32string>& poems, const RhymeTable& table);

// The model's mean log-probability per character of the poems of p, each after its own k:
// log p(c | BOS k SEP and the poem before c) at temperature 1 over the whole vocabulary, averaged
// over the 20 character slots of every poem. Poems holding a character outside the vocabulary are skipped (*skipped).
// copy_token: the model reads the poem's k as COPY, and k's probability is p(k) + p(COPY) (copy_token.hpp).
double mean_log_prob(pg::nn::GPT& gpt, const Tokenizer& tok, const Prompted& p, bool copy_token = false,
                     size_t* skipped = nullptr);

// How often characters share a poem in a corpus, for a few characters k: n(c) poems hold c, n(k, c)
// hold both. Enough for PMI(k, c) = log(N n(k,c) / (n(k) n(c))).
class Cooccurrence {
public:
    Cooccurrence(const std::vector<std::u32string>& corpus, const std::vector<char32_t>& ks);
    // max(0, PMI(k, c)), with the poem `held_out` (one of the corpus's) taken out of the counts
    // first when given; 0 when a count is 0 (no evidence of association).
    double ppmi(char32_t k, char32_t c, const std::u32string* held_out = nullptr) const;
    // The mean PPMI between k and the poem's other distinct characters.
    double score(char32_t k, const std::u32string& poem, bool poem_in_corpus) const;

private:
    size_t poems_ = 0;
    std::unordered_map<char32_t, size_t> holding_;                                 // n(c)
    std::unordered_map<char32_t, std::unordered_map<char32_t, size_t>> with_;     // n(k, c)
};

// Topicality of poems written for prompts: `own`, the mean score of each poem for its own prompt,
// `others`, for the prompts of the other poems (the same sampler, other characters). Their
// difference is what conditioning on k adds; general character frequency cancels out.
struct Topicality {
    double own = 0, others = 0;
    double contrast() const { return own - others; }
};
Topicality topicality(const Cooccurrence& co, const Prompted& p, bool poems_in_corpus);

// The ceiling: for each prompt, a corpus poem that holds it (drawn uniformly among them).
Prompted real_poems_with(const std::vector<std::u32string>& corpus, const std::vector<char32_t>& ks,
                         pg::Generator& gen);

}  // namespace poet
