// Lesson 07's checks for max_gradient_error, shared by starter.cpp, solution.cpp and your
// exercise.cpp: correct ops must give a small error, ops with planted bugs a large one. When a
// correct op fails, ops with a backward scaled by 0, 2, -1 or 1/2 show what your numeric side does.
#include "check.hpp"
#include "planted_bugs.hpp"

namespace check07 {

using Fn = std::function<pg::Tensor(const pg::Tensor&)>;

// The learner's function, with the library's "no gradient yet" error turned into a hint.
static double error_of(const Fn& f, pg::Tensor x, double eps) {
    try {
        return exercise::max_gradient_error(f, x, eps);
    } catch (const std::logic_error& e) {
        if (std::string(e.what()).find("has no gradient yet") == std::string::npos) throw;
        throw lesson::CheckFailed("max_gradient_error", lesson::tr("x.grad() read after backward", "在 backward 之后读 x.grad()"),
                                  lesson::tr("error: ", "错误：") + e.what(),
                                  lesson::tr("x.grad() was read when x had no gradient: call x.zero_grad() before the backward "
                                  "of sum(f(x) * r), then read x.grad() after it (zero_grad after backward throws "
                                  "the gradient away)",
                                  "读 x.grad() 时 x 还没有梯度：在 sum(f(x) * r) 的 backward 之前调用 x.zero_grad()，然后在它之后读 x.grad()（在 backward 之后 zero_grad 会把梯度扔掉）"));
    }
}

// tanh whose backward is k times the true one: k = 1 is correct, k = 0, 2, -1, 1/2 are wrong in a known way.
static Fn tanh_scaled(float k) {
    return [k](const pg::Tensor& x) {
        pg::Tensor y = pg::tanh(x.detach());
        return pg::make_result(y.data(), "tanh_scaled", {x}, [k](const pg::BackwardContext& ctx) {
            pg::Array dx = ctx.gy;
            const float* y = ctx.y.data();
            for (size_t i = 0; i < dx.size(); ++i) dx.data()[i] *= k * (1.f - y[i] * y[i]);
            return std::vector<pg::Array>{dx};
        });
    };
}

// y = 2x whose backward adds 1 to element `at`: wrong at one element of x only.
static Fn double_wrong_at(size_t at) {
    return [at](const pg::Tensor& x) {
        pg::Tensor y = x.detach() * 2.f;
        return pg::make_result(y.data(), "double_wrong_at", {x}, [at](const pg::BackwardContext& ctx) {
            pg::Array dx = ctx.gy;
            for (float& v : dx) v *= 2.f;
            dx.data()[at] += 1.f;
            return std::vector<pg::Array>{dx};
        });
    };
}

// Which wrong backward does the learner's check call correct? That names what its numeric side computes.
// Then: wrong on tanh but right on a straight line (3x) points to a one-sided difference.
static std::string diagnose(const std::string& fallback) {
    auto small_for = [](const Fn& f) {
        try {
            pg::Generator gen(70);
            return error_of(f, pg::randn({3, 4}, gen, true), 1e-2) <= 1e-3;
        } catch (const std::exception&) {
            return false;
        }
    };
    if (small_for(tanh_scaled(0.f)))
        return lesson::tr("a backward that returns 0 passes your check, so your numeric differences are all 0: nudge x's own "
               "values (x.mutable_data().data() of the x you were given), not a copy (x.detach() copies), and "
               "evaluate f on that x again after each nudge",
               "一个返回 0 的 backward 通过了你的检查，所以你的数值差分全是 0：要微调 x 自己的值（传给你的那个 x 的 x.mutable_data().data()），而不是副本（x.detach() 会复制），并在每次微调之后在那个 x 上重新计算 f");
    if (small_for(tanh_scaled(2.f)))
        return lesson::tr("a backward twice too large passes your check, so your numeric derivative is twice too large: "
               "divide L(x + eps) - L(x - eps) by 2 eps, not by eps",
               "一个大了一倍的 backward 通过了你的检查，所以你的数值导数大了一倍：要把 L(x + eps) - L(x - eps) 除以 2 eps，而不是 eps");
    if (small_for(tanh_scaled(-1.f)))
        return lesson::tr("a backward with the wrong sign passes your check, so your numeric derivative has the wrong sign: "
               "L(x + eps) minus L(x - eps), in that order",
               "一个符号反了的 backward 通过了你的检查，所以你的数值导数符号反了：应该是 L(x + eps) 减 L(x - eps)，按这个顺序");
    if (small_for(tanh_scaled(0.5f)))
        return lesson::tr("a backward half as large passes your check, so your numeric derivative is half what it should be: "
               "(L(x + eps) - L(x - eps)) / (2 eps)",
               "一个只有一半大的 backward 通过了你的检查，所以你的数值导数只有应有值的一半：(L(x + eps) - L(x - eps)) / (2 eps)");
    if (!small_for(tanh_scaled(1.f)) && small_for([](const pg::Tensor& t) { return t * 3.f; }))
        return lesson::tr("your check is right on a straight line (3x) and wrong on a curve (tanh): a one-sided difference "
               "(L(x + eps) - L(x)) / eps is off by about eps/2 times the curvature; use the central difference "
               "(L(x + eps) - L(x - eps)) / (2 eps)",
               "你的检查在直线（3x）上是对的，在曲线（tanh）上是错的：单侧差分 (L(x + eps) - L(x)) / eps 会偏差约 eps/2 乘以曲率；要用中心差分 (L(x + eps) - L(x - eps)) / (2 eps)");
    return fallback;
}

static void expect_small(const std::string& what, double error, const std::string& hint) {
    if (error <= 1e-3) return;
    lesson::expect(what, false, lesson::tr("an error of 0.001 or less (a correct backward)", "误差不超过 0.001（正确的 backward）"), lesson::num(error, 6),
                   diagnose(hint));
}

// Does your check give one number for a correct tanh and one whose backward is twice too large? Then it
// returns a remembered answer (a static variable, a cache), not one computed from this call's f and x.
static bool same_for_different_ops() {
    try {
        pg::Generator gen(71);
        pg::Tensor x = pg::randn({3, 4}, gen, true);
        double right = error_of(tanh_scaled(1.f), x, 1e-2), wrong = error_of(tanh_scaled(2.f), x, 1e-2);
        return right == wrong;
    } catch (const std::exception&) {
        return false;
    }
}

static void expect_large(const std::string& what, double error, double at_least, const std::string& hint) {
    if (error < at_least && same_for_different_ops())
        lesson::expect(what, false,
                       lesson::tr("an error of ", "误差至少 ") + lesson::num(at_least, 2) +
                           lesson::tr(" or more (a buggy backward)", "（有 bug 的 backward）"),
                       lesson::num(error, 6),
                       lesson::tr("your check gives the same number for a correct tanh and for one whose backward is twice "
                                  "too large: a constant, a static variable or a stored result keeps an old answer (or both sides "
                                  "come from one computation); compute every call from its own f and x",
                                  "你的检查对正确的 tanh 和 backward 大了一倍的 tanh 给出同一个数：常量、static 变量或存下来的结果留住了旧答案（或者两边出自同一个计算）；每次调用都要用它自己的 f 和 x 来算"));
    lesson::expect(what, error >= at_least,
                   lesson::tr("an error of ", "误差至少 ") + lesson::num(at_least, 2) +
                       lesson::tr(" or more (a buggy backward)", "（有 bug 的 backward）"),
                   lesson::num(error, 6), hint);
}

}  // namespace check07

int main() {
    using check07::error_of;
    using check07::expect_large;
    using check07::expect_small;
    lesson::Checks checks("07", "gradcheck");
    const std::string small_hint =
        lesson::tr("analytic: backward of sum(f(x) * r), then x.grad(); numeric: (L(x + eps) - L(x - eps)) / (2 eps) "
        "for one element at a time, with L summed in double",
        "解析梯度：对 sum(f(x) * r) 做 backward，再读 x.grad()；数值梯度：(L(x + eps) - L(x - eps)) / (2 eps)，一次一个元素，L 用 double 求和");
    checks.run(lesson::tr("a correct op: tanh on a (3,4)", "一个正确的运算：(3,4) 上的 tanh"), [&] {
        pg::Generator gen(1);
        pg::Tensor x = pg::randn({3, 4}, gen, true);
        auto f = [](const pg::Tensor& t) { return pg::tanh(t); };
        expect_small("max_gradient_error(tanh)", error_of(f, x, 1e-2), small_hint);
    });
    checks.run(lesson::tr("a correct composition: softmax(x @ M) on a (2,3)",
               "一个正确的组合：(2,3) 上的 softmax(x @ M)"), [&] {
        pg::Generator gen(2);
        pg::Tensor x = pg::randn({2, 3}, gen, true), M = pg::randn({3, 4}, gen);
        auto f = [M](const pg::Tensor& t) { return pg::softmax(pg::matmul(t, M), -1); };
        expect_small("max_gradient_error(softmax(x @ M))", error_of(f, x, 1e-2), small_hint);
    });
    checks.run(lesson::tr("f with a 0-d output: sum(x * x)", "输出是 0 维的 f：sum(x * x)"), [&] {
        pg::Generator gen(3);
        pg::Tensor x = pg::randn({5}, gen, true);
        double error = error_of([](const pg::Tensor& t) { return pg::sum(t * t); }, x, 1e-2);
        bool right_on_tanh = false;  // the same check on a correct op whose output has x's shape
        if (error > 1e-3) {
            try {
                pg::Generator g(72);
                right_on_tanh = error_of([](const pg::Tensor& t) { return pg::tanh(t); }, pg::randn({5}, g, true), 1e-2) <= 1e-3;
            } catch (const std::exception&) {
            }
        }
        expect_small("max_gradient_error(sum(x * x))", error,
                     right_on_tanh
                         ? lesson::tr("right where f(x) has x's shape (tanh of a (5)), wrong where f(x) is 0-d: r has f(x)'s "
                                      "shape, here () (pg::scalar or a shape {} tensor), not x's shape",
                                      "在 f(x) 和 x 形状相同的地方（(5) 的 tanh）是对的，在 f(x) 为 0 维的地方错了：r 的形状和 f(x) 相同，这里是 ()（pg::scalar 或形状为 {} 的张量），不是 x 的形状")
                         : small_hint);
    });
    checks.run(lesson::tr("a curved op: exp of x in [1.5, 2.5], where the curve bends fast",
               "一个弯曲的运算：x 在 [1.5, 2.5] 里的 exp，曲线弯得很快"), [&] {
        pg::Generator gen(30);
        pg::Tensor x = (pg::uniform({2, 4}, 1.5f, 2.5f, gen)).requires_grad_();
        double error = error_of([](const pg::Tensor& t) { return pg::exp(t); }, x, 1e-2);
        expect_small("max_gradient_error(exp)", error,
                     lesson::tr("exp's backward is right and your check found an error in it, here where exp bends fast "
                       "(f'' up to 12): your numeric side is off where f bends; a one-sided difference "
                       "(L(x + eps) - L(x)) / eps errs by about eps/2 times f'' (here up to 0.06); use the central "
                       "difference (L(x + eps) - L(x - eps)) / (2 eps)",
                       "exp 的 backward 是对的，你的检查却在它身上报出了误差，而这里 exp 弯得很快（f'' 最大到 12）：你的数值那一侧在 f 弯曲的地方出了偏差；单侧差分 (L(x + eps) - L(x)) / eps 的误差约为 eps/2 乘以 f''（这里最多 0.06）；要用中心差分 (L(x + eps) - L(x - eps)) / (2 eps)"));
    });
    checks.run(lesson::tr("a large f(x): 10 x + 100 on a (40,50), L near 10^4",
               "很大的 f(x)：(40,50) 上的 10 x + 100，L 接近 10^4"), [&] {
        pg::Generator gen(31);
        pg::Tensor x = pg::randn({40, 50}, gen, true);
        double error = error_of([](const pg::Tensor& t) { return t * 10.f + 100.f; }, x, 1e-2);
        expect_small("max_gradient_error(10 x + 100)", error,
                     lesson::tr("10 x + 100 is a straight line, so every central difference is exact on paper, yet your check "
                       "found an error: L is near 10^4 here, and a float sum of its 2000 terms near 100 rounds by more "
                       "than the change one nudge makes; add up L = sum(f(x) * r) in double (pg::sum(...).item() is a "
                       "float too)",
                       "10 x + 100 是一条直线，每个中心差分在纸面上都是精确的，你的检查却报出了误差：这里 L 接近 10^4，它的 2000 个接近 100 的项用 float 求和，舍入误差会超过一次微调带来的变化；用 double 累加 L = sum(f(x) * r)（pg::sum(...).item() 也是 float）"));
    });
    checks.run(lesson::tr("planted bug: sigmoid without (1 - y)", "埋下的 bug：没有 (1 - y) 的 sigmoid"), [] {
        pg::Generator gen(4);
        pg::Tensor x = pg::randn({3, 4}, gen, true);
        expect_large("max_gradient_error(sigmoid_missing_factor)", error_of(sigmoid_missing_factor, x, 1e-2), 0.02,
                     lesson::tr("compare backward's x.grad with the central differences; return the largest difference",
                     "把 backward 得到的 x.grad 和中心差分比较；返回最大的差"));
    });
    checks.run(lesson::tr("planted bug: a backward that ignores gy", "埋下的 bug：忽略 gy 的 backward"), [] {
        pg::Generator gen(5);
        pg::Tensor x = pg::randn({3, 4}, gen, true);
        double error = error_of(triple_ignoring_gy, x, 1e-2);
        expect_large("max_gradient_error(triple_ignoring_gy)", error, 0.1,
                     lesson::tr("a backward that returns 3 whatever gy is came out right, so your weights r are 1 everywhere "
                     "(or left out), as with L = sum(f(x)), where gy is 1 and this bug hides; weight f(x) by random "
                     "numbers r (pg::uniform with a pg::Generator), so that gy = r",
                     "一个不管 gy 是多少都返回 3 的 backward 被算成了对的，所以你的权重 r 处处是 1（或者根本没有），就像 L = sum(f(x)) 那样，gy 处处是 1，这个 bug 就藏起来了；要用随机数 r 给 f(x) 加权（用 pg::uniform 和一个 pg::Generator），这样 gy = r"));
    });
    checks.run(lesson::tr("planted bug: 2x whose backward is off by 1 at one element of 100",
               "埋下的 bug：2x，它的 backward 在 100 个元素中的一个上差 1"), [] {
        pg::Generator gen(32);
        pg::Tensor x = pg::randn({10, 10}, gen, true);
        double error = error_of(check07::double_wrong_at(37), x, 1e-2);
        expect_large("max_gradient_error(double_wrong_at)", error, 0.5,
                     lesson::tr("one element of 100 (element 37) is off by 1 and your error stayed below 0.5: return the "
                     "largest |analytic - numeric| over all x.numel() elements, not their mean or the last one's",
                     "100 个元素中有一个（第 37 个）差 1，你的误差却不到 0.5：要返回全部 x.numel() 个元素上最大的 |analytic - numeric|，而不是它们的平均值或最后一个的"));
    });
    checks.run(lesson::tr("the eps you are given: 0.3, where exp bends within the step", "给你的 eps：0.3，exp 在一步之内就弯了"), [] {
        pg::Generator gen(33);
        pg::Tensor x = (pg::uniform({2, 4}, 1.5f, 2.5f, gen)).requires_grad_();
        double error = error_of([](const pg::Tensor& t) { return pg::exp(t); }, x, 0.3);
        expect_large(lesson::tr("max_gradient_error(exp) with eps = 0.3",
                     "max_gradient_error(exp)，eps = 0.3"), error, 0.01,
                     lesson::tr("with eps = 0.3 the central difference of exp errs by about eps^2/6 times its third "
                     "derivative (here up to 0.18), and your error stayed small: use the eps you are given, not a "
                     "fixed 1e-2 (pg::gradcheck with its default options uses 1e-2; this exercise is your own check)",
                     "eps = 0.3 时，exp 的中心差分误差约为 eps^2/6 乘以它的三阶导数（这里最多 0.18），而你的误差却一直很小：要用给你的 eps，而不是固定的 1e-2（pg::gradcheck 默认选项用 1e-2；这个练习是你自己的检查）"));
    });
    checks.run(lesson::tr("relu 0.004 from its kink: no alarm with eps = 0.001, the false alarm with eps = 0.01",
                          "离拐点 0.004 的 relu：eps = 0.001 时不报警，eps = 0.01 时出现误报"), [] {
        pg::Tensor x = pg::tensor({{0.004f, -0.004f, 0.004f}, {-0.004f, 0.004f, -0.004f}}).requires_grad_();
        auto relu = [](const pg::Tensor& t) { return pg::relu(t); };
        expect_small(lesson::tr("max_gradient_error(relu) with eps = 0.001", "max_gradient_error(relu)，eps = 0.001"),
                     error_of(relu, x, 1e-3),
                     lesson::tr("with eps = 0.001, x - eps and x + eps lie on one side of the kink at 0, where relu is a "
                                "straight line, so the central difference is exact and a correct check reports about 0; "
                                "yours found an error, as a step longer than 0.004 would: use the eps you are given",
                                "eps = 0.001 时，x - eps 和 x + eps 都在拐点 0 的同一侧，relu 在那里是一条直线，所以中心差分"
                                "是精确的，正确的检查报出的误差约为 0；你的检查却报出了误差，就像用了比 0.004 更长的步长那样："
                                "要用给你的 eps"));
        expect_large(lesson::tr("max_gradient_error(relu) with eps = 0.01", "max_gradient_error(relu)，eps = 0.01"),
                     error_of(relu, x, 1e-2), 0.03,
                     lesson::tr("with eps = 0.01 the central difference straddles the kink: at x = 0.004 it is "
                                "(0.014 - 0) / 0.02 = 0.7 where backward says 1, so a central difference with the eps "
                                "you are given reports 0.3 |r| there, the false alarm, and yours stayed small: use that eps "
                                "and (L(x + eps) - L(x - eps)) / (2 eps)",
                                "eps = 0.01 时中心差分跨过了拐点：在 x = 0.004 处它是 (0.014 - 0) / 0.02 = 0.7，"
                                "而 backward 说是 1，所以用给你的 eps 做中心差分会在那里报出 0.3 |r|，也就是误报，"
                                "你的误差却一直很小：要用这个 eps，并用 (L(x + eps) - L(x - eps)) / (2 eps)"));
    });
    checks.run(lesson::tr("x keeps its values", "x 保持原来的值"), [] {
        pg::Generator gen(6);
        pg::Tensor x = pg::randn({2, 3}, gen, true);
        pg::Tensor before = x.detach();
        error_of([](const pg::Tensor& t) { return pg::tanh(t); }, x, 1e-2);
        lesson::expect_near(lesson::tr("x after the check", "检查之后的 x"), x.detach(), before, 0,
                            lesson::tr("put each element back to its original value after nudging it by +eps and -eps", "每个元素微调 +eps 和 -eps 之后，要放回它原来的值"));
    });
    checks.run(lesson::tr("twice on the same x: both errors small", "在同一个 x 上做两次：两次误差都很小"), [&] {
        pg::Generator gen(7);
        pg::Tensor x = pg::randn({2, 3}, gen, true);
        auto f = [](const pg::Tensor& t) { return pg::exp(t); };
        double first = error_of(f, x, 1e-2);
        double error = error_of(f, x, 1e-2);
        expect_small(lesson::tr("the second max_gradient_error(exp)", "第二次的 max_gradient_error(exp)"), error,
                     first > 1e-3 ? small_hint
                                  : lesson::tr("the first call on this x gave " + lesson::num(first, 6) + ", the second " +
                                                   lesson::num(error, 6) + ": gradients accumulate: call x.zero_grad() "
                                                   "before backward, or the first call's gradient is added to the second's",
                                               "在这个 x 上第一次调用得到 " + lesson::num(first, 6) + "，第二次得到 " +
                                                   lesson::num(error, 6) + "：梯度会累加：在 backward 之前调用 x.zero_grad()，"
                                                   "否则第一次调用的梯度会加到第二次上"));
    });
    return checks.finish();
}
