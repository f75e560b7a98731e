// Lesson 10's checks for attend_past, shared by starter.cpp, solution.cpp and your exercise.cpp.
// Equal scores must give the running mean; later positions' scores must not matter, not even when
// they are 1000; scores near 1000 and -1000 stay finite; the loops are yours, not pg::softmax.
#pragma once
#include <cmath>
#include "lesson.hpp"

namespace exercise {
// Row t of the result: softmax of scores[t][0..t], then the weighted average of v_0 .. v_t.
// scores[t][j] for j > t (later positions) are ignored. scores (T, T), v (T, C) -> (T, C)
pg::Tensor attend_past(const pg::Tensor& scores, const pg::Tensor& v);
}  // namespace exercise

// The same with pg ops, one row at a time: what your function is compared with.
static pg::Tensor attend_past_with_ops(const pg::Tensor& scores, const pg::Tensor& v) {
    std::vector<pg::Tensor> rows;
    for (long t = 0; t < static_cast<long>(scores.size(0)); ++t) {
        pg::Tensor s = pg::slice(pg::slice(scores, 0, t, t + 1), 1, 0, t + 1);     // (1, t+1)
        rows.push_back(pg::matmul(pg::softmax(s, -1), pg::slice(v, 0, 0, t + 1)));  // (1, C)
    }
    return pg::concat(rows, 0);
}

static const pg::Tensor& lesson_values() {
    static pg::Tensor v = pg::tensor({{2.f, 0.f}, {0.f, 2.f}, {1.f, 1.f}, {16.f, 0.f}, {0.f, 1.f}});
    return v;
}

namespace check10 {

// The usual wrong versions, computed stably in double, to name the one the learner's output matches.
struct Wrong {
    bool all_positions = false;   // softmax over the whole row, later positions too
    bool denominator_all = false; // the sum over the whole row, the numerator over 0..t
    bool without_self = false;    // j < t: position t left out of its own average
    bool v_transposed = false;    // v[j][c] read at c * T + j, as if v were (C, T)
};

static pg::Tensor wrong(const pg::Tensor& scores, const pg::Tensor& v, Wrong how) {
    size_t T = scores.size(0), C = v.size(1);
    std::vector<float> out(T * C, 0.f);
    for (size_t t = 0; t < T; ++t) {
        const float* row = scores.ptr() + t * T;
        size_t last = how.all_positions ? T : (how.without_self ? t : t + 1);  // numerator over j < last
        size_t den_last = how.denominator_all ? T : last;
        if (den_last == 0) continue;
        double m = row[0];
        for (size_t j = 0; j < den_last; ++j) m = std::max(m, static_cast<double>(row[j]));
        double total = 0;
        for (size_t j = 0; j < den_last; ++j) total += std::exp(row[j] - m);
        for (size_t j = 0; j < last; ++j) {
            double w = std::exp(row[j] - m) / total;
            for (size_t c = 0; c < C; ++c) {
                size_t at = how.v_transposed ? c * T + j : j * C + c;
                if (at < v.numel()) out[t * C + c] += static_cast<float>(w * v.ptr()[at]);
            }
        }
    }
    return pg::tensor(out, {T, C});
}

static bool near(const pg::Tensor& a, const pg::Tensor& b, double tol = 1e-4) {
    if (a.shape() != b.shape()) return false;
    for (size_t i = 0; i < a.numel(); ++i)
        if (!(std::fabs(a.ptr()[i] - b.ptr()[i]) <= tol)) return false;
    return true;
}

static bool finite(const pg::Tensor& t) {
    for (float x : t.to_vector())
        if (!std::isfinite(x)) return false;
    return true;
}

// What the learner's output points to.
static std::string diagnose(const pg::Tensor& scores, const pg::Tensor& v, const pg::Tensor& mine,
                            const std::string& fallback) {
    size_t T = scores.size(0), C = v.size(1);
    if (mine.shape() != pg::Shape{T, C})
        return "the result is (T, C) = " + lesson::str(pg::Shape{T, C}) +
               ": T = scores.size(0) rows, C = v.size(1) columns; return pg::tensor(values, {T, C})";
    if (!finite(mine)) {
        // which maxima would have been needed: a past score above 80, a later one far above the past, rows apart
        float past_hi = -1e30f, past_lo = 1e30f, later_hi = -1e30f, row_max_hi = -1e30f, row_max_lo = 1e30f;
        for (size_t t = 0; t < T; ++t) {
            float row_max = -1e30f;
            for (size_t j = 0; j < T; ++j) {
                float s = scores.ptr()[t * T + j];
                if (j <= t) past_hi = std::max(past_hi, s), past_lo = std::min(past_lo, s), row_max = std::max(row_max, s);
                else later_hi = std::max(later_hi, s);
            }
            row_max_hi = std::max(row_max_hi, row_max), row_max_lo = std::min(row_max_lo, row_max);
        }
        bool alone_ok = false;  // one position with a score of -1000, on its own
        try {
            pg::Tensor one = exercise::attend_past(pg::full({1, 1}, -1000.f), pg::ones({1, 1}));
            alone_ok = near(one, pg::ones({1, 1}));
        } catch (const std::exception&) {
        }
        if (past_hi > 80.f) return "exp(1000) overflows float; subtract the largest of scores[t][0..t] before exp";
        if (later_hi - past_hi > 80.f)
            return "inf or nan when a later position has a huge score: the max you subtract must be taken over "
                   "scores[t][0..t] only; with a later score of 1000 in it, every exp(s - max) underflows to 0 and "
                   "you divide 0 by 0";
        if (past_lo < -80.f && !alone_ok)
            return "a single score of -1000 gives inf or nan: exp(-1000) is 0 in float; subtract the row's max "
                   "before exp, so its largest term is exp(0) = 1";
        if (row_max_hi - row_max_lo > 80.f)
            return "inf or nan where one row's scores sit far below another's: subtract each row's own max, not "
                   "one max over the whole matrix";
        return fallback;
    }
    if (near(mine, wrong(scores, v, {true, false, false, false})))
        return "your rows average in later positions too: only scores[t][0..t] enter row t's softmax (stop the "
               "loop over j at t, inclusive); with equal scores row t is the mean of v_0 .. v_t";
    if (near(mine, wrong(scores, v, {false, true, false, false})))
        return "your weights in row t sum to less than 1: the denominator adds exp(s - max) over j = 0..t only, the "
               "same positions as the numerator, not over the whole row";
    if (near(mine, wrong(scores, v, {false, false, true, false})))
        return "position t attends to itself too: j runs over 0..t inclusive (j <= t); row 0 is v_0 itself";
    if (T != C && near(mine, wrong(scores, v, {false, false, false, true})))
        return "v[j][c] is v.ptr()[j * C + c] with C = v.size(1), not c * T + j: v is (T, C), one row per position";
    return fallback;
}

static void expect_output(const pg::Tensor& scores, const pg::Tensor& v, const pg::Tensor& mine,
                          const pg::Tensor& expected, double tol, const std::string& hint) {
    if (near(mine, expected, tol)) return;
    lesson::expect_near("output", mine, expected, tol, diagnose(scores, v, mine, hint));
}

}  // namespace check10

int main() {
    using check10::expect_output;
    lesson::Checks checks("10", "attention_average");
    checks.run("equal scores give the running mean", [] {
        pg::Tensor S = pg::zeros({5, 5});
        expect_output(S, lesson_values(), exercise::attend_past(S, lesson_values()),
                      pg::tensor({{2.f, 0.f}, {1.f, 1.f}, {1.f, 1.f}, {4.75f, 0.75f}, {3.8f, 0.8f}}), 1e-5,
                      "with equal scores every one of positions 0..t gets weight 1/(t+1); a row that "
                      "divides by T instead averages in positions that come later");
    });
    checks.run("the experiment's scores for 晓", [] {
        pg::Tensor S = pg::tensor({{0.0f, 9.f, 9.f, 9.f, 9.f},
                                   {1.0f, 0.0f, 9.f, 9.f, 9.f},
                                   {0.5f, -0.5f, 1.0f, 9.f, 9.f},
                                   {0.0f, 1.0f, 0.0f, 0.5f, 9.f},
                                   {2.0f, 0.5f, 1.0f, -1.0f, 1.5f}});
        expect_output(S, lesson_values(), exercise::attend_past(S, lesson_values()),
                      attend_past_with_ops(S, lesson_values()), 1e-5,
                      "row t: exp(scores[t][j] - max) for j = 0..t, divided by their sum, then "
                      "sum_j w_j v_j; the 9s above the diagonal must not be read");
    });
    checks.run("scores for later positions change nothing", [] {
        pg::Generator gen(10);
        pg::Tensor S = pg::randn({6, 6}, gen), v = pg::randn({6, 3}, gen);
        std::vector<float> big = S.to_vector();
        for (size_t t = 0; t < 6; ++t)
            for (size_t j = t + 1; j < 6; ++j) big[t * 6 + j] = 50.f;  // huge scores on later positions
        pg::Tensor B = pg::tensor(big, {6, 6});
        expect_output(B, v, exercise::attend_past(B, v), exercise::attend_past(S, v), 1e-5,
                      "only scores[t][0..t] enter row t's softmax: stop the loop over j at t");
    });
    checks.run("later scores of 1000 change nothing either", [] {
        pg::Tensor S = pg::tensor({{0.f, 1000.f, 1000.f}, {1.f, 0.f, 1000.f}, {0.f, 0.f, 0.f}});
        pg::Tensor v = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {3.f, 3.f}});
        expect_output(S, v, exercise::attend_past(S, v), attend_past_with_ops(S, v), 1e-5,
                      "the max, the sum and the average all run over j = 0..t only");
    });
    checks.run("random (7,7) scores and (7,4) values, against pg ops", [] {
        pg::Generator gen(11);
        pg::Tensor S = pg::randn({7, 7}, gen) * 2.f, v = pg::randn({7, 4}, gen);
        expect_output(S, v, exercise::attend_past(S, v), attend_past_with_ops(S, v), 1e-5,
                      "T = scores.size(0) and C = v.size(1): the result is (T, C), not (T, T)");
    });
    checks.run("large scores stay finite", [] {
        pg::Tensor S = pg::tensor({{1000.f, 0.f}, {1000.f, 999.f}}), v = pg::tensor({{1.f, 0.f}, {0.f, 1.f}});
        expect_output(S, v, exercise::attend_past(S, v), pg::tensor({{1.f, 0.f}, {0.7311f, 0.2689f}}), 1e-4,
                      "exp(1000) overflows float; subtract the largest of scores[t][0..t] before exp");
    });
    checks.run("rows at different levels: scores near 0 and near -1000", [] {
        pg::Tensor S = pg::tensor({{0.f, 0.f, 0.f}, {2.f, 1.f, 0.f}, {-1000.f, -1001.f, -1000.f}});
        pg::Tensor v = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {3.f, 3.f}});
        expect_output(S, v, exercise::attend_past(S, v), attend_past_with_ops(S, v), 1e-5,
                      "subtract each row's own max over scores[t][0..t]; row 2's weights are those of [0, -1, 0]");
    });
    checks.run("your own loops, not pg::softmax", [] {
        pg::Tensor S = pg::tensor({{0.f, 9.f}, {1.f, 0.f}}).requires_grad_();  // a graph would name the ops
        pg::Tensor out = exercise::attend_past(S, pg::tensor({{1.f, 0.f}, {0.f, 1.f}}));
        for (const char* op : {"softmax", "log_softmax"})
            lesson::expect_not_called("attend_past", out, op,
                                      "write the weights yourself from exp, the max and the sum of scores[t][0..t], "
                                      "with loops over scores.ptr()");
    });
    return checks.finish();
}
