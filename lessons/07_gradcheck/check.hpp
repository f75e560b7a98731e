// Lesson 07's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <stdexcept>
#include "lesson.hpp"

namespace exercise {
// Compares backward with central differences for L = sum(f(x) * r), r fixed random weights of
// f(x)'s shape: returns the largest |analytic - numeric| over the elements of x. x (any shape) is a
// handle to a tensor that requires grad: nudge its values in place, and leave them as they were.
double max_gradient_error(const std::function<pg::Tensor(const pg::Tensor&)>& f, pg::Tensor x, double eps);
}  // namespace exercise
