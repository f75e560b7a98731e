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
    std::cout << "  " << what << ": article " << article << ", poetgrad " << lesson::num(ours)
              << ", article - poetgrad = " << lesson::num(diff) << (std::fabs(diff) >= 5e-4f ? "  <- off" : "")
              << "\n";
}

static void run() {
    lesson::section("seed 001's vectors (the keys double as the values)");
    pg::Tensor q = pg::tensor({1.2f, 0.7f, -0.5f});  // fruit: (C) with C = 3
    pg::Tensor K = pg::tensor({{1.1f, 0.8f, -0.4f},   // apple
                               {1.0f, 0.6f, -0.6f},   // banana
                               {-0.2f, 0.1f, 0.9f}});  // chair: (N, C) with N = 3 keys
    lesson::show("q (fruit)", q, 1);
    lesson::show("K = V (apple, banana, chair)", K, 1);

    lesson::section("step 1: dot products q . k_i");
    const char* names[3] = {"apple", "banana", "chair"};
    for (long i = 0; i < 3; ++i) {
        pg::Tensor k = pg::reshape(pg::slice(K, 0, i, i + 1), {3});
        lesson::show(std::string("q * k_") + names[i] + " (elementwise)", q * k, 2);
    }
    // (1, C) @ (C, N) -> (1, N): all three dot products at once
    pg::Tensor scores = pg::reshape(pg::matmul(pg::reshape(q, {1, 3}), pg::transpose(K, 0, 1)), {3});
    lesson::show("scores = matmul(q, K^T)", scores, 2);
    lesson::confirm("scores", scores, pg::tensor({2.08f, 1.92f, -0.62f}), 1e-5, "the article's dot products");

    lesson::section("step 2: softmax of the scores");
    pg::Tensor e = pg::exp(scores);
    lesson::show("exp(scores)", e);
    lesson::show("sum of exp", pg::sum(e).item());
    pg::Tensor w = pg::softmax(scores, -1);
    lesson::show("weights = softmax(scores, -1)", w);
    compare("weight of apple ", "0.520", w.to_vector()[0]);
    compare("weight of banana", "0.439", w.to_vector()[1]);
    compare("weight of chair ", "0.041", w.to_vector()[2]);
    std::cout << "  the article's weights are not the softmax of its own scores\n";
    pg::Tensor article_w = pg::tensor({0.520f, 0.439f, 0.041f});

    lesson::section("step 3: output = sum_i w_i v_i");
    // (1, N) @ (N, C) -> (1, C)
    pg::Tensor out = pg::reshape(pg::matmul(pg::reshape(w, {1, 3}), K), {3});
    lesson::show("output with the true weights", out);
    pg::Tensor out_article_w = pg::reshape(pg::matmul(pg::reshape(article_w, {1, 3}), K), {3});
    lesson::show("output with the article's weights", out_article_w);
    std::cout << "  the article's arithmetic from its own weights is right (to rounding); the weights are not:\n";
    const char* article_out[3] = {"1.003", "0.683", "-0.434"};
    for (size_t d = 0; d < 3; ++d) compare("output[" + std::to_string(d) + "]", article_out[d], out.to_vector()[d]);

    lesson::section("the formula's 1/sqrt(d_k), which the worked example leaves out");
    lesson::show("sqrt(3)", std::sqrt(3.f));
    lesson::show("softmax(scores / sqrt(3), -1)", pg::softmax(scores / std::sqrt(3.f), -1));

    lesson::section("the dictionary analogy: {apple: 10, banana: 5, chair: 2}");
    pg::Tensor values = pg::tensor({10.f, 5.f, 2.f}, {3, 1});  // (N, 1)
    pg::Tensor dict_w = pg::tensor({{0.6f, 0.4f, 0.0f}});   // (1, N), the article's weights
    lesson::show("the article's weights", dict_w, 1);
    pg::Tensor dict_out = pg::matmul(dict_w, values);        // (1, 1)
    lesson::show("0.6*10 + 0.4*5 + 0*2", dict_out);
    lesson::confirm("dictionary output", dict_out, pg::tensor({8.f}, {1, 1}), 1e-5, "the article's 8");
    lesson::show("with the true softmax weights of fruit's scores", pg::matmul(pg::reshape(w, {1, 3}), values), 2);
    lesson::show("smallest weight softmax gives chair (never exactly 0)", w.to_vector()[2]);

    lesson::section("stable softmax: subtract the maximum first");
    pg::Tensor shifted = scores - pg::max(scores);
    lesson::show("scores - max", shifted, 2);
    lesson::show("exp(scores - max)", pg::exp(shifted));
    lesson::show("sum", pg::sum(pg::exp(shifted)).item());
    lesson::show("exp / sum: the same weights", pg::exp(shifted) / pg::sum(pg::exp(shifted)));
    lesson::show("largest x whose exp is a finite float, log(FLT_MAX)", std::log(std::numeric_limits<float>::max()), 1);
    pg::Tensor big = pg::tensor({1000.f, 999.f, 998.f});
    lesson::show("x", big, 1);
    lesson::show("naive exp(x) / sum(exp(x))", pg::exp(big) / pg::sum(pg::exp(big)));
    lesson::show("softmax(x, -1), max subtracted", pg::softmax(big, -1));
    pg::Tensor tiny = pg::tensor({-1000.f, -1000.f});
    lesson::show("y", tiny, 1);
    lesson::show("naive exp(y) / sum(exp(y))", pg::exp(tiny) / pg::sum(pg::exp(tiny)));
    lesson::show("softmax(y, -1)", pg::softmax(tiny, -1), 1);

    lesson::section("softmax along the wrong axis");
    pg::Tensor Q = pg::tensor({{1.2f, 0.7f, -0.5f},    // fruit
                               {-0.3f, 0.2f, 1.0f}});  // furniture: (2 queries, C)
    lesson::show("Q (fruit, furniture)", Q, 1);
    pg::Tensor S = pg::matmul(Q, pg::transpose(K, 0, 1));  // (2 queries, 3 keys)
    lesson::show("S = Q K^T, one row per query", S, 2);
    pg::Tensor right = pg::softmax(S, -1);
    lesson::show("softmax(S, -1): each query's weights over the keys", right);
    lesson::show("row sums", pg::sum(right, -1));
    pg::Tensor wrong = pg::softmax(S, 0);
    lesson::show("softmax(S, 0): each key's weights over the queries", wrong);
    lesson::show("row sums", pg::sum(wrong, -1));
    lesson::show("fruit's output from the wrong weights", pg::reshape(pg::matmul(pg::slice(wrong, 0, 0, 1), K), {3}));
}

int main() { return lesson::run_experiment(run); }
