// Lesson 07's checks for max_gradient_error, shared by starter.cpp, solution.cpp and your
// exercise.cpp: correct ops must give a small error, ops with planted bugs a large one.
#pragma once
#include "lesson.hpp"
#include "planted_bugs.hpp"

namespace exercise {
// Compares backward with central differences for L = sum(f(x) * r), r fixed random weights of
// f(x)'s shape: returns the largest |analytic - numeric| over the elements of x. x (any shape) is a
// handle to a tensor that requires grad: nudge its values in place, and leave them as they were.
double max_gradient_error(const std::function<pg::Tensor(const pg::Tensor&)>& f, pg::Tensor x, double eps);
}  // namespace exercise

static void expect_small(const std::string& what, double error, const std::string& hint) {
    lesson::expect(what, error <= 1e-3, "an error of 0.001 or less (a correct backward)", lesson::num(error, 6), hint);
}

static void expect_large(const std::string& what, double error, double at_least, const std::string& hint) {
    lesson::expect(what, error >= at_least, "an error of " + lesson::num(at_least, 2) + " or more (a buggy backward)",
                   lesson::num(error, 6), hint);
}

int main() {
    lesson::Checks checks("07", "gradcheck");
    const std::string small_hint =
        "analytic: backward of sum(f(x) * r), then x.grad(); numeric: (L(x + eps) - L(x - eps)) / (2 eps) "
        "for one element at a time, with L summed in double";
    checks.run("a correct op: tanh on a (3,4)", [&] {
        pg::Generator gen(1);
        pg::Tensor x = pg::randn({3, 4}, gen, true);
        auto f = [](const pg::Tensor& t) { return pg::tanh(t); };
        expect_small("max_gradient_error(tanh)", exercise::max_gradient_error(f, x, 1e-2), small_hint);
    });
    checks.run("a correct composition: softmax(x @ M) on a (2,3)", [&] {
        pg::Generator gen(2);
        pg::Tensor x = pg::randn({2, 3}, gen, true), M = pg::randn({3, 4}, gen);
        auto f = [M](const pg::Tensor& t) { return pg::softmax(pg::matmul(t, M), -1); };
        expect_small("max_gradient_error(softmax(x @ M))", exercise::max_gradient_error(f, x, 1e-2), small_hint);
    });
    checks.run("f with a 0-d output: sum(x * x)", [&] {
        pg::Generator gen(3);
        pg::Tensor x = pg::randn({5}, gen, true);
        expect_small("max_gradient_error(sum(x * x))",
                     exercise::max_gradient_error([](const pg::Tensor& t) { return pg::sum(t * t); }, x, 1e-2),
                     "r has f(x)'s shape, here () (pg::scalar or a shape {} tensor), not x's shape");
    });
    checks.run("planted bug: sigmoid without (1 - y)", [] {
        pg::Generator gen(4);
        pg::Tensor x = pg::randn({3, 4}, gen, true);
        expect_large("max_gradient_error(sigmoid_missing_factor)",
                     exercise::max_gradient_error(sigmoid_missing_factor, x, 1e-2), 0.02,
                     "compare backward's x.grad with the central differences; return the largest difference");
    });
    checks.run("planted bug: a backward that ignores gy", [] {
        pg::Generator gen(5);
        pg::Tensor x = pg::randn({3, 4}, gen, true);
        double error = exercise::max_gradient_error(triple_ignoring_gy, x, 1e-2);
        expect_large("max_gradient_error(triple_ignoring_gy)", error, 0.1,
                     "with L = sum(f(x)), gy is 1 everywhere and this bug hides: weight f(x) by random numbers r "
                     "(pg::uniform with a pg::Generator), so that gy = r");
    });
    checks.run("x keeps its values", [] {
        pg::Generator gen(6);
        pg::Tensor x = pg::randn({2, 3}, gen, true);
        pg::Tensor before = x.detach();
        exercise::max_gradient_error([](const pg::Tensor& t) { return pg::tanh(t); }, x, 1e-2);
        lesson::expect_near("x after the check", x.detach(), before, 0,
                            "put each element back to its original value after nudging it by +eps and -eps");
    });
    checks.run("twice on the same x: both errors small", [&] {
        pg::Generator gen(7);
        pg::Tensor x = pg::randn({2, 3}, gen, true);
        auto f = [](const pg::Tensor& t) { return pg::exp(t); };
        exercise::max_gradient_error(f, x, 1e-2);
        expect_small("the second max_gradient_error(exp)", exercise::max_gradient_error(f, x, 1e-2),
                     "gradients accumulate: call x.zero_grad() before backward, or the first call's gradient is "
                     "added to the second's");
    });
    return checks.finish();
}
