// Lesson 17 exercise: one transformer block, counted and assembled. `./poet start 17` copies this
// file to exercise.cpp; write block_parameter_count and block_forward there, then `./poet check 17`.
#include "check.hpp"

size_t exercise::block_parameter_count(size_t C) {
    // add up: ln1 (weight, bias), attn.qkv (C -> 3C, with bias), attn.proj (C -> C, with bias),
    //         ln2 (weight, bias), mlp.fc (C -> 4C, with bias), mlp.out (4C -> C, with bias)
    throw lesson::NotImplemented("exercise::block_parameter_count");
}

pg::Tensor exercise::block_forward(const BlockParts& block, const pg::Tensor& x) {
    // h = x + block.attn.forward(block.ln1.forward(x))     (B,T,C)
    // y = h + block.mlp.forward(block.ln2.forward(h))      (B,T,C)
    throw lesson::NotImplemented("exercise::block_forward");
}
