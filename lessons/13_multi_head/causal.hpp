// Lesson 12's causal attention, shared by this lesson's experiment and checks: softmax(mask(q k^T /
// sqrt(HS))) v over the last two dims, whatever the leading dims (batch, heads).
#pragma once
#include <cmath>
#include <limits>
#include "lesson.hpp"

// q, k (..., T, HS), v (..., T, HV) -> (..., T, HV)
inline pg::Tensor causal_attention(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v) {
    size_t T = q.size(-2);
    pg::Tensor scores = pg::matmul(q, pg::transpose(k, -2, -1)) * (1.f / std::sqrt(static_cast<float>(q.size(-1))));
    std::vector<float> later(T * T, 0.f);  // 1 where key j comes after query i
    for (size_t i = 0; i < T; ++i)
        for (size_t j = i + 1; j < T; ++j) later[i * T + j] = 1.f;
    scores = pg::masked_fill(scores, pg::tensor(later, {T, T}), -std::numeric_limits<float>::infinity());
    return pg::matmul(pg::softmax(scores, -1), v);
}
