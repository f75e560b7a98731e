// Lesson 05's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <typeinfo>
#include "lesson.hpp"
#include "value.hpp"

namespace exercise {
// out = a * b, and its backward: a.grad += out.grad * b, b.grad += out.grad * a
scalar::Value mul(const scalar::Value& a, const scalar::Value& b);
// out = tanh(x), and its backward: x.grad += out.grad * (1 - out^2)
scalar::Value tanh(const scalar::Value& x);
}  // namespace exercise
