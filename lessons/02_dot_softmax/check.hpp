// Lesson 02's checks for stable_softmax, shared by starter.cpp, solution.cpp and your exercise.cpp.
// Seed 001's scores, rows of any tensor, and inputs where a naive softmax gives nan. When your weights
// are wrong, the check recomputes the usual wrong softmaxes (no maximum, one maximum for the whole
// tensor, the wrong axis, ...) and names the one your numbers match.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include "lesson.hpp"

namespace exercise {
// softmax along the last dim, computed stably with loops over x.ptr().
// x (..., C) -> (..., C), every row of C numbers positive and summing to 1
pg::Tensor stable_softmax(const pg::Tensor& x);
}  // namespace exercise

namespace check02 {

// One way of getting softmax wrong, recomputed on x's numbers, with the hint that names it.
enum class Wrong {
    no_max, one_max, max_from_zero, max_skips_last, log_of_sum,  // overflow and underflow
    one_sum, sum_kept, first_axis, rows_from_size0, c_from_size0,  // the rows
};

static const char* hint_of(Wrong w) {
    switch (w) {
        case Wrong::no_max:
            return "exp(1000) overflows float to inf, and inf/inf is nan (exp(-1000) underflows to 0, and 0/0 is "
                   "nan): subtract the row's maximum first, softmax(x) = softmax(x - max x)";
        case Wrong::one_max:
            return "you subtracted one maximum of the whole tensor: a row far below it gets exp = 0 everywhere and "
                   "0/0 = nan. Subtract each row's own maximum";
        case Wrong::max_from_zero:
            return "your maximum starts at 0, so for a row all far below 0 it stays 0 and every exp underflows "
                   "(0/0 = nan): start from the row's first number, row[0], or from -infinity";
        case Wrong::max_skips_last:
            return "your maximum missed the row's last number: the end of a range is one past the last, "
                   "std::max_element(row, row + C), and a loop runs j < C";
        case Wrong::log_of_sum:
            return "exp(x - log(sum of exp)) is softmax on paper, but the sum of exps overflows to inf first and "
                   "every weight becomes exp(-inf) = 0: subtract the row's maximum before any exp";
        case Wrong::one_sum:
            return "the whole tensor sums to 1, not each row: you divided by one sum over every row. Each row is "
                   "divided by its own sum";
        case Wrong::sum_kept:
            return "your rows after the first do not sum to 1: the sum is never set back to 0, so each row is "
                   "divided by the exps of every row so far. Start total at 0 for each row";
        case Wrong::first_axis:
            return "your weights sum to 1 down each column: softmax over the wrong axis. A row is C = x.size(-1) "
                   "neighbours in memory, x.ptr()[r * C + j] for j = 0 .. C-1";
        case Wrong::rows_from_size0:
            return "only the first x.size(0) rows were computed: the number of rows is x.numel() / C, every axis "
                   "but the last";
        case Wrong::c_from_size0:
            return "you took C from the first axis: C = x.size(-1), the last axis (x.size(0) is the first)";
    }
    return "";
}

// softmax of `rows` rows of C numbers, done right (ok) or the `w` way; 0 where no row was computed.
static std::vector<float> rows_softmax(const std::vector<float>& x, size_t C, size_t rows, Wrong w, bool ok) {
    std::vector<float> y(x.size(), 0.f);
    float all_max = -std::numeric_limits<float>::infinity();
    for (float v : x) all_max = std::max(all_max, v);
    double all_sum = 0;
    if (!ok && w == Wrong::one_sum)
        for (float v : x) all_sum += std::exp(v - all_max);
    float kept = 0.f;  // Wrong::sum_kept: one total for all the rows
    for (size_t r = 0; r < rows && (r + 1) * C <= x.size(); ++r) {
        const float* row = x.data() + r * C;
        float m = *std::max_element(row, row + C);
        if (!ok) {
            if (w == Wrong::no_max || w == Wrong::log_of_sum) m = 0.f;
            if (w == Wrong::one_max || w == Wrong::one_sum) m = all_max;
            if (w == Wrong::max_from_zero) m = std::max(m, 0.f);
            if (w == Wrong::max_skips_last) m = C > 1 ? *std::max_element(row, row + C - 1) : 0.f;
        }
        float fresh = 0.f;
        float& total = !ok && w == Wrong::sum_kept ? kept : fresh;
        for (size_t j = 0; j < C; ++j) total += std::exp(row[j] - m);
        for (size_t j = 0; j < C; ++j) {
            float e = std::exp(row[j] - m);
            if (!ok && w == Wrong::log_of_sum) y[r * C + j] = std::exp(row[j] - std::log(total));
            else if (!ok && w == Wrong::one_sum) y[r * C + j] = static_cast<float>(e / all_sum);
            else y[r * C + j] = e / total;
        }
    }
    return y;
}

static std::vector<float> softmax_wrong(const pg::Tensor& x, Wrong w) {
    std::vector<float> v = x.to_vector();
    size_t C = x.size(-1), rows = x.numel() / C;
    switch (w) {
        case Wrong::first_axis:
            return x.dim() < 2 ? std::vector<float>{} : pg::softmax(x.detach(), 0).to_vector();
        case Wrong::rows_from_size0:
            return x.dim() < 2 ? std::vector<float>{} : rows_softmax(v, C, x.size(0), w, true);
        case Wrong::c_from_size0:
            return x.dim() < 2 ? std::vector<float>{} : rows_softmax(v, x.size(0), x.numel() / x.size(0), w, true);
        default:
            return rows_softmax(v, C, rows, w, false);
    }
}

// Equal within tol, a nan matching a nan.
static bool same(const std::vector<float>& a, const std::vector<float>& b, double tol) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        bool na = std::isnan(a[i]), nb = std::isnan(b[i]);
        if (na != nb || (!na && !(std::fabs(a[i] - b[i]) <= tol))) return false;
    }
    return true;
}

// Runs your stable_softmax on x (x requires grad, so a call to pg::softmax shows in the result's
// graph) and compares with `expected`; on a mismatch the hint names every wrong softmax the numbers
// match, else it is `fallback`.
static void expect_softmax(pg::Tensor x, const pg::Tensor& expected, double tol, const std::string& fallback) {
    x = x.detach().requires_grad_();
    pg::Tensor y = exercise::stable_softmax(x);
    for (const char* op : {"softmax", "log_softmax"})
        lesson::expect_not_called("stable_softmax(x)", y, op,
                                  "write it from loops over x.ptr(): the row's maximum, exp, and the row's sum");
    if (y.shape() != x.shape())
        throw lesson::CheckFailed("stable_softmax(x)'s shape", lesson::str(x.shape()), lesson::str(y.shape()),
                                  "softmax keeps the shape: return pg::tensor(values, x.shape())");
    std::vector<float> got = y.to_vector(), want = expected.to_vector();
    if (same(got, want, tol)) return;
    std::string hint;
    for (Wrong w : {Wrong::no_max, Wrong::one_max, Wrong::max_from_zero, Wrong::max_skips_last, Wrong::log_of_sum,
                    Wrong::one_sum, Wrong::sum_kept, Wrong::first_axis, Wrong::rows_from_size0, Wrong::c_from_size0}) {
        std::vector<float> wrong = softmax_wrong(x, w);
        if (!same(wrong, want, tol) && same(got, wrong, std::max(tol, 1e-5)))
            hint += (hint.empty() ? "" : "; or: ") + std::string(hint_of(w));
    }
    if (hint.empty()) {
        bool any_nan = false;
        for (float v : got) any_nan = any_nan || std::isnan(v);
        const size_t C = x.size(-1);
        std::string off_row;  // the first row of your weights whose sum is not 1
        for (size_t r = 0; r * C < got.size() && off_row.empty(); ++r) {
            double row_sum = 0;
            for (size_t j = 0; j < C; ++j) row_sum += got[r * C + j];
            if (std::isfinite(row_sum) && std::fabs(row_sum - 1) > 1e-3)
                off_row = "row " + std::to_string(r) + " of your weights sums to " + lesson::num(row_sum) +
                          ", not 1: each row of C = x.size(-1) numbers is divided by its own sum; ";
        }
        if (any_nan)
            hint = "nan in your weights: an exp overflowed (inf/inf) or a whole row underflowed (0/0). "
                   "Subtract each row's own maximum before exp; " + fallback;
        else
            hint = off_row + fallback;
    }
    throw lesson::CheckFailed("weights", lesson::str(expected) + " (within " + lesson::num(tol, 6) + ")",
                              lesson::str(y), hint);
}

}  // namespace check02

int main() {
    lesson::Checks checks("02", "dot_softmax");
    checks.run("seed 001: fruit's scores [2.08, 1.92, -0.62]", [] {
        check02::expect_softmax(pg::tensor({2.08f, 1.92f, -0.62f}), pg::tensor({0.5210f, 0.4440f, 0.0350f}), 1e-4,
                                "exp each score, then divide by the sum of the three exps (the article's "
                                "0.520 / 0.439 / 0.041 are not the softmax of these scores)");
    });
    checks.run("[1000, 999, 998] stays finite", [] {
        check02::expect_softmax(pg::tensor({1000.f, 999.f, 998.f}), pg::tensor({0.6652f, 0.2447f, 0.0900f}), 1e-4,
                                "exp(1000) overflows float to inf, and inf/inf is nan; subtract the row's "
                                "maximum first: softmax(x) = softmax(x - max x)");
    });
    checks.run("[-1000, -1000] gives [0.5, 0.5]", [] {
        check02::expect_softmax(pg::tensor({-1000.f, -1000.f}), pg::tensor({0.5f, 0.5f}), 1e-6,
                                "exp(-1000) underflows to 0, and 0/0 is nan; after subtracting the maximum "
                                "the largest exp is exactly 1");
    });
    checks.run("the maximum last: [-1000, 0] gives [0, 1]", [] {
        check02::expect_softmax(pg::tensor({-1000.f, 0.f}), pg::tensor({0.f, 1.f}), 1e-6,
                                "the row's maximum is its last number here: look at all C of them");
    });
    checks.run("each row its own maximum: [[0, 0], [-1000, -1000]]", [] {
        check02::expect_softmax(pg::tensor({{0.f, 0.f}, {-1000.f, -1000.f}}), pg::tensor({{0.5f, 0.5f}, {0.5f, 0.5f}}),
                                1e-6, "each row is a softmax of its own: its own maximum, its own sum");
    });
    checks.run("a (4,5) input: each row on its own, against pg::softmax", [] {
        pg::Generator gen(2);
        pg::Tensor x = pg::randn({4, 5}, gen) * 3.f;
        check02::expect_softmax(x, pg::softmax(x, -1), 1e-5,
                                "softmax runs along the last dim: row r is x.ptr()[r*C .. r*C + C-1], with its "
                                "own maximum and its own sum; return pg::tensor(values, x.shape())");
    });
    checks.run("a (2,3,4) input: rows are the last dim whatever the rank", [] {
        pg::Generator gen(3);
        pg::Tensor x = pg::randn({2, 3, 4}, gen);
        check02::expect_softmax(x, pg::softmax(x, -1), 1e-5, "C = x.size(-1) and the number of rows is x.numel() / C");
    });
    return checks.finish();
}
