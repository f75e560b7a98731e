// Lesson 01's checks for attention_loops, shared by starter.cpp, solution.cpp and your exercise.cpp.
// Each check compares your loops with seed 000's numbers or with the library's ops; when they differ,
// it recomputes the usual wrong versions (no scale, softmax over the queries, one maximum for all
// rows, ...) and names the one your numbers match.
#include "check.hpp"
#include "check_tools.hpp"

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

static std::string hint_of(Wrong w) {
    switch (w) {
        case Wrong::no_scale:
            return lesson::tr("your numbers are attention without the scale: divide every score by sqrt(d_k) before the softmax",
                   "你的数字是没有缩放的注意力：在 softmax 之前，把每个分数除以 sqrt(d_k)");
        case Wrong::scale_sqrt2:
            return lesson::tr("you scaled by 1/sqrt(2): d_k is the width of a query row, q[0].size(), not always 2",
                   "你乘的是 1/sqrt(2)：d_k 是一个查询行的宽度 q[0].size()，不总是 2");
        case Wrong::scale_times:
            return lesson::tr("you multiplied the scores by sqrt(d_k): divide by it instead", "你把分数乘以了 sqrt(d_k)：应该除以它");
        case Wrong::scale_by_dk:
            return lesson::tr("you divided the scores by d_k: divide by its square root, sqrt(d_k)",
                   "你把分数除以了 d_k：应该除以它的平方根 sqrt(d_k)");
        case Wrong::scale_by_keys:
            return lesson::tr("you scaled by 1/sqrt(number of keys): d_k is the width of a query row, q[0].size(), not k.size()",
                   "你乘的是 1/sqrt(键的数量)：d_k 是一个查询行的宽度 q[0].size()，不是 k.size()");
        case Wrong::softmax_columns:
            return lesson::tr("your weights sum to 1 down each column: softmax over the wrong axis. Normalise each query's row "
                   "of scores over the keys j, not each key's column over the queries i",
                   "你的权重沿每一列加起来为 1：softmax 用错了轴。应该把每个查询的那一行分数在所有键 j 上归一化，而不是把每个键的那一列在所有查询 i 上归一化");
        case Wrong::no_max:
            return lesson::tr("exp overflowed: a score of 1131 is beyond float's exp (about 88.7), and inf/inf is nan. Subtract "
                   "the row's max before exp, as the seed's Python does",
                   "exp 溢出了：分数 1131 超出了 float 的 exp 范围（约 88.7），而 inf/inf 是 nan。在取 exp 之前减去这一行的最大值，就像源文章的 Python 代码那样");
        case Wrong::one_max:
            return lesson::tr("you subtracted one maximum over all the scores: a row far below it gets exp = 0 everywhere and "
                   "0/0 = nan. Subtract each row's own maximum",
                   "你减去的是所有分数中同一个最大值：远低于它的一行处处 exp = 0，而 0/0 = nan。每一行要减去它自己的最大值");
        case Wrong::max_from_zero:
            return lesson::tr("your maximum starts at 0, so a row whose scores are all far below 0 still gets exp = 0 everywhere "
                   "(0/0 = nan): start it from the row's first score, or from -infinity",
                   "你的最大值从 0 开始，所以分数全部远低于 0 的一行仍然处处 exp = 0（0/0 = nan）：应该从这一行的第一个分数开始，或者从 -infinity 开始");
        case Wrong::total_kept:
            return lesson::tr("your rows after the first do not sum to 1: the softmax's total is never set back to 0, so each "
                   "row is divided by the exps of every row so far. Start total at 0 for each row",
                   "你第一行之后的各行加起来不等于 1：softmax 的总和 total 从来没有重新设回 0，所以每一行都被到目前为止所有行的 exp 一起除了。每一行开始时都要把 total 设为 0");
        case Wrong::dot_assign:
            return lesson::tr("your scores keep only the last product q[i][c] * k[j][c]: a dot product adds up every c with +=, "
                   "starting from 0",
                   "你的分数只留下了最后一个乘积 q[i][c] * k[j][c]：点积要用 += 把每个 c 都加起来，从 0 开始");
        case Wrong::out_assign:
            return lesson::tr("each output row is only the last key's share w[j] * v[j][d]: add up every key with +=, "
                   "out[i][d] starting from 0",
                   "每个输出行只是最后一个键的那一份 w[j] * v[j][d]：要用 += 把每个键都加起来，out[i][d] 从 0 开始");
        case Wrong::values_from_k:
            return lesson::tr("you averaged the key rows: the weighted sum takes the value rows, v[j][d], not k[j][d]",
                   "你平均的是键的各行：加权求和用的是值的各行 v[j][d]，不是 k[j][d]");
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
    static std::vector<Matrix> earlier;  // the right outputs of the checks before this one
    if (lesson::came_back(
            out, want, earlier, [](const Matrix& a, const Matrix& b) { return same(a, b, 1e-6); },
            [](const Matrix& a, const Matrix& b) { return !same(a, b, 1e-4); }, lesson::Remember::right_answers))
        throw lesson::CheckFailed(lesson::tr("output", "输出"), str_rows(want), str_rows(out),
                                  lesson::came_back_hint({"output", "输出"}, {"q, k and v", "q、k、v"}));
    size_t Tq = q.size(), d_v = v[0].size();
    bool rows_ok = out.size() == Tq, widths_ok = true;
    for (const auto& row : out) widths_ok = widths_ok && row.size() == d_v;
    if (!rows_ok || !widths_ok) {
        std::string got = std::to_string(out.size()) + lesson::tr(" rows", " 行");
        if (!out.empty()) got += lesson::tr(" of ", "，每行宽 ") + std::to_string(out[0].size());
        throw lesson::CheckFailed(lesson::tr("output's size", "输出的大小"),
                                  std::to_string(Tq) + lesson::tr(" rows of ", " 行，每行宽 ") + std::to_string(d_v), got,
                                  lesson::tr("the output has one row per query (q.size()) of v's width (v[0].size()): "
                                  "q.size() = ",
                                  "输出每个查询一行（q.size()），每行是 v 的宽度（v[0].size()）：q.size() = ") +
                                      std::to_string(Tq) + ", k.size() = " + std::to_string(k.size()) +
                                      ", v[0].size() = " + std::to_string(d_v));
    }
    if (same(out, want, 1e-4)) return;
    std::string hint;
    for (Wrong w : {Wrong::no_scale, Wrong::scale_sqrt2, Wrong::scale_times, Wrong::scale_by_dk,
                    Wrong::scale_by_keys, Wrong::softmax_columns, Wrong::no_max, Wrong::one_max,
                    Wrong::max_from_zero, Wrong::total_kept, Wrong::dot_assign, Wrong::out_assign, Wrong::values_from_k}) {
        Matrix wrong = attention_wrong(q, k, v, w);
        if (!same(wrong, want, 1e-4) && same(out, wrong, 1e-4)) hint += (hint.empty() ? std::string() : lesson::tr("; or: ", "；或者：")) + hint_of(w);
    }
    bool any_nan = false;
    for (const auto& row : out)
        for (float x : row) any_nan = any_nan || std::isnan(x);
    if (hint.empty() && any_nan)
        hint = lesson::tr("nan in your output: an exp overflowed (inf/inf) or a whole row underflowed (0/0). Subtract each "
               "row's own maximum score before exp; ",
               "你的输出里有 nan：某个 exp 溢出了（inf/inf），或者整行都下溢了（0/0）。在取 exp 之前，每一行减去它自己的最大分数；") + fallback;
    if (hint.empty()) hint = fallback;
    throw lesson::CheckFailed(lesson::tr("output", "输出"), str_rows(want) + lesson::tr(" (within 0.0001)", "（误差不超过 0.0001）"), str_rows(out), hint);
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
    checks.run(lesson::tr("seed 000: Q = K = [[1,0],[0,1]], V = [[2,0],[0,4]]",
               "源文章 000：Q = K = [[1,0],[0,1]]，V = [[2,0],[0,4]]"), [] {
        check01::expect_attention({{1, 0}, {0, 1}}, {{1, 0}, {0, 1}}, {{2, 0}, {0, 4}},
                                  pg::tensor({{1.3395f, 1.3210f}, {0.6605f, 2.6790f}}),
                                  lesson::tr("scores = q_i . k_j / sqrt(2); softmax each row (exp, then divide by the row's sum); "
                                  "out_i = sum_j w_ij v_j",
                                  "分数 = q_i . k_j / sqrt(2)；对每一行做 softmax（先取 exp，再除以这一行的和）；out_i = sum_j w_ij v_j"));
    });
    checks.run(lesson::tr("3 positions, d_k = 4, d_v = 2, against pg ops",
               "3 个位置，d_k = 4，d_v = 2，与 pg 算子对比"), [] {
        check01::check_against_ops({3, 4}, {3, 4}, {3, 2},
                                   lesson::tr("scale by 1/sqrt(d_k), where d_k is the width of a query row (here 4); softmax "
                                   "each query's row over the keys",
                                   "乘以 1/sqrt(d_k) 缩放，其中 d_k 是一个查询行的宽度（这里是 4）；对每个查询的那一行在所有键上做 softmax"));
    });
    checks.run(lesson::tr("2 queries looking at 5 keys and 5 looking at 2, d_v = 3, against pg ops",
               "2 个查询看 5 个键、5 个查询看 2 个键，d_v = 3，与 pg 算子对比"), [] {
        const std::string hint = lesson::tr("the output has one row per query (q.size()) and v's width (v[0].size()); "
                                            "the softmax runs over the keys (k.size())",
                                            "输出每个查询一行（q.size()），宽度是 v 的宽度（v[0].size()）；softmax 在所有键上进行（k.size()）");
        check01::check_against_ops({2, 4}, {5, 4}, {5, 3}, hint);
        check01::check_against_ops({5, 4}, {2, 4}, {2, 3}, hint);
    });
    checks.run(lesson::tr("one query, one key: its weight is 1, the output is v's row",
               "一个查询、一个键：它的权重是 1，输出就是 v 的那一行"), [] {
        check01::expect_attention({{3, -1}}, {{0.5f, 2}}, {{7, -2}}, pg::tensor({{7.f, -2.f}}),
                                  lesson::tr("with a single key the softmax is exp(0) / exp(0) = 1: the output is v's only row",
                                  "只有一个键时，softmax 是 exp(0) / exp(0) = 1：输出就是 v 唯一的那一行"));
    });
    checks.run(lesson::tr("large scores: q = k = [[40,0],[0,40]] gives finite weights",
               "很大的分数：q = k = [[40,0],[0,40]] 给出有限的权重"), [] {
        Matrix big{{40, 0}, {0, 40}};
        check01::expect_attention(big, big, {{2, 0}, {0, 4}}, pg::tensor({{2.f, 0.f}, {0.f, 4.f}}),
                                  lesson::tr("a score of 1600/sqrt(2) = 1131 overflows exp in float; subtract the row's max "
                                  "before exp, as the seed's Python does",
                                  "分数 1600/sqrt(2) = 1131 会让 float 的 exp 溢出；在取 exp 之前减去这一行的最大值，就像源文章的 Python 代码那样"));
    });
    checks.run(lesson::tr("every score far below 0: q = [[-40,0],[-39,0]], k = [[40,0],[30,0]]",
               "所有分数都远低于 0：q = [[-40,0],[-39,0]]，k = [[40,0],[30,0]]"), [] {
        // scores [[-1131, -849], [-1103, -827]]: each row's weights are [0, 1] (to float)
        check01::expect_attention({{-40, 0}, {-39, 0}}, {{40, 0}, {30, 0}}, {{2, 0}, {0, 4}},
                                  pg::tensor({{0.f, 4.f}, {0.f, 4.f}}),
                                  lesson::tr("the largest score of each row is far below 0: subtract that row's own maximum, "
                                  "so the largest exp is exactly 1",
                                  "每一行最大的分数都远低于 0：减去这一行自己的最大值，这样最大的 exp 正好是 1"));
    });
    checks.run(lesson::tr("rows far apart: q = [[40,0],[-40,0]], k = [[40,0],[30,0]]",
               "两行相距很远：q = [[40,0],[-40,0]]，k = [[40,0],[30,0]]"), [] {
        // scores [[1131, 849], [-1131, -849]]: row 0 picks key 0, row 1 picks key 1
        check01::expect_attention({{40, 0}, {-40, 0}}, {{40, 0}, {30, 0}}, {{2, 0}, {0, 4}},
                                  pg::tensor({{2.f, 0.f}, {0.f, 4.f}}),
                                  lesson::tr("each row is a softmax of its own: its own maximum subtracted, its own sum",
                                  "每一行是它自己的 softmax：减去它自己的最大值，除以它自己的和"));
    });
    return checks.finish();
}
