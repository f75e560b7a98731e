// Lesson 11's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include "lesson.hpp"

struct QKV {
    pg::Tensor q, k, v;
};

namespace exercise {
// Three projections of the same input: q = x wq, k = x wk, v = x wv.
// x (..., T, C), wq (C, HS), wk (C, HS), wv (C, HV) -> q (..., T, HS), k (..., T, HS), v (..., T, HV)
QKV solve(const pg::Tensor& x, const pg::Tensor& wq, const pg::Tensor& wk, const pg::Tensor& wv);
// The library's way: one linear map x weight^T + bias to 3D numbers per row, split into three
// equal parts along the last dim. x (..., C), weight (3D, C), bias (3D) -> q, k, v each (..., D)
QKV fused_qkv(const pg::Tensor& x, const pg::Tensor& weight, const pg::Tensor& bias);
}  // namespace exercise
