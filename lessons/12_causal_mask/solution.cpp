// Lesson 12 reference solution: causal self-attention in the order compare, scale, mask, softmax,
// aggregate, for any leading dims (batch, heads).
#include "check.hpp"

pg::Tensor exercise::causal_attention(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v) {
    size_t T = q.size(-2), HS = q.size(-1);
    pg::Tensor scores = pg::matmul(q, pg::transpose(k, -2, -1));       // compare: (..., T, T)
    scores = scores * (1.f / std::sqrt(static_cast<float>(HS)));       // scale
    std::vector<float> later(T * T, 0.f);                              // 1 where key j comes after query i
    for (size_t i = 0; i < T; ++i)
        for (size_t j = i + 1; j < T; ++j) later[i * T + j] = 1.f;
    scores = pg::masked_fill(scores, pg::tensor(later, {T, T}), -std::numeric_limits<float>::infinity());  // mask
    return pg::matmul(pg::softmax(scores, -1), v);                     // softmax, aggregate: (..., T, HV)
}
