// Lesson 10's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include "check_tools.hpp"

namespace exercise {
// Row t of the result: softmax of scores[t][0..t], then the weighted average of v_0 .. v_t.
// scores[t][j] for j > t (later positions) are ignored. scores (T, T), v (T, C) -> (T, C)
pg::Tensor attend_past(const pg::Tensor& scores, const pg::Tensor& v);
}  // namespace exercise
