// Lesson 04's checks for central_difference and numeric_gradient, shared by starter.cpp,
// solution.cpp and your exercise.cpp. Exact answers where the math gives them, else the library's.
// When your number is wrong, the check recomputes the usual wrong formulas (the forward difference,
// 2h written as h, the nudge never undone, ...) and names the one your number matches.
#include "check.hpp"
#include "check_tools.hpp"

namespace check04 {

using F1 = std::function<double(double)>;
using Fn = std::function<double(const std::vector<double>&)>;

// a within tol of b, relative to |b| above 1: how a wrong formula's number is matched
static bool close(double a, double b, double tol) {
    return std::fabs(a - b) <= tol * std::max(1.0, std::fabs(b));
}
// a within tol of b: how a number is checked
static bool within(double a, double b, double tol) { return std::fabs(a - b) <= tol; }

static std::string float_hint() {
    return lesson::tr("you kept f's values in float: a float holds about 7 digits (near 1.5e8 it is only good to 16), and dividing "
                      "the difference of two close values by 2h magnifies that rounding. Keep them in double",
                      "你把 f 的值存成了 float：float 只有大约 7 位有效数字（在 1.5e8 附近只精确到 16），而把两个相近值的差除以 2h 会放大这个舍入误差。要用 double 存它们");
}

// The usual wrong central differences of f at x, each with the hint that names it.
static std::vector<std::pair<double, std::string>> wrong_differences(const F1& f, double x, double h) {
    auto fl = [&](double t) { return static_cast<double>(static_cast<float>(f(t))); };
    return {
        {(f(x + h) - f(x)) / h, lesson::tr("you computed the forward difference (f(x + h) - f(x)) / h, whose error shrinks "
                                "only like h: take f at x + h and at x - h",
                                "你算的是前向差分 (f(x + h) - f(x)) / h，它的误差只按 h 的速度缩小：要取 f 在 x + h 和 x - h 处的值")},
        {(f(x) - f(x - h)) / h, lesson::tr("you computed the backward difference (f(x) - f(x - h)) / h: take f at x + h and "
                                "at x - h",
                                "你算的是后向差分 (f(x) - f(x - h)) / h：要取 f 在 x + h 和 x - h 处的值")},
        {(f(x + h) - f(x - h)) / h, lesson::tr("your slope is twice too large: x - h and x + h are 2h apart, so divide by 2h, "
                                    "not h",
                                    "你的斜率大了一倍：x - h 和 x + h 相距 2h，所以要除以 2h，而不是 h")},
        {(f(x + h) - f(x - h)) / 2 * h, lesson::tr("you wrote / 2 * h, which is (... / 2) * h: C++ reads * and / from left "
                                        "to right; write / (2 * h)",
                                        "你写的是 / 2 * h，它等于 (... / 2) * h：C++ 从左到右计算 * 和 /；要写 / (2 * h)")},
        {(f(x - h) - f(x + h)) / (2 * h), lesson::tr("your slope has the wrong sign: f(x + h) - f(x - h), the later point "
                                          "first",
                                          "你的斜率符号反了：应该是 f(x + h) - f(x - h)，后面的点在前")},
        {(fl(x + h) - fl(x - h)) / (2 * h), float_hint()},
        {static_cast<float>(static_cast<float>(f(x + h)) - static_cast<float>(f(x - h))) / (2 * h), float_hint()},
    };
}

// Checks central_difference(f, x, h) against `want`; `slope` is the true derivative f'(x) (for the
// diagnosis of a fixed step).
static void expect_difference(const std::string& what, const F1& f, double x, double h, double want, double tol,
                              double slope, const std::string& fallback) {
    double got = exercise::central_difference(f, x, h);
    static std::vector<std::pair<double, double>> earlier;  // (want, got) of the checks before this one
    bool repeated = false;
    for (const auto& [w, g] : earlier) repeated = repeated || (!within(w, want, tol) && close(got, g, 1e-12));
    earlier.push_back({want, got});
    if (within(got, want, tol)) return;
    std::string hint;
    for (const auto& [value, why] : wrong_differences(f, x, h))
        if (!within(value, want, tol) && close(got, value, 1e-9)) hint = why;
    if (hint.empty() && !within(slope, want, tol) && close(got, slope, 1e-6))
        hint = lesson::tr("your number is the exact slope f'(x), not the central difference with this h: use the h you are "
               "given, not a fixed small step of your own",
               "你的数是精确的斜率 f'(x)，而不是用这个 h 的中心差分：要用给你的 h，不要用你自己固定的小步长");
    if (hint.empty() && repeated)
        hint = lesson::tr("your number is the one your function returned for an earlier, different f, x or h: compute "
                          "it from this call's f, x and h, not from a constant or a static kept from a call before",
                          "你的数和你的函数在前面对另一组 f、x 或 h 返回的一样：要用这一次调用的 f、x、h 来算，"
                          "不能用常量，也不能用上一次调用留下的 static 变量");
    lesson::expect_near(what, got, want, tol, hint.empty() ? fallback : hint);
}

// The usual wrong numeric gradients of f at x, each with the hint that names it.
static std::vector<std::pair<std::vector<double>, std::string>> wrong_gradients(const Fn& f,
                                                                                const std::vector<double>& x,
                                                                                double h) {
    const size_t n = x.size();
    std::vector<double> unrestored(n), at_once(n), half(n), forward(n), first_only(n), floats(n), float_diffs(n), over_h(n);
    std::vector<double> moved = x, up = x, down = x;
    for (size_t i = 0; i < n; ++i) up[i] += h, down[i] -= h;
    double all = (f(up) - f(down)) / (2 * h);
    for (size_t i = 0; i < n; ++i) {
        std::vector<double> p = x, m = x;
        p[i] += h, m[i] -= h;
        double fp = f(p), fm = f(m), f0 = f(x);
        half[i] = (fp - f0) / (2 * h);
        forward[i] = (fp - f0) / h;
        over_h[i] = (fp - fm) / h;
        floats[i] = (static_cast<double>(static_cast<float>(fp)) - static_cast<float>(fm)) / (2 * h);
        float_diffs[i] = static_cast<float>(static_cast<float>(fp) - static_cast<float>(fm)) / (2 * h);
        at_once[i] = all;
        std::vector<double> p0 = x, m0 = x;
        p0[0] += h, m0[0] -= h;
        first_only[i] = (f(p0) - f(m0)) / (2 * h);
        moved[i] = x[i] + h;  // the nudge never undone: x[i] stays at x[i] - h for the later coordinates
        double u = f(moved);
        moved[i] = x[i] - h;
        unrestored[i] = (u - f(moved)) / (2 * h);
    }
    return {
        {unrestored, lesson::tr("your later entries are off: after nudging x[i] you left it at x[i] - h, so every later "
                     "coordinate was measured at a moved point. Restore x[i] before moving on",
                     "你后面的分量不对：微调 x[i] 之后你把它留在了 x[i] - h，所以之后的每个坐标都是在挪动过的点上测量的。处理下一个坐标之前先把 x[i] 还原")},
        {at_once, lesson::tr("every entry is the same number: you nudged all the coordinates at once (the slope along "
                  "(1, 1, ...)). Nudge one coordinate, leave the others as they are",
                  "每个分量都是同一个数：你一次微调了所有坐标（沿 (1, 1, ...) 方向的斜率）。一次只微调一个坐标，其他的保持不变")},
        {half, lesson::tr("your entries are half the forward difference: after nudged[i] += h, the -= h brings it back to "
               "x[i], not to x[i] - h. Set nudged[i] = x[i] + h, then nudged[i] = x[i] - h",
               "你的分量是前向差分的一半：nudged[i] += h 之后，-= h 把它带回了 x[i]，而不是 x[i] - h。先设 nudged[i] = x[i] + h，再设 nudged[i] = x[i] - h")},
        {forward, lesson::tr("you computed forward differences (f(x + h e_i) - f(x)) / h: take f at x[i] + h and at x[i] - h",
                  "你算的是前向差分 (f(x + h e_i) - f(x)) / h：要取 f 在 x[i] + h 和 x[i] - h 处的值")},
        {over_h, lesson::tr("your entries are twice too large: divide by 2h, not h", "你的分量大了一倍：要除以 2h，而不是 h")},
        {first_only, lesson::tr("every entry is the slope along x[0]: nudge coordinate i, nudged[i], not nudged[0]",
                     "每个分量都是沿 x[0] 的斜率：要微调第 i 个坐标 nudged[i]，而不是 nudged[0]")},
        {floats, float_hint()},
        {float_diffs, float_hint()},
    };
}

static bool close(const std::vector<double>& a, const std::vector<double>& b, double tol) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!close(a[i], b[i], tol)) return false;
    return true;
}
static bool within(const std::vector<double>& a, const std::vector<double>& b, double tol) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!within(a[i], b[i], tol)) return false;
    return true;
}

static void expect_gradient(const std::string& what, const Fn& f, const std::vector<double>& x, double h,
                            const std::vector<double>& want, double tol, const std::string& fallback) {
    std::vector<double> got = exercise::numeric_gradient(f, x, h);
    static std::vector<std::vector<double>> earlier;  // the right gradients of the checks before this one
    using Gradient = std::vector<double>;
    const bool back = lesson::came_back(
        got, want, earlier, [](const Gradient& a, const Gradient& b) { return close(a, b, 1e-12); },
        [&](const Gradient& a, const Gradient& b) { return !within(a, b, tol); }, lesson::Remember::right_answers);
    const std::string back_hint = lesson::came_back_hint({"gradient", "梯度"}, {"f, x and h", "f、x 和 h"});
    if (got.size() != want.size())
        throw lesson::CheckFailed(what + lesson::tr("'s size", " 的大小"),
                                  std::to_string(want.size()) + lesson::tr(" entries", " 个分量"),
                                  std::to_string(got.size()) + lesson::tr(" entries", " 个分量"),
                                  back ? back_hint
                                       : lesson::tr("one entry per coordinate of x: std::vector<double> grad(x.size())",
                                                    "x 的每个坐标一个分量：std::vector<double> grad(x.size())"));
    if (within(got, want, tol)) return;
    std::string hint;
    for (const auto& [value, why] : wrong_gradients(f, x, h))
        if (!within(value, want, tol) && close(got, value, 1e-9)) hint = why;
    if (hint.empty() && back) hint = back_hint;
    auto list = [](const std::vector<double>& v) {
        std::string out = "(";
        for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + lesson::num(v[i], 6);
        return out + ")";
    };
    throw lesson::CheckFailed(what, list(want) + lesson::tr(" (within ", "（每个误差都不超过 ") + lesson::num(tol, 6) + lesson::tr(" of each)", "）"),
                              list(got), hint.empty() ? fallback : hint);
}

}  // namespace check04

int main() {
    using namespace check04;
    lesson::Checks checks("04", "derivatives");
    auto cubic = [](double x) { return x * x * x - 2 * x; };
    checks.run(lesson::tr("x^3 - 2x at 1.5 with h = 0.1 gives 4.76",
               "x^3 - 2x 在 1.5 处、h = 0.1，得到 4.76"), [&] {
        expect_difference("central_difference", cubic, 1.5, 0.1, 4.76, 1e-9, 4.75,
                          lesson::tr("(f(x + h) - f(x - h)) / (2h); 5.21 would be the forward difference (f(x + h) - f(x)) / h",
                          "(f(x + h) - f(x - h)) / (2h)；5.21 会是前向差分 (f(x + h) - f(x)) / h"));
    });
    checks.run(lesson::tr("the same with h = 0.5 gives f' + h^2 = 5", "同样的函数，h = 0.5，得到 f' + h^2 = 5"), [&] {
        expect_difference("central_difference", cubic, 1.5, 0.5, 5.0, 1e-9, 4.75,
                          lesson::tr("with h = 0.5 the central difference of this cubic is f'(1.5) + h^2 = 4.75 + 0.25 = 5: "
                                     "(f(x + h) - f(x - h)) / (2h) with this call's h",
                                     "h = 0.5 时，这个三次函数的中心差分是 f'(1.5) + h^2 = 4.75 + 0.25 = 5："
                                     "用这一次调用的 h 算 (f(x + h) - f(x - h)) / (2h)"));
    });
    checks.run(lesson::tr("sin at 1 with h = 1e-4 gives cos(1)", "sin 在 1 处、h = 1e-4，得到 cos(1)"), [] {
        auto sine = [](double x) { return std::sin(x); };
        expect_difference("central_difference", sine, 1.0, 1e-4, std::cos(1.0), 1e-8, std::cos(1.0),
                          lesson::tr("(f(x + h) - f(x - h)) / (2h) of sin at 1 with h = 1e-4 is cos(1) within 1e-8",
                                     "sin 在 1 处、h = 1e-4 时，(f(x + h) - f(x - h)) / (2h) 与 cos(1) 相差不超过 1e-8"));
    });
    checks.run(lesson::tr("tanh(2x + 1) at 0.25 agrees with the library's backward",
               "tanh(2x + 1) 在 0.25 处，与库的 backward() 给出的导数一致"), [] {
        pg::Tensor x = pg::scalar(0.25f, true);
        pg::tanh(x * 2.f + 1.f).backward();
        auto g = [](double t) { return std::tanh(2 * t + 1); };
        expect_difference("central_difference", g, 0.25, 1e-3, x.grad().item(), 1e-5, x.grad().item(),
                          lesson::tr("evaluate f at x + h and at x - h", "在 x + h 和 x - h 处计算 f"));
    });
    checks.run(lesson::tr("a large offset: x^2 at x = 12345 with h = 0.001 gives 24690",
               "很大的偏移：x^2 在 x = 12345 处、h = 0.001，得到 24690"), [] {
        auto square = [](double x) { return x * x; };
        expect_difference("central_difference", square, 12345.0, 1e-3, 24690.0, 1e-3, 24690.0,
                          lesson::tr("f(x + h) and f(x - h) are both near 1.5e8 and differ by only 49.38: (f(x + h) - f(x - h)) "
                                     "/ (2h), both values and their difference in double, gives 24690",
                                     "f(x + h) 和 f(x - h) 都接近 1.5e8，只相差 49.38：两个值和它们的差都用 double，"
                                     "(f(x + h) - f(x - h)) / (2h) 得到 24690"));
    });
    checks.run(lesson::tr("gradient of a*b + b^2 at (2, -3) is (-3, -4)",
               "a*b + b^2 在 (2, -3) 处的梯度是 (-3, -4)"), [] {
        auto F = [](const std::vector<double>& v) { return v[0] * v[1] + v[1] * v[1]; };
        expect_gradient("numeric_gradient", F, {2.0, -3.0}, 1e-3, {-3.0, -4.0}, 1e-6,
                        lesson::tr("one central difference per coordinate: nudge x[i] by +h and -h, leave the others as they are",
                        "每个坐标一个中心差分：把 x[i] 微调 +h 和 -h，其他坐标保持不变"));
    });
    checks.run(lesson::tr("gradient of log(sum(exp(v))) at (1, 2, 3) is softmax(v)",
               "log(sum(exp(v))) 在 (1, 2, 3) 处的梯度是 softmax(v)"), [] {
        auto logsumexp = [](const std::vector<double>& v) {
            double s = 0;
            for (double e : v) s += std::exp(e);
            return std::log(s);
        };
        std::vector<float> p = pg::softmax(pg::tensor({1.f, 2.f, 3.f}), -1).to_vector();
        expect_gradient("numeric_gradient", logsumexp, {1.0, 2.0, 3.0}, 1e-4, {p[0], p[1], p[2]}, 1e-6,
                        lesson::tr("return one entry per coordinate of x, in order; restore x[i] after nudging it",
                        "x 的每个坐标按顺序返回一个分量；微调 x[i] 之后要把它还原"));
    });
    checks.run(lesson::tr("gradient of u*v*w at (1, 2, 3) is (6, 3, 2): each entry on its own",
               "u*v*w 在 (1, 2, 3) 处的梯度是 (6, 3, 2)：每个分量各算各的"), [] {
        auto F = [](const std::vector<double>& v) { return v[0] * v[1] * v[2]; };
        expect_gradient("numeric_gradient", F, {1.0, 2.0, 3.0}, 1e-3, {6.0, 3.0, 2.0}, 1e-6,
                        lesson::tr("entry i is the slope along x[i] alone: nudge x[i], evaluate, put it back",
                        "第 i 个分量只是沿 x[i] 的斜率：微调 x[i]，计算，再放回去"));
    });
    checks.run(lesson::tr("a large offset: |v|^2 at (30000, -20000) with h = 0.001 is (60000, -40000)",
               "很大的偏移：|v|^2 在 (30000, -20000) 处、h = 0.001，是 (60000, -40000)"), [] {
        auto F = [](const std::vector<double>& v) { return v[0] * v[0] + v[1] * v[1]; };
        expect_gradient("numeric_gradient", F, {3e4, -2e4}, 1e-3, {6e4, -4e4}, 1e-3,
                        lesson::tr("f is near 1.3e9 and moves by only 120 between x[i] - h and x[i] + h: one central "
                                   "difference per coordinate, f's values and their difference in double, gives (60000, -40000)",
                                   "f 接近 1.3e9，在 x[i] - h 和 x[i] + h 之间只变化 120：每个坐标一个中心差分，f 的值和它们的差都用 "
                                   "double，得到 (60000, -40000)"));
    });
    return checks.finish();
}
