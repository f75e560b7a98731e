// Lesson 17's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <string>
#include "lesson.hpp"

// The four modules of one pg::nn::Block, in the order Block::forward uses them. Your block_forward
// puts them together; Block::forward itself is what you are writing, so calling it here fails.
struct BlockParts {
    const pg::nn::LayerNorm& ln1;        // normalises what attention reads
    pg::nn::CausalSelfAttention& attn;   // (B,T,C) -> (B,T,C); not const: it keeps last_attention
    const pg::nn::LayerNorm& ln2;        // normalises what the MLP reads
    const pg::nn::MLP& mlp;              // (B,T,C) -> (B,T,C)

    // Not Block::forward: block.forward(x) here fails with a hint, since it is the thing to write.
    pg::Tensor forward(const pg::Tensor&) const {
        throw lesson::CheckFailed("block_forward",
                                  lesson::tr("the block's forward written from ln1, attn, ln2 and mlp",
                                             "用 ln1、attn、ln2 和 mlp 写出的块的前向计算"),
                                  lesson::tr("a call of block.forward(x)", "调用了 block.forward(x)"),
                                  lesson::tr("you called block.forward(x), the library's Block::forward, which is what this "
                                             "exercise writes: h = x + block.attn.forward(block.ln1.forward(x)), then "
                                             "h + block.mlp.forward(block.ln2.forward(h))",
                                             "你调用了 block.forward(x)，也就是库里的 Block::forward，而这正是本练习要你写的："
                                             "h = x + block.attn.forward(block.ln1.forward(x))，然后 "
                                             "h + block.mlp.forward(block.ln2.forward(h))"));
    }
};

inline BlockParts parts_of(pg::nn::Block& b) { return {b.ln1, b.attn, b.ln2, b.mlp}; }

namespace exercise {
// The number of scalars in one pre-norm block of width C with a 4C MLP (any number of heads).
size_t block_parameter_count(size_t C);
// The block's forward from its parts: h = x + attn(ln1(x)), then h + mlp(ln2(h)).
// x (B,T,C) -> (B,T,C)
pg::Tensor block_forward(const BlockParts& block, const pg::Tensor& x);
}  // namespace exercise
