// Lesson 01's checks for attention_loops, shared by starter.cpp, solution.cpp and your exercise.cpp.
// Each check compares your loops with seed 000's numbers or with the library's ops.
#pragma once
#include <cmath>
#include "lesson.hpp"

using Matrix = std::vector<std::vector<float>>;  // m[i][j]: row i, column j

namespace exercise {
// softmax(q k^T / sqrt(d_k)) v, with plain loops and no pg ops.
// q (Tq, d_k), k (Tk, d_k), v (Tk, d_v) -> (Tq, d_v)
Matrix attention_loops(const Matrix& q, const Matrix& k, const Matrix& v);
}  // namespace exercise

// The library's answer for the same inputs: what your loops are compared with.
static pg::Tensor attention_with_ops(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v) {
    float scale = 1.f / std::sqrt(static_cast<float>(q.size(-1)));
    return pg::matmul(pg::softmax(pg::matmul(q, pg::transpose(k, 0, 1)) * scale, -1), v);
}

static Matrix rows_of(const pg::Tensor& t) {
    Matrix m(t.size(0), std::vector<float>(t.size(1)));
    for (size_t i = 0; i < m.size(); ++i)
        for (size_t j = 0; j < m[i].size(); ++j) m[i][j] = t.ptr()[i * m[i].size() + j];
    return m;
}

static void check_against_ops(const pg::Shape& q_shape, const pg::Shape& k_shape, const pg::Shape& v_shape,
                              const std::string& hint) {
    pg::Generator gen(1);
    pg::Tensor q = pg::randn(q_shape, gen), k = pg::randn(k_shape, gen), v = pg::randn(v_shape, gen);
    Matrix out = exercise::attention_loops(rows_of(q), rows_of(k), rows_of(v));
    lesson::expect_near("output", lesson::from_rows(out), attention_with_ops(q, k, v), 1e-4, hint);
}

int main() {
    lesson::Checks checks("01", "hand_attention");
    checks.run("seed 000: Q = K = [[1,0],[0,1]], V = [[2,0],[0,4]]", [] {
        Matrix out = exercise::attention_loops({{1, 0}, {0, 1}}, {{1, 0}, {0, 1}}, {{2, 0}, {0, 4}});
        lesson::expect_near("output", lesson::from_rows(out), pg::tensor({{1.3395f, 1.3210f}, {0.6605f, 2.6790f}}),
                            1e-4,
                            "scores = q_i . k_j / sqrt(2); softmax each row (exp, then divide by the row's sum); "
                            "out_i = sum_j w_ij v_j");
    });
    checks.run("3 positions, d_k = 4, d_v = 2, against pg ops", [] {
        check_against_ops({3, 4}, {3, 4}, {3, 2},
                          "scale by 1/sqrt(d_k), where d_k is the width of a query row (here 4), not sqrt(2)");
    });
    checks.run("2 queries looking at 5 keys, d_v = 3, against pg ops", [] {
        check_against_ops({2, 4}, {5, 4}, {5, 3},
                          "the output has one row per query (q.size()) and v's width (v[0].size()); "
                          "the softmax runs over the keys (k.size())");
    });
    checks.run("large scores: q = k = [[40,0],[0,40]] gives finite weights", [] {
        Matrix big{{40, 0}, {0, 40}};
        Matrix out = exercise::attention_loops(big, big, {{2, 0}, {0, 4}});
        lesson::expect_near("output", lesson::from_rows(out), pg::tensor({{2.f, 0.f}, {0.f, 4.f}}), 1e-4,
                            "a score of 1600/sqrt(2) = 1131 overflows exp in float; subtract the row's max "
                            "before exp, as the seed's Python does");
    });
    return checks.finish();
}
