// Lesson 11's checks for solve and fused_qkv, shared by starter.cpp, solution.cpp and your
// exercise.cpp: seed 002's own check and example, other widths, a batch, inputs near 1000, and the
// fused Linear with D equal to C and different from it. A wrong q, k or v is named by what it equals.
#include "check.hpp"
#include "check_tools.hpp"

namespace check11 {

static bool near(const pg::Tensor& a, const pg::Tensor& b, double tol) {
    if (a.shape() != b.shape()) return false;
    for (size_t i = 0; i < a.numel(); ++i)
        if (!(std::fabs(a.ptr()[i] - b.ptr()[i]) <= tol * std::max(1.f, std::fabs(b.ptr()[i])))) return false;
    return true;
}

// Names what one of solve's results equals instead (another weight, the transpose, the other order),
// on a probe with square random weights, where each of those gives different numbers.
static std::string diagnose_solve(const std::string& name, const std::string& fallback) {
    pg::Generator gen(110);
    pg::Tensor x = pg::randn({3, 3}, gen), wq = pg::randn({3, 3}, gen), wk = pg::randn({3, 3}, gen),
               wv = pg::randn({3, 3}, gen);
    QKV got;
    try {
        got = exercise::solve(x, wq, wk, wv);
    } catch (const std::exception&) {
        return fallback;
    }
    const pg::Tensor& part = name == "q" ? got.q : name == "k" ? got.k : got.v;
    const pg::Tensor& own = name == "q" ? wq : name == "k" ? wk : wv;
    for (const auto& [wname, w] : std::vector<std::pair<std::string, pg::Tensor>>{{"wq", wq}, {"wk", wk}, {"wv", wv}}) {
        if (w.same_as(own)) continue;
        if (near(part, pg::matmul(x, w), 1e-5))
            return lesson::tr("your ", "你的 ") + name + lesson::tr(" equals x @ ", " 等于 x @ ") + wname +
                   lesson::tr(": each of q, k, v comes from its own weight (", "：q、k、v 各自来自它自己的权重（") + name +
                   " = x @ w" + name + lesson::tr(")", "）");
    }
    if (near(part, pg::matmul(x, pg::transpose(own, 0, 1)), 1e-5))
        return lesson::tr("your ", "你的 ") + name + lesson::tr(" is x @ w", " 是 x @ w") + name + lesson::tr("^T: w", "^T：w") +
               name + lesson::tr(" is (C, width) and is used as it is; "
               "transposing is pg::linear's convention, whose weight is (out, in)",
               " 是 (C, width)，要原样使用；转置是 pg::linear 的约定，它的权重是 (out, in)");
    if (near(part, pg::matmul(own, x), 1e-5))
        return lesson::tr("your ", "你的 ") + name + lesson::tr(" is w", " 是 w") + name +
               lesson::tr(" @ x: x on the left, matmul(x, w", " @ x：x 要在左边，matmul(x, w") + name +
               lesson::tr("); each row of x is one position", ")；x 的每一行是一个位置");
    return fallback;
}

// An answer repeated from an earlier call: every part the same as what the function returned for an
// earlier, different input (whose right answer differs from it) means a constant or a static, not a
// computation from this call's arguments.
static void expect_not_repeated(const std::string& function, const std::vector<pg::Tensor>& got,
                                const std::vector<pg::Tensor>& want, std::vector<std::vector<pg::Tensor>>& earlier) {
    auto all_near = [](const std::vector<pg::Tensor>& a, const std::vector<pg::Tensor>& b) {
        for (size_t i = 0; i < a.size(); ++i)
            if (!near(a[i], b[i], 1e-6)) return false;
        return true;
    };
    auto differs = [&](const std::vector<pg::Tensor>& a, const std::vector<pg::Tensor>& b) { return !all_near(a, b); };
    if (lesson::came_back(got, want, earlier, all_near, differs))
        throw lesson::CheckFailed(function, lesson::tr("q, k, v from this call's arguments", "由这一次调用的参数算出的 q、k、v"),
                                  lesson::tr("the q, k, v of an earlier call", "先前一次调用的 q、k、v"),
                                  lesson::came_back_hint({"q, k, v", "q、k、v"}, {"x and weights", "x 和权重"},
                                                         lesson::Noun::plural));
}

// The learner's solve; a ShapeError from inside it is named.
static QKV call_solve(const pg::Tensor& x, const pg::Tensor& wq, const pg::Tensor& wk, const pg::Tensor& wv) {
    static std::vector<std::vector<pg::Tensor>> earlier;  // what solve returned in the checks before
    try {
        QKV got = exercise::solve(x, wq, wk, wv);
        expect_not_repeated("solve", {got.q, got.k, got.v}, {pg::matmul(x, wq), pg::matmul(x, wk), pg::matmul(x, wv)},
                            earlier);
        return got;
    } catch (const pg::ShapeError& e) {
        std::string hint = lesson::tr("x is (..., T, C) and each weight (C, width): x @ w, x on the left, w as it is; "
                           "pg::matmul broadcasts over x's leading dims, so no reshape to 2-D is needed",
                           "x 是 (..., T, C)，每个权重是 (C, width)：x @ w，x 在左边，w 原样使用；pg::matmul 会在 x 的前导维度上广播，所以不需要 reshape 成 2 维");
        for (const char* name : {"q", "k", "v"}) {
            std::string why = diagnose_solve(name, "");
            if (!why.empty()) {
                hint = why;
                break;
            }
        }
        throw lesson::CheckFailed("solve", "q, k, v", std::string("pg::ShapeError: ") + e.what(), hint);
    }
}

// fused_qkv on a probe x (3, 2), weight (6, 2), where splitting along the first dim still runs.
static std::string diagnose_fused(const std::string& fallback) {
    pg::Generator gen(111);
    pg::Tensor x = pg::randn({3, 2}, gen), weight = pg::randn({6, 2}, gen), bias = pg::randn({6}, gen);
    try {
        QKV got = exercise::fused_qkv(x, weight, bias);
        if (got.q.dim() == 2 && got.q.size(-1) == 6)
            return lesson::tr("your parts are 3D = 6 wide: you split along another dim; split along the last dim, "
                   "pg::chunk(all, 3, -1), so each row's 3D numbers become q, k, v",
                   "你的每一部分宽 3D = 6：你沿别的维切分了；要沿最后一维切分，pg::chunk(all, 3, -1)，这样每一行的 3D 个数才分成 q、k、v");
    } catch (const pg::ShapeError& e) {
        std::string plain;  // the error pg::matmul(x, weight) gives on the probe
        try {
            (void)pg::matmul(x, weight);
        } catch (const pg::ShapeError& m) {
            plain = m.what();
        }
        if (plain != e.what()) return fallback;
        return lesson::tr("weight is (3D, C), one row per output: the map is x @ weight^T + bias, which is "
               "pg::linear(x, weight, bias) (pg::matmul(x, weight) does not fit)",
               "weight 是 (3D, C)，每个输出一行：这个映射是 x @ weight^T + bias，也就是 pg::linear(x, weight, bias)（pg::matmul(x, weight) 对不上）");
    } catch (const std::exception&) {
    }
    return fallback;
}

static QKV call_fused(const pg::Tensor& x, const pg::Tensor& weight, const pg::Tensor& bias) {
    static std::vector<std::vector<pg::Tensor>> earlier;  // what fused_qkv returned in the checks before
    try {
        QKV got = exercise::fused_qkv(x, weight, bias);
        expect_not_repeated("fused_qkv", {got.q, got.k, got.v}, pg::chunk(pg::linear(x, weight, bias), 3, -1), earlier);
        return got;
    } catch (const pg::ShapeError& e) {
        throw lesson::CheckFailed("fused_qkv", "q, k, v", std::string("pg::ShapeError: ") + e.what(),
                                  diagnose_fused(lesson::tr("x @ weight^T + bias is pg::linear(x, weight, bias), (..., 3D); then "
                                                 "pg::chunk(all, 3, -1) along the last dim",
                                                 "x @ weight^T + bias 就是 pg::linear(x, weight, bias)，(..., 3D)；然后沿最后一维 pg::chunk(all, 3, -1)")));
    }
}

static void expect_solve(const QKV& got, const pg::Tensor& x, const pg::Tensor& wq, const pg::Tensor& wk,
                         const pg::Tensor& wv, double tol, const std::string& hint) {
    const std::pair<std::string, const pg::Tensor*> parts[3] = {{"q", &got.q}, {"k", &got.k}, {"v", &got.v}};
    const pg::Tensor* own[3] = {&wq, &wk, &wv};
    for (int i = 0; i < 3; ++i) {
        pg::Tensor want = pg::matmul(x, *own[i]);
        if (near(*parts[i].second, want, tol)) continue;
        lesson::expect_near(parts[i].first, *parts[i].second, want, tol,
                            diagnose_solve(parts[i].first, hint));
    }
}

// Names what fused_qkv's parts point to, against the library's q, k, v = chunk(linear(x, weight, bias), 3, -1).
static void expect_fused(const QKV& got, const pg::Tensor& x, const pg::Tensor& weight, const pg::Tensor& bias,
                         double tol, const std::string& hint) {
    std::vector<pg::Tensor> want = pg::chunk(pg::linear(x, weight, bias), 3, -1);
    std::vector<pg::Tensor> no_bias = pg::chunk(pg::linear(x, weight, pg::Tensor()), 3, -1);
    const size_t D = weight.size(0) / 3, C = x.size(-1);
    const char* names[3] = {"q", "k", "v"};
    const pg::Tensor* parts[3] = {&got.q, &got.k, &got.v};
    for (int i = 0; i < 3; ++i) {
        if (near(*parts[i], want[i], tol)) continue;
        const pg::Shape& s = parts[i]->shape();
        std::string why = hint;
        if (s != want[i].shape()) {
            if (s.size() == want[i].shape().size() && s.back() == C && C != D)
                why = lesson::tr("your parts are C = ", "你的每一部分宽 C = ") + std::to_string(C) +
                      lesson::tr(" wide: each part is D = weight.size(0) / 3 = ", "：每一部分应该宽 D = weight.size(0) / 3 = ") +
                      std::to_string(D) +
                      lesson::tr(" wide, which equals C only in the library's attention (here it does not)",
                                 "，只有在库的注意力里它才等于 C（这里不等）");
            else
                why = diagnose_fused(lesson::tr("each part has x's leading dims and D = weight.size(0) / 3 = ",
                                     "每一部分有 x 的前导维度和 D = weight.size(0) / 3 = ") +
                                     std::to_string(D) + lesson::tr(" columns: split along the last dim (-1)", " 列：沿最后一维（-1）切分"));
        } else if (bias.numel() && near(*parts[i], no_bias[i], tol)) {
            why = lesson::tr("keep the bias: q = x Wq + bq, so pg::linear(x, weight, bias), not without it",
                  "保留偏置：q = x Wq + bq，所以要用 pg::linear(x, weight, bias)，不能去掉它");
        }
        lesson::expect_near(names[i], *parts[i], want[i], tol, why);
    }
}

}  // namespace check11

int main() {
    using check11::call_fused;
    using check11::call_solve;
    using check11::expect_fused;
    using check11::expect_solve;
    lesson::Checks checks("11", "qkv");
    checks.run(lesson::tr("seed 002's own check: x = I, wq = I, wk = 2I, wv = 3I, exactly",
               "源文章 002 自己的检查：x = I，wq = I，wk = 2I，wv = 3I，精确相等"), [] {
        pg::Tensor x = pg::eye(2), wk = x * 2.f, wv = x * 3.f;
        expect_solve(call_solve(x, x, wk, wv), x, x, wk, wv, 0.0,
                     lesson::tr("q = x @ wq, k = x @ wk, v = x @ wv: each from its own weight",
                     "q = x @ wq，k = x @ wk，v = x @ wv：各自来自它自己的权重"));
    });
    checks.run(lesson::tr("seed 002's example", "源文章 002 的例子"), [] {
        pg::Tensor x = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}}), wq = pg::tensor({{1.f, 1.f}, {0.f, 1.f}}),
                   wk = pg::tensor({{1.f, 0.f}, {1.f, 1.f}}), wv = pg::tensor({{2.f, 0.f}, {0.f, 1.f}});
        QKV got = call_solve(x, wq, wk, wv);
        lesson::expect_near("q", got.q, pg::tensor({{1.f, 1.f}, {0.f, 1.f}, {1.f, 2.f}}), 0.0,
                            check11::diagnose_solve("q", lesson::tr("x on the left: matmul(x, wq), not matmul(wq, x); each row of x "
                                                    "is one position",
                                                    "x 在左边：matmul(x, wq)，不是 matmul(wq, x)；x 的每一行是一个位置")));
        expect_solve(got, x, wq, wk, wv, 0.0,
                     lesson::tr("x on the left: matmul(x, wq), not matmul(wq, x); each row of x is one position",
                     "x 在左边：matmul(x, wq)，不是 matmul(wq, x)；x 的每一行是一个位置"));
    });
    checks.run(lesson::tr("seed 002's question: wq = I gives q = x", "源文章 002 的问题：wq = I 得到 q = x"), [] {
        pg::Tensor x = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});
        QKV got = call_solve(x, pg::eye(2), pg::tensor({{1.f, 0.f}, {1.f, 1.f}}), pg::tensor({{2.f, 0.f}, {0.f, 1.f}}));
        lesson::expect_near("q", got.q, x, 0.0, lesson::tr("with wq the identity, x @ wq is x itself", "wq 是单位矩阵时，x @ wq 就是 x 本身"));
    });
    checks.run(lesson::tr("T = 4, C = 3, HS = 2 and a value width of 5", "T = 4，C = 3，HS = 2，值的宽度是 5"), [] {
        pg::Generator gen(11);
        pg::Tensor x = pg::randn({4, 3}, gen), wq = pg::randn({3, 2}, gen), wk = pg::randn({3, 2}, gen),
                   wv = pg::randn({3, 5}, gen);
        expect_solve(call_solve(x, wq, wk, wv), x, wq, wk, wv, 1e-5,
                     lesson::tr("v's width comes from wv (here 5), which need not equal q's and k's",
                     "v 的宽度来自 wv（这里是 5），不必等于 q 和 k 的宽度"));
    });
    checks.run(lesson::tr("a batch: x (B, T, C) = (2, 3, 4)", "一批：x (B, T, C) = (2, 3, 4)"), [] {
        pg::Generator gen(12);
        pg::Tensor x = pg::randn({2, 3, 4}, gen), wq = pg::randn({4, 2}, gen), wk = pg::randn({4, 2}, gen),
                   wv = pg::randn({4, 3}, gen);
        expect_solve(call_solve(x, wq, wk, wv), x, wq, wk, wv, 1e-5,
                     lesson::tr("pg::matmul broadcasts over the leading dims: (B,T,C) @ (C,HS) -> (B,T,HS); no loop needed",
                     "pg::matmul 在前导维度上广播：(B,T,C) @ (C,HS) -> (B,T,HS)；不需要循环"));
    });
    checks.run(lesson::tr("x near 1000 with square weights: (3, 3), every product kept", "x 接近 1000，权重是方阵：(3, 3)，每个乘积都保留"), [] {
        pg::Generator gen(14);
        pg::Tensor x = pg::randn({3, 3}, gen) + 1000.f, wq = pg::randn({3, 3}, gen), wk = pg::randn({3, 3}, gen),
                   wv = pg::randn({3, 3}, gen);
        expect_solve(call_solve(x, wq, wk, wv), x, wq, wk, wv, 1e-5,
                     lesson::tr("q = x @ wq with x on the left and wq as it is; square weights hide a swapped order or a "
                     "transpose from the shapes, not from the values",
                     "q = x @ wq，x 在左边，wq 原样使用；方阵权重能在形状上藏住顺序颠倒或转置，但在数值上藏不住"));
    });
    checks.run(lesson::tr("fused: weight = [wq^T; wk^T; wv^T] and bias 0 give solve's answer",
               "融合版：weight = [wq^T; wk^T; wv^T]、bias 为 0 时得到和 solve 一样的答案"), [] {
        pg::Tensor x = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});
        pg::Tensor wq = pg::tensor({{1.f, 1.f}, {0.f, 1.f}}), wk = pg::tensor({{1.f, 0.f}, {1.f, 1.f}}),
                   wv = pg::tensor({{2.f, 0.f}, {0.f, 1.f}});
        pg::Tensor weight = pg::concat({pg::transpose(wq, 0, 1), pg::transpose(wk, 0, 1), pg::transpose(wv, 0, 1)}, 0);
        expect_fused(call_fused(x, weight, pg::zeros({6})), x, weight, pg::zeros({6}), 1e-6,
                     lesson::tr("pg::linear(x, weight, bias) is x @ weight^T + bias; then pg::chunk(result, 3, -1): "
                     "the first third of the columns is q",
                     "pg::linear(x, weight, bias) 就是 x @ weight^T + bias；然后 pg::chunk(result, 3, -1)：前三分之一的列是 q"));
    });
    checks.run(lesson::tr("fused with a bias, against the library's qkv Linear (B = 2, T = 3, C = 4)",
               "带偏置的融合版，与库的 qkv Linear 对比（B = 2，T = 3，C = 4）"), [] {
        pg::Generator gen(13);
        pg::nn::CausalSelfAttention attn(4, 2, 0.f, gen);  // qkv: Linear 4 -> 12 with a random bias
        pg::Tensor x = pg::randn({2, 3, 4}, gen);
        expect_fused(call_fused(x, attn.qkv.weight, attn.qkv.bias), x, attn.qkv.weight, attn.qkv.bias, 1e-5,
                     lesson::tr("keep the bias: q = x Wq + bq; split along the last dim (-1), not the first",
                     "保留偏置：q = x Wq + bq；沿最后一维（-1）切分，不是第一维"));
    });
    checks.run(lesson::tr("fused with D = 3 and C = 2: each part D wide, not C", "D = 3、C = 2 的融合版：每一部分宽 D，不是 C"), [] {
        pg::Generator gen(15);
        pg::Tensor x = pg::randn({4, 2}, gen), weight = pg::randn({9, 2}, gen), bias = pg::randn({9}, gen);
        expect_fused(call_fused(x, weight, bias), x, weight, bias, 1e-5,
                     lesson::tr("D = weight.size(0) / 3: pg::chunk(pg::linear(x, weight, bias), 3, -1) finds it for you",
                     "D = weight.size(0) / 3：pg::chunk(pg::linear(x, weight, bias), 3, -1) 会替你算出它"));
    });
    return checks.finish();
}
