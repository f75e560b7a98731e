// Lesson 14's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include "lesson.hpp"

namespace exercise {
// The GPT's input: each token's embedding plus its position's embedding.
// wte (V,C), wpe (context,C), ids (B,T) whole numbers in [0,V), T <= context -> (B,T,C)
pg::Tensor embed(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids);
}  // namespace exercise
