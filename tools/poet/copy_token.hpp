// The copy token: how a poet learns to write its character k. In the records it trains on, every
// occurrence of k inside the poem is written as Tokenizer::COPY ("k again, here"), so the model
// learns one target for "write the prompt character now" that is the same for 春 as for 骏: what it
// learns from common characters serves the rare ones (docs/POET.md, lesson 27). Reading its output,
// COPY and k are the same character: the model's probability of k is p(k) + p(COPY).
// Leaves out: copying anything but k (the poem's other characters are ordinary targets).
#pragma once
#include <vector>
#include "poet/tokenizer.hpp"

namespace poet {

// A row BOS k SEP ... (a record, or a poem being written) as the model reads it: every id after SEP
// that equals k (row[1]) becomes COPY; BOS, k, SEP and every other id stay. Rows shorter than the
// prompt come back as they are.
std::vector<int> with_copy_token(std::vector<int> row);

// log(e^z[k] + e^z[COPY]): the model's score for writing k, by its own id or as COPY.
double copy_folded_logit(const float* z, int k);

// Next-token logits (V) as scores over characters: logits[k] becomes copy_folded_logit, and
// logits[COPY] -inf, so that sampling, constraints and steering see k once, with all its mass.
void fold_copy_token(std::vector<float>& logits, int k);

}  // namespace poet
