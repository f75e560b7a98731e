// Lesson 16's checks for gelu and feed_forward, shared by starter.cpp, solution.cpp and your
// exercise.cpp. Values by hand and against pg::gelu, far out at +-10 to +-30, then the whole MLP
// against pg::nn::MLP; a wrong result is compared with the usual slips to name the likely one.
#include "check.hpp"
#include "check_tools.hpp"

namespace check16 {

const double kPi = 3.14159265358979323846;

inline std::string sqrt_2pi_hint() {
    return lesson::tr("you scaled by sqrt(2 pi) = 2.5066; the constant is sqrt(2/pi) = 0.7979",
                      "你乘的是 sqrt(2 pi) = 2.5066；这个常数应该是 sqrt(2/pi) = 0.7979");
}
inline std::string no_half_hint() {
    return lesson::tr("your values are twice gelu: the 0.5 in front is missing, 0.5 x (1 + tanh(u)) (gelu(2) = 1.9546, not 3.9)",
                      "你的值是 gelu 的两倍：缺了前面的 0.5，0.5 x (1 + tanh(u))（gelu(2) = 1.9546，不是 3.9）");
}
inline std::string square_hint() {
    return lesson::tr("you used the square, not the cube: u = sqrt(2/pi) (x + 0.044715 x*x*x); x*x loses the sign for negative x",
                      "你用的是平方，不是立方：u = sqrt(2/pi) (x + 0.044715 x*x*x)；x*x 对负的 x 丢掉了符号");
}
inline std::string erf_hint() {
    return lesson::tr("you computed the exact x Phi(x) with erf: right on paper, but the GPT (and pg::gelu) uses the tanh "
                      "approximation, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), up to 0.00047 away",
                      "你用 erf 算出了精确的 x Phi(x)：纸面上没错，但 GPT（以及 pg::gelu）用的是 tanh 近似，0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))，两者最多相差 0.00047");
}
inline std::string relu_hint() {
    return lesson::tr("your values are relu(x), max(0, x): GELU is 0.5 x (1 + tanh(u)), smooth and slightly "
                      "negative for negative x",
                      "你的值是 relu(x)，即 max(0, x)：GELU 是 0.5 x (1 + tanh(u))，它是光滑的，对负的 x 略小于 0");
}
inline std::string no_x_hint() {
    return lesson::tr("the x in front is missing: 0.5 x (1 + tanh(u)), not 0.5 (1 + tanh(u))",
                      "缺了前面的 x：应是 0.5 x (1 + tanh(u))，而不是 0.5 (1 + tanh(u))");
}
inline std::string cube_outside_hint() {
    return lesson::tr("0.044715 x^3 outside the sqrt(2/pi): the bracket holds both terms, u = sqrt(2/pi) * (x + 0.044715 x^3)",
                      "0.044715 x^3 放在了 sqrt(2/pi) 的外面：括号里要包含两项，u = sqrt(2/pi) * (x + 0.044715 x^3)");
}
inline std::string exp_tanh_hint() {
    return lesson::tr("nan far out: tanh written with exponentials, as (e^u - e^-u) / (e^u + e^-u); your values are nan or inf "
                      "only where |u| is past 88, where e^u overflows to inf in float (709 in double), and inf / inf = nan; "
                      "use std::tanh, which saturates at -1 and 1",
                      "远处出现 nan：tanh 是用指数写的，比如 (e^u - e^-u) / (e^u + e^-u)；你的值只在 |u| 超过 88 的地方是 nan 或 inf，"
                      "在那里 e^u 在 float 里溢出为 inf（double 里是 709），于是 inf / inf = nan；请用 std::tanh，它会在 -1 和 1 处饱和");
}

inline double tanh_approx(double v, double k, bool cube_inside, bool square) {
    double p = square ? v * v : v * v * v;
    return cube_inside ? std::tanh(k * (v + 0.044715 * p)) : std::tanh(k * v + 0.044715 * p);
}

// The usual slips, one function each: your values are compared with every one of them.
inline std::vector<std::pair<std::string, std::function<double(double)>>> gelu_slips() {
    const double k = std::sqrt(2.0 / kPi);
    return {
        {sqrt_2pi_hint(), [](double v) { return 0.5 * v * (1 + tanh_approx(v, std::sqrt(2 * kPi), true, false)); }},
        {no_half_hint(), [k](double v) { return v * (1 + tanh_approx(v, k, true, false)); }},
        {square_hint(), [k](double v) { return 0.5 * v * (1 + tanh_approx(v, k, true, true)); }},
        {erf_hint(), [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }},
        {relu_hint(), [](double v) { return v > 0 ? v : 0.0; }},
        {no_x_hint(), [k](double v) { return 0.5 * (1 + tanh_approx(v, k, true, false)); }},
        {cube_outside_hint(), [k](double v) { return 0.5 * v * (1 + tanh_approx(v, k, false, false)); }},
    };
}

// Right wherever e^|u| fits in a float, nan or inf somewhere past it (|u| > 88): a tanh built from exponentials.
inline bool overflowed_tanh(const pg::Tensor& x, const pg::Tensor& got) {
    const double k = std::sqrt(2.0 / kPi);
    bool overflowed = false;
    for (size_t i = 0; i < x.numel(); ++i) {
        double v = x.ptr()[i], u = k * (v + 0.044715 * v * v * v), want = 0.5 * v * (1 + std::tanh(u));
        if (!std::isfinite(got.ptr()[i])) {
            if (std::fabs(u) <= 88) return false;
            overflowed = true;
        } else if (std::fabs(got.ptr()[i] - want) > 2e-5 * std::max(1.0, std::fabs(want))) {
            return false;
        }
    }
    return overflowed;
}

inline std::string gelu_diagnosis(const pg::Tensor& x, const pg::Tensor& got) {
    if (got.shape() != x.shape())
        return lesson::tr("gelu works on every element on its own: return pg::tensor(values, x.shape()), the shape of x",
                          "gelu 对每个元素单独计算：return pg::tensor(values, x.shape())，即 x 的形状");
    if (overflowed_tanh(x, got)) return exp_tanh_hint();
    for (const auto& [hint, f] : gelu_slips()) {
        bool all = true;
        for (size_t i = 0; i < x.numel() && all; ++i) {
            double want = f(x.ptr()[i]);
            all = std::fabs(got.ptr()[i] - want) <= 2e-5 * std::max(1.0, std::fabs(want));
        }
        if (all) return hint;
    }
    for (size_t i = 0; i < x.numel(); ++i)
        if (!std::isfinite(got.ptr()[i]))
            return "gelu(" + lesson::num(x.ptr()[i], 2) + lesson::tr(") came out ", ") 得到了 ") +
                   lesson::num(got.ptr()[i], 4) +
                   lesson::tr(": gelu is finite for every finite x (about x far right, about 0 far left); look for a "
                              "division or an exp that overflows there",
                              "：对每个有限的 x，gelu 都是有限的（右边远处约为 x，左边远处约为 0）；找找那里溢出的除法或 exp");
    return lesson::tr("0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) for every element: sqrt(2/pi) = 0.7979, the cube "
                      "x*x*x, and the 0.5 x in front",
                      "对每个元素计算 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))：sqrt(2/pi) = 0.7979，立方是 x*x*x，前面还有 0.5 x");
}

// Your gelu, and an answer repeated from an earlier call caught: the same as what gelu returned for an
// earlier x (whose right answer differs) is a constant or a static.
inline pg::Tensor call_gelu(const pg::Tensor& x) {
    static std::vector<pg::Tensor> earlier;  // what gelu returned in the checks before
    pg::Tensor got = exercise::gelu(x);
    if (lesson::came_back(got, pg::gelu(x.detach()), earlier, 0.0, 1e-4))
        throw lesson::CheckFailed("gelu", lesson::tr("values computed from this call's x", "由这一次调用的 x 算出的值"),
                                  lesson::tr("the values of an earlier call", "先前一次调用的值"),
                                  lesson::came_back_hint({"gelu values", "gelu 值"}, {"x", "x"}, lesson::Noun::plural));
    return got;
}

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
        return lesson::tr("the MLP gives back the shape it was given, (B,T,C): fc takes C to 4C, out takes 4C back to C",
                          "MLP 返回的形状就是它接收的形状 (B,T,C)：fc 把 C 变成 4C，out 再把 4C 变回 C");
    pg::Tensor h = pg::linear(x, mlp.fc.weight, mlp.fc.bias);
    if (!close(exercise::gelu(h), pg::gelu(h), 1e-4 * std::max(1.0, static_cast<double>(pg::max(pg::relu(h)).item()))))
        return lesson::tr("the GELU in the middle is your exercise::gelu, and it does not match pg::gelu on fc's outputs: "
                          "fix gelu first (its own checks above say how)",
                          "中间的 GELU 是你的 exercise::gelu，而它在 fc 的输出上与 pg::gelu 不一致：先修好 gelu（上面它自己的检查会告诉你怎么修）");
    struct Slip { int act; bool fc_bias, out_bias, residual; std::string hint; };
    const Slip slips[] = {
        {1, true, true, false, lesson::tr("ReLU in the middle: the GPT's MLP bends with GELU, exercise::gelu(h)",
                                          "中间用了 ReLU：GPT 的 MLP 用 GELU 弯折，exercise::gelu(h)")},
        {2, true, true, false, lesson::tr("no GELU between the two Linears: without it they collapse into one C -> C matrix; "
                                          "h = exercise::gelu(h) between fc and out",
                                          "两个 Linear 之间没有 GELU：没有它，两者会塌缩成一个 C -> C 的矩阵；在 fc 和 out 之间加上 h = exercise::gelu(h)")},
        {0, false, true, false, lesson::tr("fc without its bias: pg::linear(x, mlp.fc.weight, mlp.fc.bias)",
                                           "fc 缺了 bias：pg::linear(x, mlp.fc.weight, mlp.fc.bias)")},
        {0, true, false, false, lesson::tr("out without its bias: pg::linear(h, mlp.out.weight, mlp.out.bias)",
                                           "out 缺了 bias：pg::linear(h, mlp.out.weight, mlp.out.bias)")},
        {0, false, false, false, lesson::tr("both Linears without their bias: pass mlp.fc.bias and mlp.out.bias to pg::linear",
                                            "两个 Linear 都缺了 bias：把 mlp.fc.bias 和 mlp.out.bias 传给 pg::linear")},
        {0, true, true, true, lesson::tr("you added x to the result: the residual belongs to the block (lesson 17), "
                                         "feed_forward is out(gelu(fc(x))) alone",
                                         "你把 x 加到了结果上：残差属于块（第 17 课），feed_forward 只是 out(gelu(fc(x)))")},
    };
    for (const Slip& s : slips)
        if (close(got, ff_variant(mlp, x, s.act, s.fc_bias, s.out_bias, s.residual), 1e-4)) return s.hint;
    return lesson::tr("pg::linear(x, mlp.fc.weight, mlp.fc.bias) makes (B,T,4C); exercise::gelu it; then "
                      "pg::linear(.., mlp.out.weight, mlp.out.bias) back to (B,T,C); keep both biases",
                      "pg::linear(x, mlp.fc.weight, mlp.fc.bias) 得到 (B,T,4C)；对它做 exercise::gelu；然后 pg::linear(.., mlp.out.weight, mlp.out.bias) 变回 (B,T,C)；两个 bias 都要保留");
}

// Your feed_forward, with a ShapeError turned into a hint and an answer repeated from an earlier call caught.
inline pg::Tensor call_ff(const pg::nn::MLP& mlp, const pg::Tensor& x) {
    static std::vector<pg::Tensor> earlier;  // what feed_forward returned in the checks before
    pg::Tensor got;
    try {
        got = exercise::feed_forward(mlp, x);
    } catch (const pg::ShapeError& e) {
        const pg::Tensor h = pg::linear(x, mlp.fc.weight, mlp.fc.bias);  // what your gelu is given
        const pg::Shape gelu_shape = exercise::gelu(h).shape();
        throw lesson::CheckFailed("feed_forward(mlp, x " + lesson::str(x.shape()) + ")", "(B,T,C)",
                                  lesson::tr("a ShapeError: ", "抛出了 ShapeError：") + e.what(),
                                  gelu_shape != h.shape()
                                      ? lesson::tr("fc's output has shape ", "fc 的输出形状是 ") + lesson::str(h.shape()) +
                                            lesson::tr(" and your exercise::gelu gives back ",
                                                       "，你的 exercise::gelu 却返回了 ") +
                                            lesson::str(gelu_shape) +
                                            lesson::tr(": gelu gives back the shape it is given; fix gelu first (its own "
                                                       "checks above say how)",
                                                       "：gelu 返回的形状应与输入相同；先修好 gelu（上面它自己的检查会告诉你怎么修）")
                                      : lesson::tr("a Linear's weight is (out, in): fc.weight is (4C, C), out.weight (C, 4C); "
                                                   "pg::linear(x, W, b) computes x W^T + b, so pass the weights as they are, "
                                                   "fc first, and do not pg::matmul by W itself",
                                                   "Linear 的权重是 (out, in)：fc.weight 是 (4C, C)，out.weight 是 (C, 4C)；"
                                                   "pg::linear(x, W, b) 计算的是 x W^T + b，所以按原样传入权重，先 fc，"
                                                   "也不要自己用 pg::matmul 乘 W"));
    }
    if (lesson::came_back(got, mlp.forward(x), earlier, 0.0, 1e-4))
        throw lesson::CheckFailed("feed_forward", lesson::tr("an output computed from this call's mlp and x", "由这一次调用的 mlp 和 x 算出的输出"),
                                  lesson::tr("the output of an earlier call", "先前一次调用的输出"),
                                  lesson::came_back_hint({"MLP output", "MLP 输出"}, {"mlp and x", "mlp 和 x"}));
    return got;
}

inline void expect_ff(const std::string& what, const pg::nn::MLP& mlp, const pg::Tensor& x, double tol) {
    pg::Tensor got = call_ff(mlp, x);
    lesson::expect_near(what, got, mlp.forward(x), tol, ff_diagnosis(mlp, x, got));
}

}  // namespace check16

int main() {
    using namespace check16;
    lesson::Checks checks("16", "mlp_gelu");
    checks.run(lesson::tr("gelu at -1, 0, 0.5, 2", "gelu 在 -1、0、0.5、2 处的值"), [] {
        expect_gelu("gelu", pg::tensor({-1.f, 0.f, 0.5f, 2.f}), pg::tensor({-0.1588f, 0.f, 0.3457f, 1.9546f}), 1e-4);
    });
    checks.run(lesson::tr("(3,5) random values of any sign, against pg::gelu", "(3,5) 的正负随机值，与 pg::gelu 对比"), [] {
        pg::Generator gen(16);
        pg::Tensor x = pg::randn({3, 5}, gen) * 2.f;
        expect_gelu("gelu", x, pg::gelu(x), 1e-5);
    });
    checks.run(lesson::tr("far out: gelu(-30), gelu(-20), gelu(-10) are 0, gelu(10), gelu(20), gelu(30) are 10, 20, 30, never nan",
                          "远处：gelu(-30)、gelu(-20)、gelu(-10) 为 0，gelu(10)、gelu(20)、gelu(30) 为 10、20、30，绝不是 nan"), [] {
        expect_gelu("gelu", pg::tensor({-30.f, -20.f, -10.f, 10.f, 20.f, 30.f}), pg::tensor({0.f, 0.f, 0.f, 10.f, 20.f, 30.f}),
                    1e-5);
    });
    checks.run(lesson::tr("gelu written with a loop, not pg::gelu", "gelu 用循环写，而不是调用 pg::gelu"), [] {
        pg::Tensor x = pg::tensor({-1.f, 0.5f, 2.f}, {3}, true);
        lesson::expect_not_called("gelu", call_gelu(x), "gelu",
                                  lesson::tr("write it with a loop over x.ptr(): u = sqrt(2/pi) (v + 0.044715 v^3), "
                                             "0.5 v (1 + std::tanh(u))",
                                             "用遍历 x.ptr() 的循环来写：u = sqrt(2/pi) (v + 0.044715 v^3)，0.5 v (1 + std::tanh(u))"));
    });
    checks.run(lesson::tr("feed_forward against pg::nn::MLP, (2,3,8)", "feed_forward 与 pg::nn::MLP 对比，(2,3,8)"), [] {
        pg::Generator gen(161);
        pg::nn::MLP mlp(8, 0.f, gen);
        expect_ff("feed_forward", mlp, pg::randn({2, 3, 8}, gen), 1e-4);
    });
    checks.run(lesson::tr("feed_forward on large inputs (x times 30, fc's outputs far out), against pg::nn::MLP",
                          "大输入上的 feed_forward（x 乘以 30，fc 的输出远离 0），与 pg::nn::MLP 对比"), [] {
        pg::Generator gen(163);
        pg::nn::MLP mlp(8, 0.f, gen);
        expect_ff("feed_forward", mlp, pg::randn({1, 4, 8}, gen) * 30.f, 1e-3);
    });
    checks.run(lesson::tr("feed_forward uses your exercise::gelu, not pg::gelu or mlp.forward",
                          "feed_forward 用的是你的 exercise::gelu，而不是 pg::gelu 或 mlp.forward"), [] {
        pg::Generator gen(164);
        pg::nn::MLP mlp(4, 0.f, gen);
        lesson::expect_not_called("feed_forward", call_ff(mlp, pg::randn({1, 2, 4}, gen)), "gelu",
                                  lesson::tr("mlp.forward calls pg::gelu too; build it from pg::linear(x, mlp.fc.weight, "
                                             "mlp.fc.bias), exercise::gelu, and pg::linear(.., mlp.out.weight, mlp.out.bias)",
                                             "mlp.forward 也会调用 pg::gelu；请用 pg::linear(x, mlp.fc.weight, mlp.fc.bias)、exercise::gelu 和 pg::linear(.., mlp.out.weight, mlp.out.bias) 来构建"));
    });
    checks.run(lesson::tr("feed_forward works on each position alone: the first and the last of five",
                          "feed_forward 对每个位置单独计算：五个位置中的第一个和最后一个"), [] {
        pg::Generator gen(162);
        pg::nn::MLP mlp(4, 0.f, gen);
        pg::Tensor x = pg::randn({1, 5, 4}, gen);
        pg::Tensor y = call_ff(mlp, x);
        for (long t : {0, 4})
            lesson::expect_near(lesson::tr("position ", "单独计算的位置 ") + std::to_string(t) +
                                    lesson::tr(" computed alone", ""),
                                call_ff(mlp, pg::slice(x, 1, t, t + 1)), pg::slice(y, 1, t, t + 1), 1e-5,
                                lesson::tr("nothing in the MLP looks at other positions: no sum or mean over T",
                                           "MLP 里没有任何东西会看其他位置：不在 T 上求和或求均值"));
    });
    return checks.finish();
}
