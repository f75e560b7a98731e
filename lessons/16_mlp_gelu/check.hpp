// Lesson 16's checks for gelu and feed_forward, shared by starter.cpp, solution.cpp and your
// exercise.cpp. Values by hand and against pg::gelu, then the whole MLP against pg::nn::MLP.
#pragma once
#include "lesson.hpp"

namespace exercise {
// GELU, tanh approximation, with loops over x.ptr(): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
// x (any shape) -> the same shape
pg::Tensor gelu(const pg::Tensor& x);
// The GPT's feed-forward part from mlp's four tensors: Linear C->4C, GELU, Linear 4C->C.
// x (B,T,C) -> (B,T,C)
pg::Tensor feed_forward(const pg::nn::MLP& mlp, const pg::Tensor& x);
}  // namespace exercise

int main() {
    lesson::Checks checks("16", "mlp_gelu");
    checks.run("gelu at -1, 0, 0.5, 2", [] {
        lesson::expect_near("gelu", exercise::gelu(pg::tensor({-1.f, 0.f, 0.5f, 2.f})),
                            pg::tensor({-0.1588f, 0.f, 0.3457f, 1.9546f}), 1e-4,
                            "sqrt(2/pi) = 0.7979 (not sqrt(2 pi)), the cube x*x*x times 0.044715, and the 0.5 x "
                            "in front: gelu(2) = 1.9546, not 2 (that is relu)");
    });
    checks.run("(3,5) random values of any sign, against pg::gelu", [] {
        pg::Generator gen(16);
        pg::Tensor x = pg::randn({3, 5}, gen) * 2.f;
        lesson::expect_near("gelu", exercise::gelu(x), pg::gelu(x), 1e-5,
                            "every element on its own; return pg::tensor(values, x.shape()) so the shape stays (3,5)");
    });
    checks.run("far out: gelu(-10) is 0, gelu(10) is 10, never nan", [] {
        lesson::expect_near("gelu", exercise::gelu(pg::tensor({-10.f, 10.f})), pg::tensor({0.f, 10.f}), 1e-5,
                            "tanh saturates at -1 and 1: use std::tanh, not (e^u - e^-u) / (e^u + e^-u), whose "
                            "e^u overflows");
    });
    checks.run("feed_forward against pg::nn::MLP, (2,3,8)", [] {
        pg::Generator gen(161);
        pg::nn::MLP mlp(8, 0.f, gen);
        pg::Tensor x = pg::randn({2, 3, 8}, gen);
        lesson::expect_near("feed_forward", exercise::feed_forward(mlp, x), mlp.forward(x), 1e-4,
                            "pg::linear(x, mlp.fc.weight, mlp.fc.bias) makes (2,3,32); gelu it; then "
                            "pg::linear(.., mlp.out.weight, mlp.out.bias) back to (2,3,8); keep both biases");
    });
    checks.run("feed_forward works on each position alone", [] {
        pg::Generator gen(162);
        pg::nn::MLP mlp(4, 0.f, gen);
        pg::Tensor x = pg::randn({1, 5, 4}, gen);
        pg::Tensor y = exercise::feed_forward(mlp, x);
        pg::Tensor first = exercise::feed_forward(mlp, pg::slice(x, 1, 0, 1));
        lesson::expect_near("position 0 computed alone", first, pg::slice(y, 1, 0, 1), 1e-5,
                            "nothing in the MLP looks at other positions: no sum or mean over T");
    });
    return checks.finish();
}
