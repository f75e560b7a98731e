// Lesson 16's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <functional>
#include <string>
#include "lesson.hpp"

namespace exercise {
// GELU, tanh approximation, with loops over x.ptr(): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
// x (any shape) -> the same shape
pg::Tensor gelu(const pg::Tensor& x);
// The GPT's feed-forward part from mlp's four tensors: Linear C->4C, GELU, Linear 4C->C.
// x (B,T,C) -> (B,T,C)
pg::Tensor feed_forward(const pg::nn::MLP& mlp, const pg::Tensor& x);
}  // namespace exercise
