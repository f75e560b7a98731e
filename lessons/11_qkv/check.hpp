// Lesson 11's checks for solve and fused_qkv, shared by starter.cpp, solution.cpp and your
// exercise.cpp: seed 002's own check and example, other widths, a batch, and the fused Linear.
#pragma once
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

static void expect_qkv(const QKV& got, const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v, double tol,
                       const std::string& hint) {
    lesson::expect_near("q", got.q, q, tol, hint);
    lesson::expect_near("k", got.k, k, tol, hint);
    lesson::expect_near("v", got.v, v, tol, hint);
}

int main() {
    lesson::Checks checks("11", "qkv");
    checks.run("seed 002's own check: x = I, wq = I, wk = 2I, wv = 3I, exactly", [] {
        pg::Tensor x = pg::eye(2);
        expect_qkv(exercise::solve(x, x, x * 2.f, x * 3.f), x, x * 2.f, x * 3.f, 0.0,
                   "q = x @ wq, k = x @ wk, v = x @ wv: each from its own weight");
    });
    checks.run("seed 002's example", [] {
        QKV got = exercise::solve(pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}}), pg::tensor({{1.f, 1.f}, {0.f, 1.f}}),
                                  pg::tensor({{1.f, 0.f}, {1.f, 1.f}}), pg::tensor({{2.f, 0.f}, {0.f, 1.f}}));
        expect_qkv(got, pg::tensor({{1.f, 1.f}, {0.f, 1.f}, {1.f, 2.f}}), pg::tensor({{1.f, 0.f}, {1.f, 1.f}, {2.f, 1.f}}),
                   pg::tensor({{2.f, 0.f}, {0.f, 1.f}, {2.f, 1.f}}), 0.0,
                   "x on the left: matmul(x, wq), not matmul(wq, x); each row of x is one position");
    });
    checks.run("seed 002's question: wq = I gives q = x", [] {
        pg::Tensor x = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});
        QKV got = exercise::solve(x, pg::eye(2), pg::tensor({{1.f, 0.f}, {1.f, 1.f}}), pg::tensor({{2.f, 0.f}, {0.f, 1.f}}));
        lesson::expect_near("q", got.q, x, 0.0, "with wq the identity, x @ wq is x itself");
    });
    checks.run("T = 4, C = 3, HS = 2 and a value width of 5", [] {
        pg::Generator gen(11);
        pg::Tensor x = pg::randn({4, 3}, gen), wq = pg::randn({3, 2}, gen), wk = pg::randn({3, 2}, gen),
                   wv = pg::randn({3, 5}, gen);
        expect_qkv(exercise::solve(x, wq, wk, wv), pg::matmul(x, wq), pg::matmul(x, wk), pg::matmul(x, wv), 1e-5,
                   "v's width comes from wv (here 5), which need not equal q's and k's");
    });
    checks.run("a batch: x (B, T, C) = (2, 3, 4)", [] {
        pg::Generator gen(12);
        pg::Tensor x = pg::randn({2, 3, 4}, gen), wq = pg::randn({4, 2}, gen), wk = pg::randn({4, 2}, gen),
                   wv = pg::randn({4, 3}, gen);
        expect_qkv(exercise::solve(x, wq, wk, wv), pg::matmul(x, wq), pg::matmul(x, wk), pg::matmul(x, wv), 1e-5,
                   "pg::matmul broadcasts over the leading dims: (B,T,C) @ (C,HS) -> (B,T,HS); no loop needed");
    });
    checks.run("fused: weight = [wq^T; wk^T; wv^T] and bias 0 give solve's answer", [] {
        pg::Tensor x = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});
        pg::Tensor wq = pg::tensor({{1.f, 1.f}, {0.f, 1.f}}), wk = pg::tensor({{1.f, 0.f}, {1.f, 1.f}}),
                   wv = pg::tensor({{2.f, 0.f}, {0.f, 1.f}});
        pg::Tensor weight = pg::concat({pg::transpose(wq, 0, 1), pg::transpose(wk, 0, 1), pg::transpose(wv, 0, 1)}, 0);
        expect_qkv(exercise::fused_qkv(x, weight, pg::zeros({6})), pg::matmul(x, wq), pg::matmul(x, wk),
                   pg::matmul(x, wv), 1e-6,
                   "pg::linear(x, weight, bias) is x @ weight^T + bias; then pg::chunk(result, 3, -1): "
                   "the first third of the columns is q");
    });
    checks.run("fused with a bias, against the library's qkv Linear (B = 2, T = 3, C = 4)", [] {
        pg::Generator gen(13);
        pg::nn::CausalSelfAttention attn(4, 2, 0.f, gen);  // qkv: Linear 4 -> 12 with a random bias
        pg::Tensor x = pg::randn({2, 3, 4}, gen);
        std::vector<pg::Tensor> parts = pg::chunk(attn.qkv.forward(x), 3, -1);
        expect_qkv(exercise::fused_qkv(x, attn.qkv.weight, attn.qkv.bias), parts[0], parts[1], parts[2], 1e-5,
                   "keep the bias: q = x Wq + bq; split along the last dim (-1), not the first");
    });
    return checks.finish();
}
