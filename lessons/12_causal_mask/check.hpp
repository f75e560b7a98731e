// Lesson 12's checks for causal_attention, shared by starter.cpp, solution.cpp and your exercise.cpp:
// seed 002's numbers, no leak from later positions, heads and batches, and the library's layer.
#pragma once
#include <cmath>
#include <limits>
#include "lesson.hpp"

namespace exercise {
// softmax(mask(q k^T / sqrt(HS))) v, where mask puts -inf on every key after the query.
// q (..., T, HS), k (..., T, HS), v (..., T, HV) -> (..., T, HV)
pg::Tensor causal_attention(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v);
}  // namespace exercise

// The same with the library's ops: what your function is compared with.
static pg::Tensor causal_attention_with_ops(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v) {
    size_t T = q.size(-2);
    pg::Tensor s = pg::matmul(q, pg::transpose(k, -2, -1)) / std::sqrt(static_cast<float>(q.size(-1)));
    std::vector<float> m(T * T, 0.f);
    for (size_t i = 0; i < T; ++i)
        for (size_t j = i + 1; j < T; ++j) m[i * T + j] = 1.f;
    s = pg::masked_fill(s, pg::tensor(m, {T, T}), -std::numeric_limits<float>::infinity());
    return pg::matmul(pg::softmax(s, -1), v);
}

int main() {
    lesson::Checks checks("12", "causal_mask");
    checks.run("seed 002's Q, K, V", [] {
        pg::Tensor out = exercise::causal_attention(pg::tensor({{1.f, 1.f}, {0.f, 1.f}, {1.f, 2.f}}),
                                                    pg::tensor({{1.f, 0.f}, {1.f, 1.f}, {2.f, 1.f}}),
                                                    pg::tensor({{2.f, 0.f}, {0.f, 1.f}, {2.f, 1.f}}));
        lesson::expect_near("output", out, pg::tensor({{2.f, 0.f}, {0.6605f, 0.6698f}, {1.3886f, 0.9257f}}), 1e-4,
                            "compare, scale by 1/sqrt(2), mask with -inf, softmax, aggregate; row 0 sees only "
                            "itself, so it must be v_0 = [2, 0]");
    });
    checks.run("a later position cannot change an earlier output", [] {
        pg::Generator gen(120);
        pg::Tensor q = pg::randn({5, 3}, gen), k = pg::randn({5, 3}, gen), v = pg::randn({5, 3}, gen);
        pg::Tensor k2 = pg::concat({pg::slice(k, 0, 0, 4), pg::randn({1, 3}, gen)}, 0);  // new key and value
        pg::Tensor v2 = pg::concat({pg::slice(v, 0, 0, 4), pg::randn({1, 3}, gen) * 10.f}, 0);  // at position 4
        pg::Tensor out = exercise::causal_attention(q, k, v), out2 = exercise::causal_attention(q, k2, v2);
        lesson::expect_near("outputs 0-3", pg::slice(out2, 0, 0, 4), pg::slice(out, 0, 0, 4), 1e-5,
                            "hide key j from query i when j > i, before softmax, with -inf (not 0): "
                            "pg::masked_fill(scores, mask, -infinity)");
    });
    checks.run("T = 3, HS = 5, against pg ops", [] {
        pg::Generator gen(121);
        pg::Tensor q = pg::randn({3, 5}, gen), k = pg::randn({3, 5}, gen), v = pg::randn({3, 2}, gen);
        lesson::expect_near("output", exercise::causal_attention(q, k, v), causal_attention_with_ops(q, k, v), 1e-5,
                            "scale by 1/sqrt(HS) with HS = q.size(-1), the width of a query (here 5), not by "
                            "sqrt(2) or sqrt(T)");
    });
    checks.run("batch and heads: (B, NH, T, HS) = (2, 2, 4, 3), against pg ops", [] {
        pg::Generator gen(122);
        pg::Tensor q = pg::randn({2, 2, 4, 3}, gen), k = pg::randn({2, 2, 4, 3}, gen), v = pg::randn({2, 2, 4, 3}, gen);
        lesson::expect_near("output", exercise::causal_attention(q, k, v), causal_attention_with_ops(q, k, v), 1e-5,
                            "transpose the last two dims of k (-2, -1), not (0, 1); a (T, T) mask broadcasts over "
                            "the leading dims; T = q.size(-2)");
    });
    checks.run("the library's one-head attention layer (B = 2, T = 5, C = 4)", [] {
        pg::Generator gen(123);
        pg::nn::CausalSelfAttention attn(4, 1, 0.f, gen);
        pg::Tensor x = pg::randn({2, 5, 4}, gen);
        std::vector<pg::Tensor> qkv = pg::chunk(attn.qkv.forward(x), 3, -1);  // each (B, T, C): one head
        pg::Tensor yours = attn.proj.forward(exercise::causal_attention(qkv[0], qkv[1], qkv[2]));
        lesson::expect_near("output", yours, attn.forward(x), 1e-5,
                            "the layer computes exactly compare, scale, mask, softmax, aggregate, then its "
                            "output projection");
    });
    return checks.finish();
}
