// Lesson 16's checks for gelu and feed_forward, shared by starter.cpp, solution.cpp and your
// exercise.cpp. Values by hand and against pg::gelu, far out at +-10 to +-30, then the whole MLP
// against pg::nn::MLP; a wrong result is compared with the usual slips to name the likely one.
#pragma once
#include <cmath>
#include <functional>
#include <string>
#include "lesson.hpp"

namespace exercise {
// GELU, tanh approximation, with loops over x.ptr(): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
// x (any shape) -> the same shape
pg::Tensor gelu(const pg::Tensor& x);
// The GPT's feed-forward part from mlp's four tensors: Linear C->4C, GELU, Linear 4C->C.
// x (B,T,C) -> (B,T,C)
pg::Tensor feed_forward(const pg::nn::MLP& mlp, const pg::Tensor& x);
}  // namespace exercise

namespace check16 {

const double kPi = 3.14159265358979323846;

const char* const kSqrt2Pi = "you scaled by sqrt(2 pi) = 2.5066; the constant is sqrt(2/pi) = 0.7979";
const char* const kNoHalf =
    "your values are twice gelu: the 0.5 in front is missing, 0.5 x (1 + tanh(u)) (gelu(2) = 1.9546, not 3.9)";
const char* const kSquare =
    "you used the square, not the cube: u = sqrt(2/pi) (x + 0.044715 x*x*x); x*x loses the sign for negative x";
const char* const kErf =
    "you computed the exact x Phi(x) with erf: right on paper, but the GPT (and pg::gelu) uses the tanh "
    "approximation, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), up to 0.00047 away";
const char* const kRelu = "your values are relu(x), max(0, x): GELU is 0.5 x (1 + tanh(u)), smooth and slightly "
                          "negative for negative x";
const char* const kNoX = "the x in front is missing: 0.5 x (1 + tanh(u)), not 0.5 (1 + tanh(u))";
const char* const kCubeOutside =
    "0.044715 x^3 outside the sqrt(2/pi): the bracket holds both terms, u = sqrt(2/pi) * (x + 0.044715 x^3)";
const char* const kExpTanh =
    "nan far out: tanh written as (e^u - e^-u) / (e^u + e^-u), and e^u overflows to inf for u past 88 in "
    "float (709 in double), so inf / inf = nan; use std::tanh, which saturates at -1 and 1";

inline double tanh_approx(double v, double k, bool cube_inside, bool square) {
    double p = square ? v * v : v * v * v;
    return cube_inside ? std::tanh(k * (v + 0.044715 * p)) : std::tanh(k * v + 0.044715 * p);
}

// The usual slips, one function each: your values are compared with every one of them.
inline std::vector<std::pair<const char*, std::function<double(double)>>> gelu_slips() {
    const double k = std::sqrt(2.0 / kPi);
    return {
        {kSqrt2Pi, [](double v) { return 0.5 * v * (1 + tanh_approx(v, std::sqrt(2 * kPi), true, false)); }},
        {kNoHalf, [k](double v) { return v * (1 + tanh_approx(v, k, true, false)); }},
        {kSquare, [k](double v) { return 0.5 * v * (1 + tanh_approx(v, k, true, true)); }},
        {kErf, [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }},
        {kRelu, [](double v) { return v > 0 ? v : 0.0; }},
        {kNoX, [k](double v) { return 0.5 * (1 + tanh_approx(v, k, true, false)); }},
        {kCubeOutside, [k](double v) { return 0.5 * v * (1 + tanh_approx(v, k, false, false)); }},
    };
}

inline bool has_nan(const pg::Tensor& t) {
    for (size_t i = 0; i < t.numel(); ++i)
        if (!std::isfinite(t.ptr()[i])) return true;
    return false;
}

inline std::string gelu_diagnosis(const pg::Tensor& x, const pg::Tensor& got) {
    if (got.shape() != x.shape())
        return "gelu works on every element on its own: return pg::tensor(values, x.shape()), the shape of x";
    if (has_nan(got)) return kExpTanh;
    for (const auto& [hint, f] : gelu_slips()) {
        bool all = true;
        for (size_t i = 0; i < x.numel() && all; ++i) {
            double want = f(x.ptr()[i]);
            all = std::fabs(got.ptr()[i] - want) <= 2e-5 * std::max(1.0, std::fabs(want));
        }
        if (all) return hint;
    }
    return "0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) for every element: sqrt(2/pi) = 0.7979, the cube "
           "x*x*x, and the 0.5 x in front";
}

inline pg::Tensor call_gelu(const pg::Tensor& x) { return exercise::gelu(x); }

inline void expect_gelu(const std::string& what, const pg::Tensor& x, const pg::Tensor& want, double tol) {
    pg::Tensor got = call_gelu(x);
    lesson::expect_near(what, got, want, tol, gelu_diagnosis(x, got));
}

// ---- feed_forward ----

inline pg::Tensor ff_variant(const pg::nn::MLP& mlp, const pg::Tensor& x, int act, bool fc_bias, bool out_bias,
                             bool residual) {
    pg::Tensor h = pg::linear(x, mlp.fc.weight, fc_bias ? mlp.fc.bias : pg::Tensor());
    h = act == 0 ? pg::gelu(h) : act == 1 ? pg::relu(h) : h;
    pg::Tensor y = pg::linear(h, mlp.out.weight, out_bias ? mlp.out.bias : pg::Tensor());
    return residual ? x + y : y;
}

inline bool close(const pg::Tensor& a, const pg::Tensor& b, double tol) {
    if (a.shape() != b.shape()) return false;
    for (size_t i = 0; i < a.numel(); ++i)
        if (!(std::fabs(a.ptr()[i] - b.ptr()[i]) <= tol)) return false;
    return true;
}

inline std::string ff_diagnosis(const pg::nn::MLP& mlp, const pg::Tensor& x, const pg::Tensor& got) {
    if (got.shape() != x.shape())
        return "the MLP gives back the shape it was given, (B,T,C): fc takes C to 4C, out takes 4C back to C";
    pg::Tensor h = pg::linear(x, mlp.fc.weight, mlp.fc.bias);
    if (!close(exercise::gelu(h), pg::gelu(h), 1e-4 * std::max(1.0, static_cast<double>(pg::max(pg::relu(h)).item()))))
        return "the GELU in the middle is your exercise::gelu, and it does not match pg::gelu on fc's outputs: "
               "fix gelu first (its own checks above say how)";
    struct Slip { int act; bool fc_bias, out_bias, residual; const char* hint; };
    const Slip slips[] = {
        {1, true, true, false, "ReLU in the middle: the GPT's MLP bends with GELU, exercise::gelu(h)"},
        {2, true, true, false, "no GELU between the two Linears: without it they collapse into one C -> C matrix; "
                               "h = exercise::gelu(h) between fc and out"},
        {0, false, true, false, "fc without its bias: pg::linear(x, mlp.fc.weight, mlp.fc.bias)"},
        {0, true, false, false, "out without its bias: pg::linear(h, mlp.out.weight, mlp.out.bias)"},
        {0, false, false, false, "both Linears without their bias: pass mlp.fc.bias and mlp.out.bias to pg::linear"},
        {0, true, true, true, "you added x to the result: the residual belongs to the block (lesson 17), "
                              "feed_forward is out(gelu(fc(x))) alone"},
    };
    for (const Slip& s : slips)
        if (close(got, ff_variant(mlp, x, s.act, s.fc_bias, s.out_bias, s.residual), 1e-4)) return s.hint;
    return "pg::linear(x, mlp.fc.weight, mlp.fc.bias) makes (B,T,4C); exercise::gelu it; then "
           "pg::linear(.., mlp.out.weight, mlp.out.bias) back to (B,T,C); keep both biases";
}

inline pg::Tensor call_ff(const pg::nn::MLP& mlp, const pg::Tensor& x) {
    try {
        return exercise::feed_forward(mlp, x);
    } catch (const pg::ShapeError& e) {
        throw lesson::CheckFailed("feed_forward(mlp, x " + lesson::str(x.shape()) + ")", "(B,T,C)",
                                  std::string("a ShapeError: ") + e.what(),
                                  "a Linear's weight is (out, in): fc.weight is (4C, C), out.weight (C, 4C); "
                                  "pg::linear(x, W, b) computes x W^T + b, so pass the weights as they are, fc "
                                  "first, and do not pg::matmul by W itself");
    }
}

inline void expect_ff(const std::string& what, const pg::nn::MLP& mlp, const pg::Tensor& x, double tol) {
    pg::Tensor got = call_ff(mlp, x);
    lesson::expect_near(what, got, mlp.forward(x), tol, ff_diagnosis(mlp, x, got));
}

}  // namespace check16

int main() {
    using namespace check16;
    lesson::Checks checks("16", "mlp_gelu");
    checks.run("gelu at -1, 0, 0.5, 2", [] {
        expect_gelu("gelu", pg::tensor({-1.f, 0.f, 0.5f, 2.f}), pg::tensor({-0.1588f, 0.f, 0.3457f, 1.9546f}), 1e-4);
    });
    checks.run("(3,5) random values of any sign, against pg::gelu", [] {
        pg::Generator gen(16);
        pg::Tensor x = pg::randn({3, 5}, gen) * 2.f;
        expect_gelu("gelu", x, pg::gelu(x), 1e-5);
    });
    checks.run("far out: gelu(-30), gelu(-20), gelu(-10) are 0, gelu(10), gelu(20), gelu(30) are 10, 20, 30, never nan", [] {
        expect_gelu("gelu", pg::tensor({-30.f, -20.f, -10.f, 10.f, 20.f, 30.f}), pg::tensor({0.f, 0.f, 0.f, 10.f, 20.f, 30.f}),
                    1e-5);
    });
    checks.run("gelu written with a loop, not pg::gelu", [] {
        pg::Tensor x = pg::tensor({-1.f, 0.5f, 2.f}, {3}, true);
        lesson::expect_not_called("gelu", call_gelu(x), "gelu",
                                  "write it with a loop over x.ptr(): u = sqrt(2/pi) (v + 0.044715 v^3), "
                                  "0.5 v (1 + std::tanh(u))");
    });
    checks.run("feed_forward against pg::nn::MLP, (2,3,8)", [] {
        pg::Generator gen(161);
        pg::nn::MLP mlp(8, 0.f, gen);
        expect_ff("feed_forward", mlp, pg::randn({2, 3, 8}, gen), 1e-4);
    });
    checks.run("feed_forward on large inputs (x times 30, fc's outputs far out), against pg::nn::MLP", [] {
        pg::Generator gen(163);
        pg::nn::MLP mlp(8, 0.f, gen);
        expect_ff("feed_forward", mlp, pg::randn({1, 4, 8}, gen) * 30.f, 1e-3);
    });
    checks.run("feed_forward uses your exercise::gelu, not pg::gelu or mlp.forward", [] {
        pg::Generator gen(164);
        pg::nn::MLP mlp(4, 0.f, gen);
        lesson::expect_not_called("feed_forward", call_ff(mlp, pg::randn({1, 2, 4}, gen)), "gelu",
                                  "mlp.forward calls pg::gelu too; build it from pg::linear(x, mlp.fc.weight, "
                                  "mlp.fc.bias), exercise::gelu, and pg::linear(.., mlp.out.weight, mlp.out.bias)");
    });
    checks.run("feed_forward works on each position alone", [] {
        pg::Generator gen(162);
        pg::nn::MLP mlp(4, 0.f, gen);
        pg::Tensor x = pg::randn({1, 5, 4}, gen);
        pg::Tensor y = call_ff(mlp, x);
        pg::Tensor first = call_ff(mlp, pg::slice(x, 1, 0, 1));
        lesson::expect_near("position 0 computed alone", first, pg::slice(y, 1, 0, 1), 1e-5,
                            "nothing in the MLP looks at other positions: no sum or mean over T");
    });
    return checks.finish();
}
