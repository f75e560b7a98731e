// Lesson 08's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <stdexcept>
#include "lesson.hpp"

namespace exercise {
// mean((pred - target)^2) built from pg ops, so that backward works: pred, target (N, 1) -> ()
pg::Tensor mse_loss(const pg::Tensor& pred, const pg::Tensor& target);
// For every parameter that has a gradient: p -= lr * p.grad, in place in p's own values; then
// clear the gradient so that the next backward starts from zero. Parameters without one are skipped.
void sgd_step(std::vector<pg::Tensor>& params, float lr);
}  // namespace exercise
