// Lesson 02's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include "lesson.hpp"

namespace exercise {
// softmax along the last dim, computed stably with loops over x.ptr().
// x (..., C) -> (..., C), every row of C numbers positive and summing to 1
pg::Tensor stable_softmax(const pg::Tensor& x);
}  // namespace exercise
