// Lesson 04 exercise: derivatives by central differences. `./poet start 4` copies this file to
// exercise.cpp; write both functions there, then `./poet check 4`.
#include "check.hpp"

double exercise::central_difference(const std::function<double(double)>& f, double x, double h) {
    // the slope between the points at x - h and x + h
    throw lesson::NotImplemented("exercise::central_difference");
}

std::vector<double> exercise::numeric_gradient(const std::function<double(const std::vector<double>&)>& f,
                                               const std::vector<double>& x, double h) {
    // for each coordinate i: f with x[i] + h, f with x[i] - h (the other coordinates unchanged),
    // and their difference over 2h
    throw lesson::NotImplemented("exercise::numeric_gradient");
}
