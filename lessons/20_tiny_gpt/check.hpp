// Lesson 20's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include "lesson.hpp"
#include "poet/records.hpp"
#include "poet/train.hpp"

// The modules of one pg::nn::GPT, without GPT::forward: your gpt_forward puts them together.
struct GPTParts {
    const pg::nn::Embedding& wte;        // weight (V,C): one row per token id
    const pg::nn::Embedding& wpe;        // weight (context,C): one row per position
    std::vector<pg::nn::Block*> blocks;  // n_layer pre-norm blocks (lesson 17), in order
    const pg::nn::LayerNorm& ln_f;       // the final norm, over C
    const pg::nn::Linear& head;          // weight (V,C), no bias: C -> V
};

inline GPTParts parts_of(pg::nn::GPT& gpt) {
    std::vector<pg::nn::Block*> blocks;
    for (auto& b : gpt.blocks) blocks.push_back(b.get());
    return {gpt.wte, gpt.wpe, blocks, gpt.ln_f, gpt.head};
}

namespace exercise {
// The number of scalars in a GPT of this shape: wte, wpe, n_layer blocks, ln_f and the untied head.
size_t gpt_parameter_count(const pg::nn::GPTConfig& cfg);
// The GPT's forward from its parts. ids (B,T) whole numbers in [0,V), T <= context -> logits (B,T,V)
pg::Tensor gpt_forward(const GPTParts& gpt, const pg::Tensor& ids);
}  // namespace exercise
