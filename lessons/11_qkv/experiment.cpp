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
    lesson::section(lesson::tr("seed 002's input and weights: T = 3 positions, C = 2 wide",
                                "源文章 002 的输入和权重：T = 3 个位置，宽 C = 2"));
    pg::Tensor X = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});  // (T, C)
    pg::Tensor Wq = pg::tensor({{1.f, 1.f}, {0.f, 1.f}});              // (C, HS), HS = 2
    pg::Tensor Wk = pg::tensor({{1.f, 0.f}, {1.f, 1.f}});
    pg::Tensor Wv = pg::tensor({{2.f, 0.f}, {0.f, 1.f}});
    lesson::show("X", X, 0);
    lesson::show("Wq", Wq, 0);
    lesson::show("Wk", Wk, 0);
    lesson::show("Wv", Wv, 0);

    lesson::section(lesson::tr("three projections of the same X: Q = X Wq, K = X Wk, V = X Wv",
                                "同一个 X 的三个投影：Q = X Wq，K = X Wk，V = X Wv"));
    pg::Tensor Q = pg::matmul(X, Wq), K = pg::matmul(X, Wk), V = pg::matmul(X, Wv);  // (T, C) @ (C, HS)
    lesson::show("Q", Q, 0);
    lesson::show("K", K, 0);
    lesson::show("V", V, 0);
    lesson::confirm("Q", Q, pg::tensor({{1.f, 1.f}, {0.f, 1.f}, {1.f, 2.f}}), 0.0, lesson::tr("seed 002's Q, exactly", "源文章 002 的 Q，完全一致"));
    lesson::confirm("K", K, pg::tensor({{1.f, 0.f}, {1.f, 1.f}, {2.f, 1.f}}), 0.0, lesson::tr("seed 002's K, exactly", "源文章 002 的 K，完全一致"));
    lesson::confirm("V", V, pg::tensor({{2.f, 0.f}, {0.f, 1.f}, {2.f, 1.f}}), 0.0, lesson::tr("seed 002's V, exactly", "源文章 002 的 V，完全一致"));
    std::cout << lesson::tr("  X's row 2 is [1, 1], so Q's row 2 is Wq's row 0 + row 1 = [1, 2]\n",
                           "  X 的第 2 行是 [1, 1]，所以 Q 的第 2 行是 Wq 的第 0 行加第 1 行 = [1, 2]\n");

    lesson::section(lesson::tr("scores: every query against every key, Q K^T", "分数：每个查询对每个键，Q K^T"));
    pg::Tensor S = pg::matmul(Q, pg::transpose(K, 0, 1));  // (T, HS) @ (HS, T) -> (T, T)
    lesson::show("Q K^T", S, 0);
    pg::Tensor row0 = pg::slice(S, 0, 0, 1);
    lesson::confirm(lesson::tr("row 0", "第 0 行"), row0, pg::tensor({{1.f, 2.f, 3.f}}), 0.0,
                    lesson::tr("seed 002's [1,2,3]", "源文章 002 的 [1,2,3]"));
    std::cout << lesson::tr("  q_0 = [1, 1]: with k_0 = [1, 0] gives 1, with k_1 = [1, 1] gives 2, with k_2 = [2, 1] gives 3\n",
                           "  q_0 = [1, 1]：与 k_0 = [1, 0] 得 1，与 k_1 = [1, 1] 得 2，与 k_2 = [2, 1] 得 3\n");

    lesson::section(lesson::tr("scaled by sqrt(HS), HS = 2: the width of one query", "除以 sqrt(HS) 缩放，HS = 2：一个查询的宽度"));
    float root = std::sqrt(2.f);
    lesson::show("sqrt(2)", root);
    lesson::show(lesson::tr("sqrt(2) to 3 decimals, as seed 002 writes it", "sqrt(2) 保留 3 位小数，源文章 002 就这样写"), root, 3);
    pg::Tensor scaled = S / root;
    lesson::show("Q K^T / sqrt(2)", scaled);
    lesson::confirm(lesson::tr("row 0", "第 0 行"), pg::slice(scaled, 0, 0, 1), pg::tensor({{1.f, 2.f, 3.f}}) / root, 1e-7,
                    "[1,2,3] / sqrt(2)");
    std::cout << lesson::tr("  lesson 12 goes on from here: mask, softmax, aggregate\n", "  第 12 课从这里接着做：掩码、softmax、聚合\n");

    lesson::section(lesson::tr("seed 002's question: Wq becomes the identity", "源文章 002 的问题：把 Wq 换成单位矩阵"));
    pg::Tensor Q_id = pg::matmul(X, pg::eye(2));
    lesson::show(lesson::tr("Q with Wq = I (= X)", "Wq = I 时的 Q（= X）"), Q_id, 0);
    pg::Tensor S_id = pg::matmul(Q_id, pg::transpose(K, 0, 1));
    lesson::show(lesson::tr("Q K^T with Wq = I", "Wq = I 时的 Q K^T"), S_id, 0);
    lesson::confirm(lesson::tr("row 0 of Q", "Q 的第 0 行"), pg::slice(Q_id, 0, 0, 1), pg::tensor({{1.f, 0.f}}), 0.0,
                    lesson::tr("seed 002's answer [1,0]", "源文章 002 的答案 [1,0]"));
    lesson::confirm(lesson::tr("row 0 of the scores", "分数的第 0 行"), pg::slice(S_id, 0, 0, 1), pg::tensor({{1.f, 1.f, 2.f}}), 0.0,
                    lesson::tr("seed 002's answer [1,1,2]", "源文章 002 的答案 [1,1,2]"));
    std::cout << lesson::tr("  K and V do not depend on Wq: they change by ", "  K 和 V 与 Wq 无关：它们的变化是 ")
              << lesson::num(max_abs_diff(pg::matmul(X, Wk), K), 0) << lesson::tr(" and ", " 和 ")
              << lesson::num(max_abs_diff(pg::matmul(X, Wv), V), 0) << "\n";
    pg::Tensor w = pg::softmax(scaled, -1), w_id = pg::softmax(S_id / root, -1);
    pg::Tensor out = pg::matmul(w, V), out_id = pg::matmul(w_id, V);
    lesson::show(lesson::tr("weights softmax(Q K^T / sqrt(2)), nothing hidden yet", "权重 softmax(Q K^T / sqrt(2))，还没有遮住任何位置"), w);
    lesson::show(lesson::tr("the same with Wq = I", "Wq = I 时的权重"), w_id);
    lesson::show(lesson::tr("outputs weights @ V", "输出 权重 @ V"), out);
    lesson::show(lesson::tr("outputs with Wq = I", "Wq = I 时的输出"), out_id);
    for (long t = 0; t < 3; ++t) {
        auto row = [t](const pg::Tensor& m) { return pg::slice(m, 0, t, t + 1); };
        std::cout << lesson::tr("  row ", "  第 ") << t << lesson::tr(": query changed by ", " 行：查询变化 ")
                  << lesson::num(max_abs_diff(row(Q_id), row(Q)), 0) << lesson::tr(", scores by ", "，分数变化 ")
                  << lesson::num(max_abs_diff(row(S_id), row(S)), 0) << lesson::tr(", output by ", "，输出变化 ")
                  << lesson::num(max_abs_diff(row(out_id), row(out))) << "\n";
    }
    std::cout << lesson::tr("  row 1's query is [0, 1] either way, since X's row 1 picks Wq's row 1, which I shares with Wq\n",
                           "  第 1 行的查询两种情况下都是 [0, 1]：X 的第 1 行取出 Wq 的第 1 行，而 I 的这一行与 Wq 相同\n");

    lesson::section(lesson::tr("the library's way: one Linear C -> 3C, then chunk(3)", "库的做法：一个 Linear C -> 3C，再 chunk(3)"));
    pg::Generator gen(11);
    pg::nn::CausalSelfAttention attn(2, 1, 0.f, gen);  // C = 2, one head, no dropout
    for (const auto& [name, p] : attn.named_parameters())
        if (name.rfind("qkv", 0) == 0) std::cout << "  " << name << lesson::tr("  shape ", "  形状 ") << lesson::str(p.shape()) << "\n";
    // Linear computes x W^T + b with W (out, in): its rows are the columns of Wq, then Wk, then Wv
    pg::Tensor W_fused = pg::concat({pg::transpose(Wq, 0, 1), pg::transpose(Wk, 0, 1), pg::transpose(Wv, 0, 1)}, 0);
    lesson::show("qkv.weight = [Wq^T; Wk^T; Wv^T]", W_fused, 0);
    attn.qkv.weight.copy_(W_fused);
    attn.qkv.bias.copy_(pg::zeros({6}));
    pg::Tensor x = pg::reshape(X, {1, 3, 2});  // (B, T, C) with B = 1
    pg::Tensor fused = attn.qkv.forward(x);    // (B, T, 3C)
    lesson::show(lesson::tr("qkv.forward(x), bias 0", "qkv.forward(x)，偏置为 0"), fused, 0);
    std::vector<pg::Tensor> parts = pg::chunk(fused, 3, -1);  // q, k, v each (B, T, C)
    lesson::show("chunk 0 (q)", parts[0], 0);
    lesson::show("chunk 1 (k)", parts[1], 0);
    lesson::show("chunk 2 (v)", parts[2], 0);
    lesson::confirm("q, k, v", pg::concat({parts[0], parts[1], parts[2]}, 0),
                    pg::reshape(pg::concat({Q, K, V}, 0), {3, 3, 2}), 0.0,
                    lesson::tr("the three matmuls above", "上面的三次矩阵乘法"));

    lesson::section(lesson::tr("with a bias: each of q, k, v is X W + b", "加上偏置：q、k、v 各是 X W + b"));
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
