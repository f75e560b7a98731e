// Lesson 12 exercise: causal self-attention. `./poet start 12` copies this file to exercise.cpp;
// write causal_attention there, then `./poet check 12`.
#include "check.hpp"

pg::Tensor exercise::causal_attention(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v) {
    // T = q.size(-2), HS = q.size(-1)
    // 1 compare:   scores = q @ k^T (transpose k's last two dims)       (..., T, T)
    // 2 scale:     scores / sqrt(HS)
    // 3 mask:      a (T, T) tensor with 1 where j > i; pg::masked_fill(scores, mask, -infinity)
    // 4 softmax:   along the last dim
    // 5 aggregate: weights @ v
    throw lesson::NotImplemented("exercise::causal_attention");
}
