// Lesson 09's checks for cross_entropy's forward and gradient, shared by starter.cpp, solution.cpp
// and your exercise.cpp: the hand example, then pg::cross_entropy and its backward as the reference,
// logits near 1000 and -1000, rows at different levels, ignored rows, and no backward of your own.
#pragma once
#include <cmath>
#include <stdexcept>
#include "lesson.hpp"

namespace exercise {
struct LossAndGrad {
    double loss;         // the mean over the rows whose target is not ignore_index of -log softmax(logits)[target]
    pg::Tensor dlogits;  // d(loss)/d(logits), (N, C); zero in ignored rows
};
// logits (N, C), targets (N) whole numbers in [0, C) or ignore_index -> the loss and its gradient,
// computed with loops (no backward), stable for large logits.
LossAndGrad cross_entropy(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index = -100);
}  // namespace exercise

namespace check09 {

static const char* const kBackwardHint =
    "you called backward (on pg::cross_entropy, or on a loss you built from pg ops): this exercise computes the "
    "gradient itself, with loops: p - y per row, divided by the rows that count";

// The learner's function; a backward it calls (which the checks forbid) is named.
static exercise::LossAndGrad call(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index) {
    try {
        return exercise::cross_entropy(logits, targets, ignore_index);
    } catch (const std::logic_error& e) {
        if (std::string(e.what()).find("does not require grad") == std::string::npos) throw;
        throw lesson::CheckFailed("cross_entropy", "no backward", std::string("error: ") + e.what(), kBackwardHint);
    }
}

// The library's loss and gradient for the same inputs.
static exercise::LossAndGrad reference(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index = -100) {
    pg::Tensor l = logits.detach().requires_grad_();
    pg::Tensor loss = pg::cross_entropy(l, targets, ignore_index);
    loss.backward();
    return {loss.item(), l.grad()};
}

static bool finite(const pg::Tensor& t) {
    for (float v : t.to_vector())
        if (!std::isfinite(v)) return false;
    return true;
}

// |a - k b| <= tol everywhere (same shapes)
static bool is_multiple(const pg::Tensor& a, const pg::Tensor& b, float k, double tol = 1e-5) {
    if (a.shape() != b.shape()) return false;
    for (size_t i = 0; i < a.numel(); ++i)
        if (!(std::fabs(a.ptr()[i] - k * b.ptr()[i]) <= tol)) return false;
    return true;
}

// What the learner's numbers point to, measured against the library's for the same inputs.
static std::string diagnose(const exercise::LossAndGrad& mine, const exercise::LossAndGrad& lib,
                            const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index,
                            const std::string& fallback) {
    const size_t N = logits.size(0), C = logits.size(1);
    std::vector<int> t(N);
    size_t counted = 0;
    for (size_t r = 0; r < N; ++r) {
        t[r] = static_cast<long>(targets.ptr()[r]) == ignore_index ? -1 : static_cast<int>(targets.ptr()[r]);
        if (t[r] >= 0) ++counted;
    }
    const pg::Tensor& g = mine.dlogits;
    if (g.shape() != logits.shape())
        return "dlogits has the logits' shape (N, C) = " + lesson::str(logits.shape()) +
               ": pg::tensor(grad, {N, C}) with grad N * C numbers";
    if (!std::isfinite(mine.loss) || !finite(g)) {
        float lo = logits.ptr()[0], hi = logits.ptr()[0];
        std::vector<float> row_max(N, -1e30f);
        for (size_t i = 0; i < logits.numel(); ++i) {
            lo = std::min(lo, logits.ptr()[i]), hi = std::max(hi, logits.ptr()[i]);
            row_max[i / C] = std::max(row_max[i / C], logits.ptr()[i]);
        }
        float lowest_max = *std::min_element(row_max.begin(), row_max.end());
        if (hi > 80.f)
            return "exp(1000) is inf in float: subtract the row's max before exp (log softmax is unchanged)";
        bool low_row_alone_ok = false;  // the row far below, on its own
        try {
            exercise::LossAndGrad alone = exercise::cross_entropy(pg::full({1, 2}, lowest_max), pg::tensor({0.f}), -100);
            low_row_alone_ok = std::fabs(alone.loss - std::log(2.0)) < 1e-4 && finite(alone.dlogits);
        } catch (const std::exception&) {
        }
        if (lowest_max < -80.f && !low_row_alone_ok)
            return "a row of logits near " + lesson::num(lowest_max, 0) +
                   " gives inf or nan even on its own: exp underflows to 0 there; subtract the row's max before exp";
        if (*std::max_element(row_max.begin(), row_max.end()) - lowest_max > 80.f)
            return "inf or nan where one row's logits sit far below another's: subtract each row's own max, not one "
                   "max over the whole tensor (that row's exps all underflow to 0, and log 0 = -inf)";
        if (lo < -80.f)
            return "log(softmax) is log(0) = -inf here: work with log_softmax = z - max - log(sum exp(z - max))";
        return fallback;
    }
    if (ignore_index != -100) {  // the default compared instead of the ignore_index given
        exercise::LossAndGrad all = reference(logits, targets, -100);
        if (std::fabs(mine.loss - all.loss) < 1e-5 && is_multiple(g, all.dlogits, 1.f, 1e-6))
            return "no row was ignored: compare each target with the ignore_index you are given (here " +
                   std::to_string(ignore_index) + "), not -100";
    }
    // ignored rows
    for (size_t r = 0; r < N; ++r)
        if (t[r] < 0)
            for (size_t c = 0; c < C; ++c)
                if (g.ptr()[r * C + c] != 0.f)
                    return "row " + std::to_string(r) + " is ignored (its target is ignore_index " +
                           std::to_string(ignore_index) + ") and has a gradient: ignored rows get a zero gradient";
    if (counted < N && std::fabs(mine.loss - lib.loss * counted / N) < 1e-5)
        return "the loss is divided by N = " + std::to_string(N) + ": divide by the rows that count (" +
               std::to_string(counted) + "), not N";
    if (counted < N && is_multiple(g, lib.dlogits, static_cast<float>(counted) / N))
        return "the gradient is divided by N = " + std::to_string(N) + ": divide by the rows that count (" +
               std::to_string(counted) + "), not N";
    if (counted > 1 && is_multiple(g, lib.dlogits, static_cast<float>(counted)))
        return "the gradient is " + std::to_string(counted) + " times too large: the loss is a mean over " +
               std::to_string(counted) + " rows, so every gradient entry is (p - y) / " + std::to_string(counted);
    if (is_multiple(g, lib.dlogits, -1.f))
        return "the gradient has the wrong sign: it is p - y (softmax minus the one-hot target), not y - p";
    // the one-hot forgotten: g = p / counted, so each counted row sums to 1 / counted
    bool rows_sum_to_share = true;
    for (size_t r = 0; r < N; ++r) {
        if (t[r] < 0) continue;
        double s = 0;
        for (size_t c = 0; c < C; ++c) s += g.ptr()[r * C + c];
        rows_sum_to_share = rows_sum_to_share && std::fabs(s - 1.0 / counted) < 1e-5;
    }
    if (rows_sum_to_share)
        return "each gradient row sums to " + (counted == 1 ? std::string("1") : "1/" + std::to_string(counted)) +
               ": that is softmax alone; subtract 1 at the target (p - y), so that each row sums to 0";
    double mean_target_logit = 0;
    for (size_t r = 0; r < N; ++r)
        if (t[r] >= 0) mean_target_logit += logits.ptr()[r * C + t[r]] / counted;
    if (std::fabs(mine.loss - (lib.loss + mean_target_logit)) < 1e-4)
        return "that is the logsumexp alone: the loss is logsumexp(z) - z[target]";
    return fallback;
}

static void expect_like_library(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index,
                                const std::string& loss_hint, const std::string& grad_hint) {
    exercise::LossAndGrad mine = call(logits, targets, ignore_index);
    exercise::LossAndGrad lib = reference(logits, targets, ignore_index);
    lesson::expect_near("loss", mine.loss, lib.loss, 1e-5, diagnose(mine, lib, logits, targets, ignore_index, loss_hint));
    lesson::expect_near("dlogits", mine.dlogits, lib.dlogits, 1e-6,
                        diagnose(mine, lib, logits, targets, ignore_index, grad_hint));
}

}  // namespace check09

int main() {
    using check09::call;
    using check09::expect_like_library;
    lesson::Checks checks("09", "softmax_cross_entropy");
    checks.run("logits [2, 1, 0.1], target 0: loss 0.4170", [] {
        pg::Tensor z = pg::tensor({{2.f, 1.f, 0.1f}}), t = pg::tensor({0.f});
        exercise::LossAndGrad r = call(z, t, -100);
        lesson::expect_near("loss", r.loss, 0.41703, 1e-4,
                            check09::diagnose(r, check09::reference(z, t), z, t, -100,
                                              "-log softmax(z)[target] = log(sum exp z) - z[target]; "
                                              "2.4170 would be the logsumexp alone"));
    });
    checks.run("its gradient: p - y = [-0.3410, 0.2424, 0.0986]", [] {
        pg::Tensor z = pg::tensor({{2.f, 1.f, 0.1f}}), t = pg::tensor({0.f});
        exercise::LossAndGrad r = call(z, t, -100);
        lesson::expect_near("dlogits", r.dlogits, pg::tensor({{-0.34101f, 0.24243f, 0.09856f}}), 1e-4,
                            check09::diagnose(r, check09::reference(z, t), z, t, -100,
                                              "softmax(z) with 1 subtracted at the target; shape (N, C) = (1,3)"));
    });
    checks.run("a batch of 2 rows: the mean, so each row's gradient is divided by 2", [] {
        expect_like_library(pg::tensor({{2.f, 1.f, 0.1f}, {0.5f, 2.5f, -1.f}}), pg::tensor({0.f, 2.f}), -100,
                            "average the rows' losses: divide the sum by N",
                            "the loss is a mean over N rows, so every gradient entry is (p - y) / N");
    });
    checks.run("a random (4,5) against pg::cross_entropy and backward", [] {
        pg::Generator gen(9);
        expect_like_library(pg::randn({4, 5}, gen) * 3.f, pg::tensor({4.f, 0.f, 2.f, 2.f}), -100,
                            "row r: log(sum_c exp(z[r][c])) - z[r][target[r]], averaged",
                            "row r: (softmax(z[r]) - onehot(target[r])) / N");
    });
    checks.run("large logits [1000, 999, 998]: finite and right", [] {
        expect_like_library(pg::tensor({{1000.f, 999.f, 998.f}}), pg::tensor({1.f}), -100,
                            "exp(1000) is inf in float: subtract the row's max before exp (log softmax is unchanged)",
                            "softmax with the max subtracted first: exp(z - max) / sum exp(z - max)");
    });
    checks.run("a very unlikely target: logits [0, -200], target 1 gives 200", [] {
        pg::Tensor z = pg::tensor({{0.f, -200.f}}), t = pg::tensor({1.f});
        exercise::LossAndGrad r = call(z, t, -100);
        lesson::expect_near("loss", r.loss, 200.0, 1e-3,
                            "work with log_softmax = z - max - log(sum exp(z - max)); "
                            "log(softmax) is log(0) = -inf here");
    });
    checks.run("rows at different levels: [[0, 0], [-1000, -1000]]", [] {
        expect_like_library(pg::tensor({{0.f, 0.f}, {-1000.f, -1000.f}}), pg::tensor({0.f, 1.f}), -100,
                            "both rows are a fair coin, loss log 2 each: subtract each row's own max",
                            "both rows: p = [1/2, 1/2], so (p - y) / 2 is +-1/4");
    });
    checks.run("ignore_index: the row with target -100 counts for nothing", [] {
        expect_like_library(pg::tensor({{2.f, 1.f, 0.1f}, {1.f, 1.f, 1.f}, {0.5f, 2.5f, -1.f}}),
                            pg::tensor({0.f, -100.f, 1.f}), -100,
                            "skip rows whose target is ignore_index, and divide by the rows that count (2), not N (3)",
                            "ignored rows get a zero gradient; the others (p - y) / (rows that count)");
    });
    checks.run("another ignore_index: 3", [] {
        pg::Generator gen(10);
        expect_like_library(pg::randn({3, 4}, gen), pg::tensor({3.f, 1.f, 3.f}), 3,
                            "compare each target with the ignore_index you are given (not -100), and divide by the "
                            "rows that count",
                            "rows whose target equals ignore_index get no gradient: compare each target with the "
                            "ignore_index you are given (not -100)");
    });
    checks.run("your own loops: no backward, no pg::softmax", [] {
        pg::Tensor z = pg::tensor({{2.f, 1.f, 0.1f}, {0.5f, 2.5f, -1.f}}), t = pg::tensor({0.f, 2.f});
        {
            pg::NoGradGuard no_grad;  // a backward inside fails here: nothing records a graph
            call(z, t, -100);
        }
        pg::Tensor l = z.detach().requires_grad_();  // a graph behind dlogits would name the ops
        exercise::LossAndGrad r = call(l, t, -100);
        lesson::expect("logits.has_grad()", !l.has_grad(), "false: your code computes the gradient itself",
                       "true: a backward filled logits.grad()", check09::kBackwardHint);
        for (const char* op : {"cross_entropy", "log_softmax", "softmax"})
            lesson::expect_not_called("dlogits", r.dlogits, op,
                                      "write softmax yourself: exp(z - max) / sum, with loops over logits.ptr()");
    });
    return checks.finish();
}
