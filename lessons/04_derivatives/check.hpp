// Lesson 04's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <utility>
#include "lesson.hpp"

namespace exercise {
// (f(x + h) - f(x - h)) / 2h: the slope of f at x, with an error of order h^2.
double central_difference(const std::function<double(double)>& f, double x, double h);
// The gradient of f at x, one central difference per coordinate: (n) -> (n).
std::vector<double> numeric_gradient(const std::function<double(const std::vector<double>&)>& f,
                                     const std::vector<double>& x, double h);
}  // namespace exercise
