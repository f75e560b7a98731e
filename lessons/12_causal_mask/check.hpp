// Lesson 12's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <limits>
#include "check_tools.hpp"

namespace exercise {
// softmax(mask(q k^T / sqrt(HS))) v, where mask puts -inf on every key after the query.
// q (..., T, HS), k (..., T, HS), v (..., T, HV) -> (..., T, HV)
pg::Tensor causal_attention(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v);
}  // namespace exercise
