// Lesson 07 exercise: a gradient check. `./poet start 7` copies this file to exercise.cpp; write
// max_gradient_error there, then `./poet check 7`.
#include "check.hpp"

double exercise::max_gradient_error(const std::function<pg::Tensor(const pg::Tensor&)>& f, pg::Tensor x,
                                    double eps) {
    // 1. r: random weights with f(x)'s shape (pg::uniform(shape, -1, 1, gen) with a pg::Generator).
    // 2. analytic: clear x's gradient, backward of sum(f(x) * r), read x.grad().
    // 3. numeric, for each element i of x: L(x with x[i] + eps) and L(x with x[i] - eps), where
    //    L = sum of f(x) * r added up in double; their difference over 2 eps; then x[i] back as it was.
    //    (x.mutable_data().data() is a float* to x's values; pg::NoGradGuard skips building graphs.)
    // 4. return the largest |analytic[i] - numeric[i]|.
    throw lesson::NotImplemented("exercise::max_gradient_error");
}
