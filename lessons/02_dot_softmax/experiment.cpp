// Lesson 02 experiment: seed 001's fruit / apple / banana / chair retrieval recomputed with the
// library, every figure the article prints set beside the true value; then why softmax subtracts
// the maximum, and what softmax along the wrong axis does.
#include <cmath>
#include <iostream>
#include <limits>
#include "lesson.hpp"

// One line of the article-versus-poetgrad table.
static void compare(const std::string& what, const std::string& article, float ours) {
    float diff = std::stof(article) - ours;
    std::cout << "  " << what << lesson::tr(": article ", "：文章 ") << article << lesson::tr(", poetgrad ", "，poetgrad ")
              << lesson::num(ours) << lesson::tr(", article - poetgrad = ", "，文章 - poetgrad = ") << lesson::num(diff)
              << (std::fabs(diff) >= 5e-4f ? lesson::tr("  <- off", "  <- 有偏差") : "") << "\n";
}

static void run() {
    lesson::section(lesson::tr("seed 001's vectors (the keys double as the values)", "源文章 001 的向量（键同时充当值）"));
    pg::Tensor q = pg::tensor({1.2f, 0.7f, -0.5f});  // fruit: (C) with C = 3
    pg::Tensor K = pg::tensor({{1.1f, 0.8f, -0.4f},   // apple
                               {1.0f, 0.6f, -0.6f},   // banana
                               {-0.2f, 0.1f, 0.9f}});  // chair: (N, C) with N = 3 keys
    lesson::show("q (fruit)", q, 1);
    lesson::show("K = V (apple, banana, chair)", K, 1);

    lesson::section(lesson::tr("step 1: dot products q . k_i", "第 1 步：点积 q . k_i"));
    const char* names[3] = {"apple", "banana", "chair"};
    for (long i = 0; i < 3; ++i) {
        pg::Tensor k = pg::reshape(pg::slice(K, 0, i, i + 1), {3});
        lesson::show(std::string("q * k_") + names[i] + lesson::tr(" (elementwise)", "（逐元素）"), q * k, 2);
    }
    // (1, C) @ (C, N) -> (1, N): all three dot products at once
    pg::Tensor scores = pg::reshape(pg::matmul(pg::reshape(q, {1, 3}), pg::transpose(K, 0, 1)), {3});
    lesson::show("scores = matmul(q, K^T)", scores, 2);
    lesson::confirm("scores", scores, pg::tensor({2.08f, 1.92f, -0.62f}), 1e-5, lesson::tr("the article's dot products", "文章的点积"));

    lesson::section(lesson::tr("step 2: softmax of the scores", "第 2 步：分数的 softmax"));
    pg::Tensor e = pg::exp(scores);
    lesson::show("exp(scores)", e);
    lesson::show(lesson::tr("sum of exp", "exp 的和"), pg::sum(e).item());
    pg::Tensor w = pg::softmax(scores, -1);
    lesson::show(lesson::tr("weights = softmax(scores, -1)", "权重 = softmax(scores, -1)"), w);
    compare(lesson::tr("weight of apple ", "apple 的权重"), "0.520", w.to_vector()[0]);
    compare(lesson::tr("weight of banana", "banana 的权重"), "0.439", w.to_vector()[1]);
    compare(lesson::tr("weight of chair ", "chair 的权重"), "0.041", w.to_vector()[2]);
    std::cout << lesson::tr("  the article's weights are not the softmax of its own scores\n",
                            "  文章的权重并不是它自己那组分数的 softmax\n");
    pg::Tensor article_w = pg::tensor({0.520f, 0.439f, 0.041f});

    lesson::section(lesson::tr("step 3: output = sum_i w_i v_i", "第 3 步：输出 = sum_i w_i v_i"));
    // (1, N) @ (N, C) -> (1, C)
    pg::Tensor out = pg::reshape(pg::matmul(pg::reshape(w, {1, 3}), K), {3});
    lesson::show(lesson::tr("output with the true weights", "用真实权重得到的输出"), out);
    pg::Tensor out_article_w = pg::reshape(pg::matmul(pg::reshape(article_w, {1, 3}), K), {3});
    lesson::show(lesson::tr("output with the article's weights", "用文章的权重得到的输出"), out_article_w);
    std::cout << lesson::tr("  the article's arithmetic from its own weights is right (to rounding); the weights are not:\n",
                            "  文章从它自己的权重算下去是对的（差在舍入）；错的是权重本身：\n");
    const char* article_out[3] = {"1.003", "0.683", "-0.434"};
    for (size_t d = 0; d < 3; ++d) compare("output[" + std::to_string(d) + "]", article_out[d], out.to_vector()[d]);

    lesson::section(lesson::tr("the formula's 1/sqrt(d_k), which the worked example leaves out", "公式里的 1/sqrt(d_k)，例题里没有用它"));
    lesson::show("sqrt(3)", std::sqrt(3.f));
    lesson::show("softmax(scores / sqrt(3), -1)", pg::softmax(scores / std::sqrt(3.f), -1));

    lesson::section(lesson::tr("the dictionary analogy: {apple: 10, banana: 5, chair: 2}", "字典的类比：{apple: 10, banana: 5, chair: 2}"));
    pg::Tensor values = pg::tensor({10.f, 5.f, 2.f}, {3, 1});  // (N, 1)
    pg::Tensor dict_w = pg::tensor({{0.6f, 0.4f, 0.0f}});   // (1, N), the article's weights
    lesson::show(lesson::tr("the article's weights", "文章的权重"), dict_w, 1);
    pg::Tensor dict_out = pg::matmul(dict_w, values);        // (1, 1)
    lesson::show("0.6*10 + 0.4*5 + 0*2", dict_out);
    lesson::confirm(lesson::tr("dictionary output", "字典的输出"), dict_out, pg::tensor({8.f}, {1, 1}), 1e-5,
                    lesson::tr("the article's 8", "文章的 8"));
    lesson::show(lesson::tr("with the true softmax weights of fruit's scores", "用 fruit 那组分数真正的 softmax 权重"), pg::matmul(pg::reshape(w, {1, 3}), values), 2);
    lesson::show(lesson::tr("smallest weight softmax gives chair (never exactly 0)", "softmax 给 chair 的最小权重（永远不会恰好是 0）"), w.to_vector()[2]);

    lesson::section(lesson::tr("stable softmax: subtract the maximum first", "数值稳定的 softmax：先减去最大值"));
    pg::Tensor shifted = scores - pg::max(scores);
    lesson::show("scores - max", shifted, 2);
    lesson::show("exp(scores - max)", pg::exp(shifted));
    lesson::show(lesson::tr("sum", "和"), pg::sum(pg::exp(shifted)).item());
    lesson::show(lesson::tr("exp / sum: the same weights", "exp / 和：同样的权重"), pg::exp(shifted) / pg::sum(pg::exp(shifted)));
    lesson::show(lesson::tr("largest x whose exp is a finite float, log(FLT_MAX)", "exp 仍是有限 float 的最大 x，log(FLT_MAX)"), std::log(std::numeric_limits<float>::max()), 1);
    pg::Tensor big = pg::tensor({1000.f, 999.f, 998.f});
    lesson::show("x", big, 1);
    lesson::show(lesson::tr("naive exp(x) / sum(exp(x))", "朴素的 exp(x) / sum(exp(x))"), pg::exp(big) / pg::sum(pg::exp(big)));
    lesson::show(lesson::tr("softmax(x, -1), max subtracted", "softmax(x, -1)，减去了最大值"), pg::softmax(big, -1));
    pg::Tensor tiny = pg::tensor({-1000.f, -1000.f});
    lesson::show("y", tiny, 1);
    lesson::show(lesson::tr("naive exp(y) / sum(exp(y))", "朴素的 exp(y) / sum(exp(y))"), pg::exp(tiny) / pg::sum(pg::exp(tiny)));
    lesson::show("softmax(y, -1)", pg::softmax(tiny, -1), 1);

    lesson::section(lesson::tr("softmax along the wrong axis", "沿错误的轴做 softmax"));
    pg::Tensor Q = pg::tensor({{1.2f, 0.7f, -0.5f},    // fruit
                               {-0.3f, 0.2f, 1.0f}});  // furniture: (2 queries, C)
    lesson::show("Q (fruit, furniture)", Q, 1);
    pg::Tensor S = pg::matmul(Q, pg::transpose(K, 0, 1));  // (2 queries, 3 keys)
    lesson::show(lesson::tr("S = Q K^T, one row per query", "S = Q K^T，每个查询一行"), S, 2);
    pg::Tensor right = pg::softmax(S, -1);
    lesson::show(lesson::tr("softmax(S, -1): each query's weights over the keys", "softmax(S, -1)：每个查询在所有键上的权重"), right);
    lesson::show(lesson::tr("row sums", "每行的和"), pg::sum(right, -1));
    pg::Tensor wrong = pg::softmax(S, 0);
    lesson::show(lesson::tr("softmax(S, 0): each key's weights over the queries", "softmax(S, 0)：每个键在所有查询上的权重"), wrong);
    lesson::show(lesson::tr("row sums", "每行的和"), pg::sum(wrong, -1));
    lesson::show(lesson::tr("fruit's output from the wrong weights", "用错误的权重得到的 fruit 的输出"), pg::reshape(pg::matmul(pg::slice(wrong, 0, 0, 1), K), {3}));
}

int main() { return lesson::run_experiment(run); }
