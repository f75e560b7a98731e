// Lesson 11 experiment: seed 002's Q, K, V from one input X and three weight matrices, the first
// row's scores and their scaling, the seed's question (Wq = I) computed, and the library's fused
// qkv Linear with chunk(3), bias included.
#include <cmath>
#include <iostream>
#include "lesson.hpp"

static float max_abs_diff(const pg::Tensor& a, const pg::Tensor& b) {
    float d = 0.f;
    for (size_t i = 0; i < a.numel(); ++i) d = std::max(d, std::fabs(a.ptr()[i] - b.ptr()[i]));
    return d;
}

static void run() {
    lesson::section("seed 002's input and weights: T = 3 positions, C = 2 wide");
    pg::Tensor X = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});  // (T, C)
    pg::Tensor Wq = pg::tensor({{1.f, 1.f}, {0.f, 1.f}});              // (C, HS), HS = 2
    pg::Tensor Wk = pg::tensor({{1.f, 0.f}, {1.f, 1.f}});
    pg::Tensor Wv = pg::tensor({{2.f, 0.f}, {0.f, 1.f}});
    lesson::show("X", X, 0);
    lesson::show("Wq", Wq, 0);
    lesson::show("Wk", Wk, 0);
    lesson::show("Wv", Wv, 0);

    lesson::section("three projections of the same X: Q = X Wq, K = X Wk, V = X Wv");
    pg::Tensor Q = pg::matmul(X, Wq), K = pg::matmul(X, Wk), V = pg::matmul(X, Wv);  // (T, C) @ (C, HS)
    lesson::show("Q", Q, 0);
    lesson::show("K", K, 0);
    lesson::show("V", V, 0);
    lesson::confirm("Q", Q, pg::tensor({{1.f, 1.f}, {0.f, 1.f}, {1.f, 2.f}}), 0.0, "seed 002's Q, exactly");
    lesson::confirm("K", K, pg::tensor({{1.f, 0.f}, {1.f, 1.f}, {2.f, 1.f}}), 0.0, "seed 002's K, exactly");
    lesson::confirm("V", V, pg::tensor({{2.f, 0.f}, {0.f, 1.f}, {2.f, 1.f}}), 0.0, "seed 002's V, exactly");
    std::cout << "  X's row 2 is [1, 1], so Q's row 2 is Wq's row 0 + row 1 = [1, 2]\n";

    lesson::section("scores: every query against every key, Q K^T");
    pg::Tensor S = pg::matmul(Q, pg::transpose(K, 0, 1));  // (T, HS) @ (HS, T) -> (T, T)
    lesson::show("Q K^T", S, 0);
    pg::Tensor row0 = pg::slice(S, 0, 0, 1);
    lesson::confirm("row 0", row0, pg::tensor({{1.f, 2.f, 3.f}}), 0.0, "seed 002's [1,2,3]");
    std::cout << "  q_0 = [1, 1]: with k_0 = [1, 0] gives 1, with k_1 = [1, 1] gives 2, with k_2 = [2, 1] gives 3\n";

    lesson::section("scaled by sqrt(HS), HS = 2: the width of one query");
    float root = std::sqrt(2.f);
    lesson::show("sqrt(2)", root);
    lesson::show("sqrt(2) to 3 decimals, as seed 002 writes it", root, 3);
    pg::Tensor scaled = S / root;
    lesson::show("Q K^T / sqrt(2)", scaled);
    lesson::confirm("row 0", pg::slice(scaled, 0, 0, 1), pg::tensor({{1.f, 2.f, 3.f}}) / root, 1e-7,
                    "[1,2,3] / sqrt(2)");
    std::cout << "  lesson 12 goes on from here: mask, softmax, aggregate\n";

    lesson::section("seed 002's question: Wq becomes the identity");
    pg::Tensor Q_id = pg::matmul(X, pg::eye(2));
    lesson::show("Q with Wq = I (= X)", Q_id, 0);
    pg::Tensor S_id = pg::matmul(Q_id, pg::transpose(K, 0, 1));
    lesson::show("Q K^T with Wq = I", S_id, 0);
    lesson::confirm("row 0 of Q", pg::slice(Q_id, 0, 0, 1), pg::tensor({{1.f, 0.f}}), 0.0, "seed 002's answer [1,0]");
    lesson::confirm("row 0 of the scores", pg::slice(S_id, 0, 0, 1), pg::tensor({{1.f, 1.f, 2.f}}), 0.0,
                    "seed 002's answer [1,1,2]");
    std::cout << "  K and V do not depend on Wq: they change by " << lesson::num(max_abs_diff(pg::matmul(X, Wk), K), 0)
              << " and " << lesson::num(max_abs_diff(pg::matmul(X, Wv), V), 0) << "\n";
    pg::Tensor w = pg::softmax(scaled, -1), w_id = pg::softmax(S_id / root, -1);
    pg::Tensor out = pg::matmul(w, V), out_id = pg::matmul(w_id, V);
    lesson::show("weights softmax(Q K^T / sqrt(2)), nothing hidden yet", w);
    lesson::show("the same with Wq = I", w_id);
    lesson::show("outputs weights @ V", out);
    lesson::show("outputs with Wq = I", out_id);
    for (long t = 0; t < 3; ++t) {
        auto row = [t](const pg::Tensor& m) { return pg::slice(m, 0, t, t + 1); };
        std::cout << "  row " << t << ": query changed by " << lesson::num(max_abs_diff(row(Q_id), row(Q)), 0)
                  << ", scores by " << lesson::num(max_abs_diff(row(S_id), row(S)), 0) << ", output by "
                  << lesson::num(max_abs_diff(row(out_id), row(out))) << "\n";
    }
    std::cout << "  row 1's query is [0, 1] either way, since X's row 1 picks Wq's row 1, which I shares with Wq\n";

    lesson::section("the library's way: one Linear C -> 3C, then chunk(3)");
    pg::Generator gen(11);
    pg::nn::CausalSelfAttention attn(2, 1, 0.f, gen);  // C = 2, one head, no dropout
    for (const auto& [name, p] : attn.named_parameters())
        if (name.rfind("qkv", 0) == 0) std::cout << "  " << name << "  shape " << lesson::str(p.shape()) << "\n";
    // Linear computes x W^T + b with W (out, in): its rows are the columns of Wq, then Wk, then Wv
    pg::Tensor W_fused = pg::concat({pg::transpose(Wq, 0, 1), pg::transpose(Wk, 0, 1), pg::transpose(Wv, 0, 1)}, 0);
    lesson::show("qkv.weight = [Wq^T; Wk^T; Wv^T]", W_fused, 0);
    attn.qkv.weight.copy_(W_fused);
    attn.qkv.bias.copy_(pg::zeros({6}));
    pg::Tensor x = pg::reshape(X, {1, 3, 2});  // (B, T, C) with B = 1
    pg::Tensor fused = attn.qkv.forward(x);    // (B, T, 3C)
    lesson::show("qkv.forward(x), bias 0", fused, 0);
    std::vector<pg::Tensor> parts = pg::chunk(fused, 3, -1);  // q, k, v each (B, T, C)
    lesson::show("chunk 0 (q)", parts[0], 0);
    lesson::show("chunk 1 (k)", parts[1], 0);
    lesson::show("chunk 2 (v)", parts[2], 0);
    lesson::confirm("q, k, v", pg::concat({parts[0], parts[1], parts[2]}, 0),
                    pg::reshape(pg::concat({Q, K, V}, 0), {3, 3, 2}), 0.0, "the three matmuls above");

    lesson::section("with a bias: each of q, k, v is X W + b");
    pg::Tensor bias = pg::tensor({0.5f, -0.5f, 0.f, 1.f, 1.f, 0.f});  // [bq | bk | bv], each (C)
    attn.qkv.bias.copy_(bias);
    lesson::show("qkv.bias = [bq | bk | bv]", bias, 1);
    parts = pg::chunk(attn.qkv.forward(x), 3, -1);
    lesson::show("q = X Wq + bq", parts[0], 1);
    lesson::show("k = X Wk + bk", parts[1], 1);
    lesson::show("v = X Wv + bv", parts[2], 1);
    lesson::confirm("q", pg::reshape(parts[0], {3, 2}), Q + pg::tensor({0.5f, -0.5f}), 0.0, "X Wq + bq");
    lesson::confirm("k", pg::reshape(parts[1], {3, 2}), K + pg::tensor({0.f, 1.f}), 0.0, "X Wk + bk");
    lesson::confirm("v", pg::reshape(parts[2], {3, 2}), V + pg::tensor({1.f, 0.f}), 0.0, "X Wv + bv");
}

int main() { return lesson::run_experiment(run); }
