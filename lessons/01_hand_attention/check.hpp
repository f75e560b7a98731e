// Lesson 01's checks for attention_loops, shared by starter.cpp, solution.cpp and your exercise.cpp.
// Each check compares your loops with seed 000's numbers or with the library's ops; when they differ,
// it recomputes the usual wrong versions (no scale, softmax over the queries, one maximum for all
// rows, ...) and names the one your numbers match.
#pragma once
#include <cmath>
#include <limits>
#include "lesson.hpp"

using Matrix = std::vector<std::vector<float>>;  // m[i][j]: row i, column j

namespace exercise {
// softmax(q k^T / sqrt(d_k)) v, with plain loops and no pg ops.
// q (Tq, d_k), k (Tk, d_k), v (Tk, d_v) -> (Tq, d_v)
Matrix attention_loops(const Matrix& q, const Matrix& k, const Matrix& v);
}  // namespace exercise

namespace check01 {

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

// One way of getting attention wrong, recomputed in float loops, with the hint that names it.
enum class Wrong {
    no_scale, scale_sqrt2, scale_times, scale_by_dk, scale_by_keys,  // the 1/sqrt(d_k)
    softmax_columns, no_max, one_max, max_from_zero, total_kept,     // the softmax
    dot_assign, out_assign, values_from_k                            // the two sums
};

static const char* hint_of(Wrong w) {
    switch (w) {
        case Wrong::no_scale:
            return "your numbers are attention without the scale: divide every score by sqrt(d_k) before the softmax";
        case Wrong::scale_sqrt2:
            return "you scaled by 1/sqrt(2): d_k is the width of a query row, q[0].size(), not always 2";
        case Wrong::scale_times:
            return "you multiplied the scores by sqrt(d_k): divide by it instead";
        case Wrong::scale_by_dk:
            return "you divided the scores by d_k: divide by its square root, sqrt(d_k)";
        case Wrong::scale_by_keys:
            return "you scaled by 1/sqrt(number of keys): d_k is the width of a query row, q[0].size(), not k.size()";
        case Wrong::softmax_columns:
            return "your weights sum to 1 down each column: softmax over the wrong axis. Normalise each query's row "
                   "of scores over the keys j, not each key's column over the queries i";
        case Wrong::no_max:
            return "exp overflowed: a score of 1131 is beyond float's exp (about 88.7), and inf/inf is nan. Subtract "
                   "the row's max before exp, as the seed's Python does";
        case Wrong::one_max:
            return "you subtracted one maximum over all the scores: a row far below it gets exp = 0 everywhere and "
                   "0/0 = nan. Subtract each row's own maximum";
        case Wrong::max_from_zero:
            return "your maximum starts at 0, so a row whose scores are all far below 0 still gets exp = 0 everywhere "
                   "(0/0 = nan): start it from the row's first score, or from -infinity";
        case Wrong::total_kept:
            return "your rows after the first do not sum to 1: the softmax's total is never set back to 0, so each "
                   "row is divided by the exps of every row so far. Start total at 0 for each row";
        case Wrong::dot_assign:
            return "your scores keep only the last product q[i][c] * k[j][c]: a dot product adds up every c with +=, "
                   "starting from 0";
        case Wrong::out_assign:
            return "each output row is only the last key's share w[j] * v[j][d]: add up every key with +=, "
                   "out[i][d] starting from 0";
        case Wrong::values_from_k:
            return "you averaged the key rows: the weighted sum takes the value rows, v[j][d], not k[j][d]";
    }
    return "";
}

// attention with exactly one thing done the `w` way (d_v = v's width; values_from_k reads k instead).
static Matrix attention_wrong(const Matrix& q, const Matrix& k, const Matrix& v, Wrong w) {
    size_t Tq = q.size(), Tk = k.size(), d_k = q[0].size(), d_v = v[0].size();
    float scale = 1.f / std::sqrt(static_cast<float>(d_k));
    if (w == Wrong::no_scale) scale = 1.f;
    if (w == Wrong::scale_sqrt2) scale = 1.f / std::sqrt(2.f);
    if (w == Wrong::scale_times) scale = std::sqrt(static_cast<float>(d_k));
    if (w == Wrong::scale_by_dk) scale = 1.f / static_cast<float>(d_k);
    if (w == Wrong::scale_by_keys) scale = 1.f / std::sqrt(static_cast<float>(Tk));
    Matrix s(Tq, std::vector<float>(Tk, 0.f));
    float all_max = -std::numeric_limits<float>::infinity();
    for (size_t i = 0; i < Tq; ++i)
        for (size_t j = 0; j < Tk; ++j) {
            for (size_t c = 0; c < d_k; ++c) {
                float p = q[i][c] * k[j][c] * scale;
                s[i][j] = w == Wrong::dot_assign ? p : s[i][j] + p;
            }
            all_max = std::max(all_max, s[i][j]);
        }
    Matrix wt = s;
    if (w == Wrong::softmax_columns) {
        for (size_t j = 0; j < Tk; ++j) {
            float m = -std::numeric_limits<float>::infinity(), total = 0.f;
            for (size_t i = 0; i < Tq; ++i) m = std::max(m, s[i][j]);
            for (size_t i = 0; i < Tq; ++i) total += wt[i][j] = std::exp(s[i][j] - m);
            for (size_t i = 0; i < Tq; ++i) wt[i][j] /= total;
        }
    } else {
        float kept = 0.f;  // Wrong::total_kept: one total for all the rows
        for (size_t i = 0; i < Tq; ++i) {
            float m = w == Wrong::max_from_zero ? 0.f : -std::numeric_limits<float>::infinity(), fresh = 0.f;
            float& total = w == Wrong::total_kept ? kept : fresh;
            for (size_t j = 0; j < Tk; ++j) m = std::max(m, s[i][j]);
            if (w == Wrong::no_max) m = 0.f;
            if (w == Wrong::one_max) m = all_max;
            for (size_t j = 0; j < Tk; ++j) total += wt[i][j] = std::exp(s[i][j] - m);
            for (size_t j = 0; j < Tk; ++j) wt[i][j] /= total;
        }
    }
    Matrix out(Tq, std::vector<float>(d_v, 0.f));
    for (size_t i = 0; i < Tq; ++i)
        for (size_t j = 0; j < Tk; ++j)
            for (size_t d = 0; d < d_v; ++d) {
                float value = w == Wrong::values_from_k ? (d < d_k ? k[j][d] : 0.f) : v[j][d];
                out[i][d] = w == Wrong::out_assign ? wt[i][j] * value : out[i][d] + wt[i][j] * value;
            }
    return out;
}

// Equal within tol, a nan matching a nan.
static bool same(const Matrix& a, const Matrix& b, double tol) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].size() != b[i].size()) return false;
        for (size_t j = 0; j < a[i].size(); ++j) {
            bool na = std::isnan(a[i][j]), nb = std::isnan(b[i][j]);
            if (na != nb || (!na && !(std::fabs(a[i][j] - b[i][j]) <= tol))) return false;
        }
    }
    return true;
}

static std::string str_rows(const Matrix& m) {
    std::string out = "[";
    for (size_t i = 0; i < m.size(); ++i) {
        out += i ? ", [" : "[";
        for (size_t j = 0; j < m[i].size(); ++j) out += (j ? ", " : "") + lesson::num(m[i][j]);
        out += "]";
    }
    return out + "]";
}

// Runs the learner's loops and compares with `expected`; on a mismatch the hint names every wrong
// version the numbers match, else it is `fallback`.
static void expect_attention(const Matrix& q, const Matrix& k, const Matrix& v, const pg::Tensor& expected,
                             const std::string& fallback) {
    Matrix out = exercise::attention_loops(q, k, v);
    Matrix want = rows_of(expected);
    size_t Tq = q.size(), d_v = v[0].size();
    bool rows_ok = out.size() == Tq, widths_ok = true;
    for (const auto& row : out) widths_ok = widths_ok && row.size() == d_v;
    if (!rows_ok || !widths_ok) {
        std::string got = std::to_string(out.size()) + " rows";
        if (!out.empty()) got += " of " + std::to_string(out[0].size());
        throw lesson::CheckFailed("output's size", std::to_string(Tq) + " rows of " + std::to_string(d_v), got,
                                  "the output has one row per query (q.size()) of v's width (v[0].size()): "
                                  "q.size() = " + std::to_string(Tq) + ", k.size() = " + std::to_string(k.size()) +
                                      ", v[0].size() = " + std::to_string(d_v));
    }
    if (same(out, want, 1e-4)) return;
    std::string hint;
    for (Wrong w : {Wrong::no_scale, Wrong::scale_sqrt2, Wrong::scale_times, Wrong::scale_by_dk,
                    Wrong::scale_by_keys, Wrong::softmax_columns, Wrong::no_max, Wrong::one_max,
                    Wrong::max_from_zero, Wrong::total_kept, Wrong::dot_assign, Wrong::out_assign, Wrong::values_from_k}) {
        Matrix wrong = attention_wrong(q, k, v, w);
        if (!same(wrong, want, 1e-4) && same(out, wrong, 1e-4)) hint += (hint.empty() ? "" : "; or: ") + std::string(hint_of(w));
    }
    bool any_nan = false;
    for (const auto& row : out)
        for (float x : row) any_nan = any_nan || std::isnan(x);
    if (hint.empty() && any_nan)
        hint = "nan in your output: an exp overflowed (inf/inf) or a whole row underflowed (0/0). Subtract each "
               "row's own maximum score before exp; " + fallback;
    if (hint.empty()) hint = fallback;
    throw lesson::CheckFailed("output", str_rows(want) + " (within 0.0001)", str_rows(out), hint);
}

static void check_against_ops(const pg::Shape& q_shape, const pg::Shape& k_shape, const pg::Shape& v_shape,
                              const std::string& hint) {
    pg::Generator gen(1);
    pg::Tensor q = pg::randn(q_shape, gen), k = pg::randn(k_shape, gen), v = pg::randn(v_shape, gen);
    expect_attention(rows_of(q), rows_of(k), rows_of(v), attention_with_ops(q, k, v), hint);
}

}  // namespace check01

int main() {
    lesson::Checks checks("01", "hand_attention");
    checks.run("seed 000: Q = K = [[1,0],[0,1]], V = [[2,0],[0,4]]", [] {
        check01::expect_attention({{1, 0}, {0, 1}}, {{1, 0}, {0, 1}}, {{2, 0}, {0, 4}},
                                  pg::tensor({{1.3395f, 1.3210f}, {0.6605f, 2.6790f}}),
                                  "scores = q_i . k_j / sqrt(2); softmax each row (exp, then divide by the row's sum); "
                                  "out_i = sum_j w_ij v_j");
    });
    checks.run("3 positions, d_k = 4, d_v = 2, against pg ops", [] {
        check01::check_against_ops({3, 4}, {3, 4}, {3, 2},
                                   "scale by 1/sqrt(d_k), where d_k is the width of a query row (here 4); softmax "
                                   "each query's row over the keys");
    });
    checks.run("2 queries looking at 5 keys, d_v = 3, against pg ops", [] {
        check01::check_against_ops({2, 4}, {5, 4}, {5, 3},
                                   "the output has one row per query (q.size()) and v's width (v[0].size()); "
                                   "the softmax runs over the keys (k.size())");
    });
    checks.run("large scores: q = k = [[40,0],[0,40]] gives finite weights", [] {
        Matrix big{{40, 0}, {0, 40}};
        check01::expect_attention(big, big, {{2, 0}, {0, 4}}, pg::tensor({{2.f, 0.f}, {0.f, 4.f}}),
                                  "a score of 1600/sqrt(2) = 1131 overflows exp in float; subtract the row's max "
                                  "before exp, as the seed's Python does");
    });
    checks.run("every score far below 0: q = [[-40,0],[-39,0]], k = [[40,0],[30,0]]", [] {
        // scores [[-1131, -849], [-1103, -827]]: each row's weights are [0, 1] (to float)
        check01::expect_attention({{-40, 0}, {-39, 0}}, {{40, 0}, {30, 0}}, {{2, 0}, {0, 4}},
                                  pg::tensor({{0.f, 4.f}, {0.f, 4.f}}),
                                  "the largest score of each row is far below 0: subtract that row's own maximum, "
                                  "so the largest exp is exactly 1");
    });
    checks.run("rows far apart: q = [[40,0],[-40,0]], k = [[40,0],[30,0]]", [] {
        // scores [[1131, 849], [-1131, -849]]: row 0 picks key 0, row 1 picks key 1
        check01::expect_attention({{40, 0}, {-40, 0}}, {{40, 0}, {30, 0}}, {{2, 0}, {0, 4}},
                                  pg::tensor({{2.f, 0.f}, {0.f, 4.f}}),
                                  "each row is a softmax of its own: its own maximum subtracted, its own sum");
    });
    return checks.finish();
}
