// Lesson 15's checks for layer_norm, shared by starter.cpp, solution.cpp and your exercise.cpp.
// The hand example, a constant row, a tiny variance where eps matters, random rows of any rank,
// rows far from zero where a float shortcut breaks; a wrong result is compared with the usual slips.
#include "check.hpp"
#include "check_tools.hpp"

namespace check15 {

inline std::string unbiased_hint() {
    return lesson::tr("you divided the variance by C - 1 (the unbiased variance): layer norm uses the biased one, the mean of the "
                      "squared deviations: divide by C",
                      "你把方差除以了 C - 1（无偏方差）：层归一化用的是有偏方差，即偏差平方的平均值：除以 C");
}
inline std::string eps_outside_hint() {
    return lesson::tr("you divided by sqrt(variance) + eps: eps goes under the square root, sqrt(variance + eps); with a variance "
                      "far below eps the two differ many-fold",
                      "你除以的是 sqrt(variance) + eps：eps 应该放在平方根里面，sqrt(variance + eps)；方差远小于 eps 时，两者会差好几倍");
}
inline std::string no_eps_hint() {
    return lesson::tr("eps is missing: you divided by sqrt(variance), so a constant row gives (x - mean) / sqrt(0) = 0 / 0 = nan "
                      "and a variance far below eps is blown up to 1; divide by sqrt(variance + eps)",
                      "缺了 eps：你除以的是 sqrt(variance)，于是常数行得到 (x - mean) / sqrt(0) = 0 / 0 = nan，远小于 eps 的方差会被放大到 1；请除以 sqrt(variance + eps)");
}
inline std::string fixed_eps_hint() {
    return lesson::tr("your result matches eps = 1e-5, not the eps argument: a fixed 1e-5 is used; use the eps you are given",
                      "你的结果与 eps = 1e-5 相符，而不是与传入的 eps 参数相符：用了固定的 1e-5；请使用传给你的 eps");
}
inline std::string global_hint() {
    return lesson::tr("one mean and variance for the whole tensor: each row of the last dim is normalised on its own, with its "
                      "own mean and variance",
                      "整个张量只用了一个均值和方差：最后一维的每一行都要单独归一化，用它自己的均值和方差");
}
inline std::string swapped_hint() {
    return lesson::tr("weight and bias swapped: y = xhat * weight[c] + bias[c], the weight multiplies and the bias is added",
                      "weight 和 bias 弄反了：y = xhat * weight[c] + bias[c]，weight 是乘上去的，bias 是加上去的");
}
inline std::string one_pass_hint() {
    return lesson::tr("the variance computed as E[x^2] - mean^2 in float: for a row far from 0 (here near 10000) both terms are "
                      "about 1e8 and their difference is lost to rounding; subtract the mean first and average the squared "
                      "deviations (row[c] - mean)^2, in double",
                      "方差用 float 按 E[x^2] - mean^2 计算：对于远离 0 的行（这里接近 10000），两项都约为 1e8，它们的差在舍入中丢失了；先减去均值，再对偏差平方 (row[c] - mean)^2 求平均，并用 double 计算");
}
inline std::string wrong_c_hint() {
    return lesson::tr("the rows have the length of another dim: C = x.size(-1), the last dim, whatever the rank; the tensor is "
                      "x.numel() / C rows of C numbers",
                      "行的长度用成了另一维的长度：无论张量有几维，C = x.size(-1)，即最后一维；张量是 x.numel() / C 行、每行 C 个数");
}

struct Variant {
    bool unbiased = false, eps_outside = false, no_eps = false, global = false, swapped = false, one_pass = false;
    long C_dim = -1;
};

// Layer norm with one of the usual slips, as a reference: what your result is compared with.
inline pg::Tensor variant(const pg::Tensor& x, const pg::Tensor& w, const pg::Tensor& b, float eps, const Variant& v) {
    size_t C = v.global ? x.numel() : x.size(v.C_dim), rows = x.numel() / C, WC = w.numel();
    std::vector<float> y(x.numel());
    for (size_t r = 0; r < rows; ++r) {
        const float* row = x.ptr() + r * C;
        double mean = 0, var = 0;
        if (v.one_pass) {
            float s = 0, s2 = 0;
            for (size_t c = 0; c < C; ++c) s += row[c], s2 += row[c] * row[c];
            float m = s / static_cast<float>(C);
            mean = m;
            var = s2 / static_cast<float>(C) - m * m;
        } else {
            for (size_t c = 0; c < C; ++c) mean += row[c];
            mean /= static_cast<double>(C);
            for (size_t c = 0; c < C; ++c) var += (row[c] - mean) * (row[c] - mean);
            var /= static_cast<double>(v.unbiased ? C - 1 : C);
        }
        double denom = v.no_eps ? std::sqrt(var) : v.eps_outside ? std::sqrt(var) + eps : std::sqrt(var + eps);
        for (size_t c = 0; c < C; ++c) {
            size_t k = v.global ? (r * C + c) % WC : c % WC;   // weight[c] for column c
            float h = static_cast<float>((row[c] - mean) / denom);
            y[r * C + c] = v.swapped ? h * b.ptr()[k] + w.ptr()[k] : h * w.ptr()[k] + b.ptr()[k];
        }
    }
    return pg::tensor(y, x.shape());
}

// Equal within 1e-4, nan where the other has nan.
inline bool close(const pg::Tensor& a, const pg::Tensor& b) {
    if (a.shape() != b.shape()) return false;
    for (size_t i = 0; i < a.numel(); ++i) {
        float p = a.ptr()[i], q = b.ptr()[i];
        if (std::isnan(p) != std::isnan(q)) return false;
        if (!std::isnan(p) && !(std::fabs(p - q) <= 1e-4f * std::max(1.f, std::fabs(q)))) return false;
    }
    return true;
}

// Which slip your result matches: the first variant it equals names the mistake.
inline std::string diagnosis(const pg::Tensor& x, const pg::Tensor& w, const pg::Tensor& b, float eps,
                             const pg::Tensor& got) {
    auto is = [&](Variant v, float e) { return close(got, variant(x, w, b, e, v)); };
    Variant v;
    v.no_eps = true;
    if (is(v, eps)) {  // on rows of variance 0 that answer is all nan, as any 0 / 0 is: then say only what was seen
        const std::vector<float> values = got.to_vector();
        if (!std::all_of(values.begin(), values.end(), [](float y) { return std::isnan(y); })) return no_eps_hint();
        return lesson::tr("every value came out nan, as (x - mean) / sqrt(variance) gives where the variance is 0 (0 / 0): "
                          "most likely eps is missing; divide by sqrt(variance + eps)",
                          "每个值都是 nan，正是 (x - mean) / sqrt(variance) 在方差为 0 时给出的结果（0 / 0）：最可能是缺了 eps；"
                          "请除以 sqrt(variance + eps)");
    }
    v = {};
    v.unbiased = true;
    if (x.size(-1) > 1 && is(v, eps)) return unbiased_hint();
    v = {};
    v.eps_outside = true;
    if (is(v, eps)) return eps_outside_hint();
    v = {};
    if (eps != 1e-5f && is(v, 1e-5f)) return fixed_eps_hint();
    v.swapped = true;
    if (is(v, eps)) return swapped_hint();
    v = {};
    v.global = true;
    if (x.dim() > 1 && is(v, eps)) return global_hint();
    v = {};
    v.one_pass = true;
    if (is(v, eps)) return one_pass_hint();
    v = {};
    for (long d = 0; d + 1 < static_cast<long>(x.dim()); ++d) {
        v.C_dim = d;
        if (x.size(d) != x.size(-1) && x.size(d) > 1 && is(v, eps)) return wrong_c_hint();
    }
    if (!lesson::all_finite(got))
        return lesson::tr("your result has nan or inf where pg::layer_norm's has none, and it matches none of the usual slips: "
                          "something was divided by 0 or a value never computed; sqrt(var + eps) is never 0, so look at your "
                          "other divisions and at every y[r * C + c] being written",
                          "你的结果里有 nan 或 inf，而 pg::layer_norm 的结果里没有，它也不符合任何一种常见失误：某处除以了 0，"
                          "或者某个值从没算过；sqrt(var + eps) 永远不为 0，所以看看你的其他除法，以及每个 y[r * C + c] 是否都写到了");
    return lesson::tr("per row of the last dim: mean, then the mean of the squared deviations (divide by C), then "
                      "(x_c - mean) / sqrt(var + eps) * weight[c] + bias[c]; weight[c] and bias[c] go with column c",
                      "对最后一维的每一行：先求均值，再求偏差平方的平均值（除以 C），然后 (x_c - mean) / sqrt(var + eps) * weight[c] + bias[c]；weight[c] 和 bias[c] 对应第 c 列");
}

// Your layer_norm, with an error turned into a hint.
// An answer repeated from an earlier call: exactly what layer_norm returned for an earlier input whose
// right answer is clearly different means a constant or a static, not this call's computation.
inline pg::Tensor call_ln(const pg::Tensor& x, const pg::Tensor& w, const pg::Tensor& b, float eps) {
    static std::vector<pg::Tensor> earlier;  // what layer_norm returned in the checks before
    pg::Tensor got;
    try {
        got = exercise::layer_norm(x, w, b, eps);
    } catch (const pg::ShapeError& e) {
        throw lesson::CheckFailed("layer_norm(x " + lesson::str(x.shape()) + ")", lesson::tr("a tensor of x's shape", "一个与 x 形状相同的张量"),
                                  lesson::tr("a ShapeError: ", "抛出了 ShapeError：") + e.what(),
                                  std::string(e.what()).find("out of range") != std::string::npos
                                      ? wrong_c_hint()   // a dim x does not have: the row length read from another dim
                                      : lesson::tr("the result has x's shape and x.numel() values: C = x.size(-1), x.numel() / C "
                                                   "rows, then pg::tensor(y, x.shape())",
                                                   "结果的形状与 x 相同，共 x.numel() 个值：C = x.size(-1)，x.numel() / C 行，"
                                                   "然后 pg::tensor(y, x.shape())"));
    }
    auto within = [](const pg::Tensor& p, const pg::Tensor& q, float tol) {
        if (p.shape() != q.shape()) return false;
        for (size_t i = 0; i < p.numel(); ++i)
            if (!(std::fabs(p.ptr()[i] - q.ptr()[i]) <= tol * std::max(1.f, std::fabs(q.ptr()[i])))) return false;
        return true;
    };
    auto same = [&](const pg::Tensor& p, const pg::Tensor& q) { return within(p, q, 1e-6f); };
    auto differs = [&](const pg::Tensor& p, const pg::Tensor& q) { return !within(p, q, 1e-3f); };
    const pg::Tensor want = pg::layer_norm(x.detach(), w.detach(), b.detach(), eps);
    if (lesson::came_back(got.detach(), want, earlier, same, differs))
        throw lesson::CheckFailed("layer_norm(x " + lesson::str(x.shape()) + ")",
                                  lesson::tr("y computed from this call's x, weight, bias and eps", "由这一次调用的 x、weight、bias 和 eps 算出的 y"),
                                  lesson::tr("the y of an earlier call", "先前一次调用的 y"),
                                  lesson::came_back_hint({"y", "y"}, {"x, weight, bias and eps", "x、weight、bias 和 eps"}));
    return got;
}

inline void expect_ln(const std::string& what, const pg::Tensor& x, const pg::Tensor& w, const pg::Tensor& b,
                      float eps, double tol = 1e-4) {
    pg::Tensor got = call_ln(x, w, b, eps);
    lesson::expect_near(what, got, pg::layer_norm(x, w, b, eps), tol, diagnosis(x, w, b, eps, got));
}

}  // namespace check15

int main() {
    using namespace check15;
    lesson::Checks checks("15", "layernorm_residual");
    checks.run(lesson::tr("by hand: x = [1, 2, 3, 6]", "手算：x = [1, 2, 3, 6]"), [] {
        pg::Tensor x = pg::tensor({1.f, 2.f, 3.f, 6.f}), w = pg::tensor({1.f, 0.5f, 2.f, 1.f}),
                   b = pg::tensor({0.f, 0.f, 0.5f, -1.f});
        pg::Tensor y = call_ln(x, w, b, 1e-5f);
        lesson::expect_near("layer_norm", y, pg::tensor({-1.0690f, -0.2673f, 0.5f, 0.6036f}), 1e-4,
                            diagnosis(x, w, b, 1e-5f, y));
    });
    checks.run(lesson::tr("written with loops, not pg::layer_norm", "用循环写，而不是调用 pg::layer_norm"), [] {
        pg::Tensor x = pg::tensor({1.f, 2.f, 3.f, 6.f}, {1, 4}, true);
        lesson::expect_not_called("layer_norm", call_ln(x, pg::ones({4}), pg::zeros({4}), 1e-5f), "layer_norm",
                                  lesson::tr("write it with loops over x.ptr(): the mean, the variance, then "
                                             "(x_c - mean) / sqrt(var + eps) * weight[c] + bias[c]",
                                             "用遍历 x.ptr() 的循环来写：先求均值、方差，然后 (x_c - mean) / sqrt(var + eps) * weight[c] + bias[c]"));
    });
    checks.run(lesson::tr("a constant row gives the bias, not nan", "常数行得到 bias，而不是 nan"), [] {
        pg::Tensor x = pg::tensor({5.f, 5.f, 5.f, 5.f}), w = pg::tensor({1.f, 2.f, 3.f, 4.f}),
                   b = pg::tensor({0.5f, -0.5f, 0.f, 1.f});
        pg::Tensor y = call_ln(x, w, b, 1e-5f);
        lesson::expect_near("layer_norm([5, 5, 5, 5])", y, b, 1e-6, diagnosis(x, w, b, 1e-5f, y));
    });
    checks.run(lesson::tr("10 x + 7 = [17, 27, 37, 67] normalises as x = [1, 2, 3, 6] does",
                          "10 x + 7 = [17, 27, 37, 67] 归一化的结果和 x = [1, 2, 3, 6] 一样"), [] {
        expect_ln("layer_norm([17, 27, 37, 67])", pg::tensor({17.f, 27.f, 37.f, 67.f}), pg::ones({4}), pg::zeros({4}), 1e-5f);
    });
    checks.run(lesson::tr("a tiny variance: eps inside the square root", "极小的方差：eps 在平方根里面"), [] {
        expect_ln("layer_norm([0, 0.001, 0, 0.001])", pg::tensor({0.f, 0.001f, 0.f, 0.001f}), pg::ones({4}),
                  pg::zeros({4}), 1e-5f);
    });
    checks.run(lesson::tr("(2,3,8) random rows, against pg::layer_norm", "(2,3,8) 的随机行，与 pg::layer_norm 对比"), [] {
        pg::Generator gen(15);
        pg::Tensor x = pg::randn({2, 3, 8}, gen) * 3.f + 1.f;
        pg::Tensor w = pg::randn({8}, gen), b = pg::randn({8}, gen);
        expect_ln("layer_norm", x, w, b, 1e-5f);
    });
    checks.run(lesson::tr("(4,6) rows with different offsets and scales: each row on its own",
                          "偏移和尺度各不相同的 (4,6) 行：每一行单独处理"), [] {
        pg::Generator gen(17);
        pg::Tensor x = pg::randn({4, 6}, gen) * pg::tensor({{0.5f}, {2.f}, {1.f}, {4.f}}) +
                       pg::tensor({{-3.f}, {0.f}, {5.f}, {1.f}});
        pg::Tensor w = pg::randn({6}, gen) * 0.5f + 1.f, b = pg::randn({6}, gen);
        expect_ln("layer_norm", x, w, b, 1e-5f);
    });
    checks.run(lesson::tr("a larger eps is used as given", "更大的 eps 按传入的值使用"), [] {
        pg::Generator gen(16);
        pg::Tensor x = pg::randn({3, 5}, gen) * 0.1f;
        expect_ln(lesson::tr("layer_norm with eps = 0.01", "eps = 0.01 时的 layer_norm"), x, pg::ones({5}), pg::zeros({5}), 0.01f);
    });
    checks.run(lesson::tr("rows far from zero: 10000 + [0, 1, 2, 3] and -5000 + [0.25, -0.25, 1.25, -1.25]",
                          "远离 0 的行：10000 + [0, 1, 2, 3] 和 -5000 + [0.25, -0.25, 1.25, -1.25]"), [] {
        pg::Tensor x = lesson::from_rows({{10000.f, 10001.f, 10002.f, 10003.f}, {-4999.75f, -5000.25f, -4998.75f, -5001.25f}});
        pg::Tensor w = pg::tensor({1.f, 0.5f, 2.f, 1.f}), b = pg::tensor({0.f, 0.f, 0.5f, -1.f});
        expect_ln(lesson::tr("layer_norm of rows near 10000 and -5000", "接近 10000 和 -5000 的行的 layer_norm"), x, w, b, 1e-5f);
    });
    return checks.finish();
}
