// Lesson 15's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <string>
#include "lesson.hpp"

namespace exercise {
// Layer norm over the last dim, with loops over x.ptr(): per row of C numbers,
// y = (x - mean) / sqrt(biased variance + eps) * weight + bias.
// x (..., C), weight (C), bias (C) -> (..., C)
pg::Tensor layer_norm(const pg::Tensor& x, const pg::Tensor& weight, const pg::Tensor& bias, float eps);
}  // namespace exercise
