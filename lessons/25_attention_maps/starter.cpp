// Lesson 25 exercise: pull one head's attention weights out of a block. `./poet start 25` copies
// this file to exercise.cpp; write head_attention there, then `./poet check 25`.
#include "check.hpp"

pg::Tensor exercise::head_attention(const pg::nn::Block& block, const pg::Tensor& x, size_t h) {
    // HS = C / block.attn.n_head
    // qkv = block.attn.qkv.forward(block.ln1.forward(x))             (B,T,3C): q | k | v, each C wide
    // q = head h's columns of the first third, k the same columns of the second (pg::slice)   (B,T,HS)
    // scores = q @ k^T / sqrt(HS)                                     (B,T,T)
    // the future (s > t) set to -infinity with pg::masked_fill and a (T,T) mask, then pg::softmax over keys
    throw lesson::NotImplemented("exercise::head_attention");
}
