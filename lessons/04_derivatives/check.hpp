// Lesson 04's checks for central_difference and numeric_gradient, shared by starter.cpp,
// solution.cpp and your exercise.cpp. Exact answers where the math gives them, else the library's.
#pragma once
#include <cmath>
#include "lesson.hpp"

namespace exercise {
// (f(x + h) - f(x - h)) / 2h: the slope of f at x, with an error of order h^2.
double central_difference(const std::function<double(double)>& f, double x, double h);
// The gradient of f at x, one central difference per coordinate: (n) -> (n).
std::vector<double> numeric_gradient(const std::function<double(const std::vector<double>&)>& f,
                                     const std::vector<double>& x, double h);
}  // namespace exercise

static pg::Tensor as_tensor(const std::vector<double>& v) {
    return pg::tensor(std::vector<float>(v.begin(), v.end()), {v.size()});
}

int main() {
    lesson::Checks checks("04", "derivatives");
    auto cubic = [](double x) { return x * x * x - 2 * x; };
    checks.run("x^3 - 2x at 1.5 with h = 0.1 gives 4.76", [&] {
        lesson::expect_near("central_difference", exercise::central_difference(cubic, 1.5, 0.1), 4.76, 1e-9,
                            "(f(x + h) - f(x - h)) / (2h); 5.21 would be the forward difference (f(x + h) - f(x)) / h");
    });
    checks.run("the same with h = 0.5 gives f' + h^2 = 5", [&] {
        lesson::expect_near("central_difference", exercise::central_difference(cubic, 1.5, 0.5), 5.0, 1e-9,
                            "use the h you are given, not a fixed step");
    });
    checks.run("sin at 1 with h = 1e-4 gives cos(1)", [] {
        auto sine = [](double x) { return std::sin(x); };
        lesson::expect_near("central_difference", exercise::central_difference(sine, 1.0, 1e-4), std::cos(1.0), 1e-8,
                            "divide by 2h, the distance between x - h and x + h");
    });
    checks.run("tanh(2x + 1) at 0.25 agrees with the library's backward", [] {
        pg::Tensor x = pg::scalar(0.25f, true);
        pg::tanh(x * 2.f + 1.f).backward();
        auto g = [](double t) { return std::tanh(2 * t + 1); };
        lesson::expect_near("central_difference", exercise::central_difference(g, 0.25, 1e-3), x.grad().item(), 1e-5,
                            "evaluate f at x + h and at x - h");
    });
    checks.run("gradient of a*b + b^2 at (2, -3) is (-3, -4)", [] {
        auto F = [](const std::vector<double>& v) { return v[0] * v[1] + v[1] * v[1]; };
        std::vector<double> grad = exercise::numeric_gradient(F, {2.0, -3.0}, 1e-3);
        lesson::expect_near("numeric_gradient", as_tensor(grad), pg::tensor({-3.f, -4.f}), 1e-6,
                            "one central difference per coordinate: nudge x[i] by +h and -h, leave the others as they are");
    });
    checks.run("gradient of log(sum(exp(v))) at (1, 2, 3) is softmax(v)", [] {
        auto logsumexp = [](const std::vector<double>& v) {
            double s = 0;
            for (double e : v) s += std::exp(e);
            return std::log(s);
        };
        std::vector<double> grad = exercise::numeric_gradient(logsumexp, {1.0, 2.0, 3.0}, 1e-4);
        lesson::expect_near("numeric_gradient", as_tensor(grad), pg::softmax(pg::tensor({1.f, 2.f, 3.f}), -1), 1e-6,
                            "return one entry per coordinate of x, in order; restore x[i] after nudging it");
    });
    return checks.finish();
}
