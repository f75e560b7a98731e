// Lesson 13's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include "causal.hpp"
#include "lesson.hpp"

namespace exercise {
// Cut each position's C channels into n_head groups of HS = C / n_head and put the heads in front.
// x (B,T,C) -> (B,NH,T,HS); throws pg::ShapeError when C is not a multiple of n_head
pg::Tensor split_heads(const pg::Tensor& x, size_t n_head);
// The inverse: every head's HS channels side by side again. y (B,NH,T,HS) -> (B,T,C), C = NH*HS
pg::Tensor merge_heads(const pg::Tensor& y);
}  // namespace exercise
