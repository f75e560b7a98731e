// Lesson 11's checks for solve and fused_qkv, shared by starter.cpp, solution.cpp and your
// exercise.cpp: seed 002's own check and example, other widths, a batch, inputs near 1000, and the
// fused Linear with D equal to C and different from it. A wrong q, k or v is named by what it equals.
#pragma once
#include <cmath>
#include "lesson.hpp"

struct QKV {
    pg::Tensor q, k, v;
};

namespace exercise {
// Three projections of the same input: q = x wq, k = x wk, v = x wv.
// x (..., T, C), wq (C, HS), wk (C, HS), wv (C, HV) -> q (..., T, HS), k (..., T, HS), v (..., T, HV)
QKV solve(const pg::Tensor& x, const pg::Tensor& wq, const pg::Tensor& wk, const pg::Tensor& wv);
// The library's way: one linear map x weight^T + bias to 3D numbers per row, split into three
// equal parts along the last dim. x (..., C), weight (3D, C), bias (3D) -> q, k, v each (..., D)
QKV fused_qkv(const pg::Tensor& x, const pg::Tensor& weight, const pg::Tensor& bias);
}  // namespace exercise

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
            return "your " + name + " equals x @ " + wname + ": each of q, k, v comes from its own weight (" + name +
                   " = x @ w" + name + ")";
    }
    if (near(part, pg::matmul(x, pg::transpose(own, 0, 1)), 1e-5))
        return "your " + name + " is x @ w" + name + "^T: w" + name + " is (C, width) and is used as it is; "
               "transposing is pg::linear's convention, whose weight is (out, in)";
    if (near(part, pg::matmul(own, x), 1e-5))
        return "your " + name + " is w" + name + " @ x: x on the left, matmul(x, w" + name +
               "); each row of x is one position";
    return fallback;
}

// The learner's solve; a ShapeError from inside it is named.
static QKV call_solve(const pg::Tensor& x, const pg::Tensor& wq, const pg::Tensor& wk, const pg::Tensor& wv) {
    try {
        return exercise::solve(x, wq, wk, wv);
    } catch (const pg::ShapeError& e) {
        std::string hint = "x is (..., T, C) and each weight (C, width): x @ w, x on the left, w as it is; "
                           "pg::matmul broadcasts over x's leading dims, so no reshape to 2-D is needed";
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
            return "your parts are 3D = 6 wide: you split along another dim; split along the last dim, "
                   "pg::chunk(all, 3, -1), so each row's 3D numbers become q, k, v";
    } catch (const pg::ShapeError&) {
        return "weight is (3D, C), one row per output: the map is x @ weight^T + bias, which is "
               "pg::linear(x, weight, bias) (pg::matmul(x, weight) does not fit)";
    } catch (const std::exception&) {
    }
    return fallback;
}

static QKV call_fused(const pg::Tensor& x, const pg::Tensor& weight, const pg::Tensor& bias) {
    try {
        return exercise::fused_qkv(x, weight, bias);
    } catch (const pg::ShapeError& e) {
        throw lesson::CheckFailed("fused_qkv", "q, k, v", std::string("pg::ShapeError: ") + e.what(),
                                  diagnose_fused("x @ weight^T + bias is pg::linear(x, weight, bias), (..., 3D); then "
                                                 "pg::chunk(all, 3, -1) along the last dim"));
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
                why = "your parts are C = " + std::to_string(C) + " wide: each part is D = weight.size(0) / 3 = " +
                      std::to_string(D) + " wide, which equals C only in the library's attention (here it does not)";
            else
                why = diagnose_fused("each part has x's leading dims and D = weight.size(0) / 3 = " +
                                     std::to_string(D) + " columns: split along the last dim (-1)");
        } else if (bias.numel() && near(*parts[i], no_bias[i], tol)) {
            why = "keep the bias: q = x Wq + bq, so pg::linear(x, weight, bias), not without it";
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
    checks.run("seed 002's own check: x = I, wq = I, wk = 2I, wv = 3I, exactly", [] {
        pg::Tensor x = pg::eye(2), wk = x * 2.f, wv = x * 3.f;
        expect_solve(call_solve(x, x, wk, wv), x, x, wk, wv, 0.0,
                     "q = x @ wq, k = x @ wk, v = x @ wv: each from its own weight");
    });
    checks.run("seed 002's example", [] {
        pg::Tensor x = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}}), wq = pg::tensor({{1.f, 1.f}, {0.f, 1.f}}),
                   wk = pg::tensor({{1.f, 0.f}, {1.f, 1.f}}), wv = pg::tensor({{2.f, 0.f}, {0.f, 1.f}});
        QKV got = call_solve(x, wq, wk, wv);
        lesson::expect_near("q", got.q, pg::tensor({{1.f, 1.f}, {0.f, 1.f}, {1.f, 2.f}}), 0.0,
                            check11::diagnose_solve("q", "x on the left: matmul(x, wq), not matmul(wq, x); each row of x "
                                                    "is one position"));
        expect_solve(got, x, wq, wk, wv, 0.0,
                     "x on the left: matmul(x, wq), not matmul(wq, x); each row of x is one position");
    });
    checks.run("seed 002's question: wq = I gives q = x", [] {
        pg::Tensor x = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});
        QKV got = call_solve(x, pg::eye(2), pg::tensor({{1.f, 0.f}, {1.f, 1.f}}), pg::tensor({{2.f, 0.f}, {0.f, 1.f}}));
        lesson::expect_near("q", got.q, x, 0.0, "with wq the identity, x @ wq is x itself");
    });
    checks.run("T = 4, C = 3, HS = 2 and a value width of 5", [] {
        pg::Generator gen(11);
        pg::Tensor x = pg::randn({4, 3}, gen), wq = pg::randn({3, 2}, gen), wk = pg::randn({3, 2}, gen),
                   wv = pg::randn({3, 5}, gen);
        expect_solve(call_solve(x, wq, wk, wv), x, wq, wk, wv, 1e-5,
                     "v's width comes from wv (here 5), which need not equal q's and k's");
    });
    checks.run("a batch: x (B, T, C) = (2, 3, 4)", [] {
        pg::Generator gen(12);
        pg::Tensor x = pg::randn({2, 3, 4}, gen), wq = pg::randn({4, 2}, gen), wk = pg::randn({4, 2}, gen),
                   wv = pg::randn({4, 3}, gen);
        expect_solve(call_solve(x, wq, wk, wv), x, wq, wk, wv, 1e-5,
                     "pg::matmul broadcasts over the leading dims: (B,T,C) @ (C,HS) -> (B,T,HS); no loop needed");
    });
    checks.run("x near 1000 with square weights: (3, 3), every product kept", [] {
        pg::Generator gen(14);
        pg::Tensor x = pg::randn({3, 3}, gen) + 1000.f, wq = pg::randn({3, 3}, gen), wk = pg::randn({3, 3}, gen),
                   wv = pg::randn({3, 3}, gen);
        expect_solve(call_solve(x, wq, wk, wv), x, wq, wk, wv, 1e-5,
                     "q = x @ wq with x on the left and wq as it is; square weights hide a swapped order or a "
                     "transpose from the shapes, not from the values");
    });
    checks.run("fused: weight = [wq^T; wk^T; wv^T] and bias 0 give solve's answer", [] {
        pg::Tensor x = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});
        pg::Tensor wq = pg::tensor({{1.f, 1.f}, {0.f, 1.f}}), wk = pg::tensor({{1.f, 0.f}, {1.f, 1.f}}),
                   wv = pg::tensor({{2.f, 0.f}, {0.f, 1.f}});
        pg::Tensor weight = pg::concat({pg::transpose(wq, 0, 1), pg::transpose(wk, 0, 1), pg::transpose(wv, 0, 1)}, 0);
        expect_fused(call_fused(x, weight, pg::zeros({6})), x, weight, pg::zeros({6}), 1e-6,
                     "pg::linear(x, weight, bias) is x @ weight^T + bias; then pg::chunk(result, 3, -1): "
                     "the first third of the columns is q");
    });
    checks.run("fused with a bias, against the library's qkv Linear (B = 2, T = 3, C = 4)", [] {
        pg::Generator gen(13);
        pg::nn::CausalSelfAttention attn(4, 2, 0.f, gen);  // qkv: Linear 4 -> 12 with a random bias
        pg::Tensor x = pg::randn({2, 3, 4}, gen);
        expect_fused(call_fused(x, attn.qkv.weight, attn.qkv.bias), x, attn.qkv.weight, attn.qkv.bias, 1e-5,
                     "keep the bias: q = x Wq + bq; split along the last dim (-1), not the first");
    });
    checks.run("fused with D = 3 and C = 2: each part D wide, not C", [] {
        pg::Generator gen(15);
        pg::Tensor x = pg::randn({4, 2}, gen), weight = pg::randn({9, 2}, gen), bias = pg::randn({9}, gen);
        expect_fused(call_fused(x, weight, bias), x, weight, bias, 1e-5,
                     "D = weight.size(0) / 3: pg::chunk(pg::linear(x, weight, bias), 3, -1) finds it for you");
    });
    return checks.finish();
}
