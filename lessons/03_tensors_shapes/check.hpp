// Lesson 03's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <algorithm>
#include <optional>
#include "lesson.hpp"

namespace exercise {
// The shape of matmul(a, b) for tensors of shapes a and b, without computing it:
// (..., N, K) @ (..., K, M) -> (..., N, M), the leading (batch) axes broadcast.
// Throws pg::ShapeError when the library's matmul would.
pg::Shape matmul_shape(const pg::Shape& a, const pg::Shape& b);
}  // namespace exercise
