// Lesson 25's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <limits>
#include <string>
#include <vector>
#include "check_tools.hpp"

namespace exercise {
// Head h's attention weights inside `block` for the stream x entering it, from block.ln1,
// block.attn.qkv and block.attn.n_head: row t holds how much position t reads from each position s
// (0 for every s > t). x (B,T,C) -> (B,T,T)
pg::Tensor head_attention(const pg::nn::Block& block, const pg::Tensor& x, size_t h);
}  // namespace exercise
