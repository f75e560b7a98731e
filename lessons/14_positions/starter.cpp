// Lesson 14 exercise: the GPT's input, token plus position embeddings. `./poet start 14` copies
// this file to exercise.cpp; write embed there, then `./poet check 14`.
#include "check.hpp"

pg::Tensor exercise::embed(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids) {
    // T = ids.size(1)
    // tokens = each id's row of wte                          (B,T,C)
    // places = rows 0, 1, ..., T-1 of wpe                     (T,C)
    // return tokens + places (broadcast over B), with pg ops so the gradient reaches wte and wpe
    throw lesson::NotImplemented("exercise::embed");
}
