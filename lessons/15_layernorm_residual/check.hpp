// Lesson 15's checks for layer_norm, shared by starter.cpp, solution.cpp and your exercise.cpp.
// The hand example, a constant row, a tiny variance where eps matters, random rows of any rank.
#pragma once
#include "lesson.hpp"

namespace exercise {
// Layer norm over the last dim, with loops over x.ptr(): per row of C numbers,
// y = (x - mean) / sqrt(biased variance + eps) * weight + bias.
// x (..., C), weight (C), bias (C) -> (..., C)
pg::Tensor layer_norm(const pg::Tensor& x, const pg::Tensor& weight, const pg::Tensor& bias, float eps);
}  // namespace exercise

int main() {
    lesson::Checks checks("15", "layernorm_residual");
    checks.run("by hand: x = [1, 2, 3, 6]", [] {
        pg::Tensor y = exercise::layer_norm(pg::tensor({1.f, 2.f, 3.f, 6.f}), pg::tensor({1.f, 0.5f, 2.f, 1.f}),
                                            pg::tensor({0.f, 0.f, 0.5f, -1.f}), 1e-5f);
        lesson::expect_near("layer_norm", y, pg::tensor({-1.0690f, -0.2673f, 0.5f, 0.6036f}), 1e-4,
                            "mean 3, variance 14 / 4 = 3.5 (divide by C, not C - 1: -0.9258 for the first entry "
                            "means you divided by 3); then * weight + bias");
    });
    checks.run("a constant row gives the bias, not nan", [] {
        pg::Tensor y = exercise::layer_norm(pg::tensor({5.f, 5.f, 5.f, 5.f}), pg::tensor({1.f, 2.f, 3.f, 4.f}),
                                            pg::tensor({0.5f, -0.5f, 0.f, 1.f}), 1e-5f);
        lesson::expect_near("layer_norm([5, 5, 5, 5])", y, pg::tensor({0.5f, -0.5f, 0.f, 1.f}), 1e-6,
                            "the variance is 0; eps goes under the square root, sqrt(0 + eps), so 0 / sqrt(eps) = 0");
    });
    checks.run("a tiny variance: eps inside the square root", [] {
        pg::Tensor y = exercise::layer_norm(pg::tensor({0.f, 0.001f, 0.f, 0.001f}), pg::ones({4}), pg::zeros({4}),
                                            1e-5f);
        pg::Tensor want = pg::layer_norm(pg::tensor({0.f, 0.001f, 0.f, 0.001f}), pg::ones({4}), pg::zeros({4}), 1e-5f);
        lesson::expect_near("layer_norm([0, 0.001, 0, 0.001])", y, want, 1e-4,
                            "divide by sqrt(variance + eps), not sqrt(variance) + eps: with a variance of 2.5e-7 "
                            "the two differ six-fold");
    });
    checks.run("(2,3,8) random rows, against pg::layer_norm", [] {
        pg::Generator gen(15);
        pg::Tensor x = pg::randn({2, 3, 8}, gen) * 3.f + 1.f;
        pg::Tensor w = pg::randn({8}, gen), b = pg::randn({8}, gen);
        lesson::expect_near("layer_norm", exercise::layer_norm(x, w, b, 1e-5f), pg::layer_norm(x, w, b, 1e-5f), 1e-4,
                            "each row of the last dim on its own: C = x.size(-1), x.numel() / C rows, row r at "
                            "x.ptr() + r * C; weight[c] and bias[c] go with column c");
    });
    checks.run("a larger eps is used as given", [] {
        pg::Generator gen(16);
        pg::Tensor x = pg::randn({3, 5}, gen) * 0.1f;
        pg::Tensor w = pg::ones({5}), b = pg::zeros({5});
        lesson::expect_near("layer_norm with eps = 0.01", exercise::layer_norm(x, w, b, 0.01f),
                            pg::layer_norm(x, w, b, 0.01f), 1e-4, "use the eps argument, not a fixed 1e-5, and add it under the square root");
    });
    return checks.finish();
}
