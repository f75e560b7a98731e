// Lesson 01's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <limits>
#include "lesson.hpp"

using Matrix = std::vector<std::vector<float>>;  // m[i][j]: row i, column j

namespace exercise {
// softmax(q k^T / sqrt(d_k)) v, with plain loops and no pg ops.
// q (Tq, d_k), k (Tk, d_k), v (Tk, d_v) -> (Tq, d_v)
Matrix attention_loops(const Matrix& q, const Matrix& k, const Matrix& v);
}  // namespace exercise
