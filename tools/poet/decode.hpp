// Autoregressive decoding for the poet: next-token logits from the GPT, sampling with temperature
// and top-k over an allowed set, and `extend`, which grows a batch of sequences where some
// positions are fixed in advance (punctuation, EOS, a forced character) and the rest are sampled.
// Leaves out: key/value caches (each step reruns the prefix; sequences are at most 32 long).
#pragma once
#include <functional>
#include <vector>
#include "pg/nn/gpt.hpp"
#include "pg/random.hpp"
#include "poet/tokenizer.hpp"

namespace poet {

// Logits (B,V) for the token after each row of ids (B,T): the GPT's forward, with the final
// LayerNorm and head applied to the last position only. copy_token (a model trained with it): each
// row BOS k SEP ... is read with the poem's k as COPY, and COPY's probability is folded into k's
// (copy_token.hpp), so the rows and the logits are about characters either way.
std::vector<std::vector<float>> next_logits(pg::nn::GPT& gpt, const std::vector<std::vector<int>>& rows,
                                            bool copy_token = false);

struct SamplingOptions {
    float temperature = 0.8f;   // 0: always the most likely allowed token
    size_t top_k = 0;           // 0: no cut; else only the k most likely allowed tokens
};

// Samples one id from logits restricted to `allowed` (ids; empty = every id).
int sample_token(const std::vector<float>& logits, const std::vector<int>& allowed, const SamplingOptions& opt,
                 pg::Generator& gen);

// Probabilities over `allowed` at this temperature (softmax of logits/temperature), as sampled by
// sample_token without top-k; indexed like `allowed`.
std::vector<double> allowed_probabilities(const std::vector<float>& logits, const std::vector<int>& allowed,
                                          float temperature);

// Changes a row's next-token logits (V) before they are sampled, given the row so far: how a caller
// steers decoding (steer.hpp). An empty one leaves the model's logits as they are.
using LogitAdjust = std::function<void(std::vector<float>& logits, const std::vector<int>& row)>;

// Grows every row to `length` ids. fixed[r][t] >= 0 puts that id at position t of row r; -1 samples
// it from `allowed`, after `adjust` (when given) has changed the logits. A row stops early after it
// holds EOS. Rows are batched through the model (next_logits, with copy_token).
void extend(pg::nn::GPT& gpt, std::vector<std::vector<int>>& rows, const std::vector<std::vector<int>>& fixed,
            size_t length, const std::vector<int>& allowed, const SamplingOptions& opt, pg::Generator& gen,
            bool copy_token = false, const LogitAdjust& adjust = {});

}  // namespace poet
