// Lesson 09's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <stdexcept>
#include "lesson.hpp"

namespace exercise {
struct LossAndGrad {
    double loss;         // the mean over the rows whose target is not ignore_index of -log softmax(logits)[target]
    pg::Tensor dlogits;  // d(loss)/d(logits), (N, C); zero in ignored rows
};
// logits (N, C), targets (N) whole numbers in [0, C) or ignore_index -> the loss and its gradient,
// computed with loops (no backward), stable for large logits.
LossAndGrad cross_entropy(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index = -100);
}  // namespace exercise
