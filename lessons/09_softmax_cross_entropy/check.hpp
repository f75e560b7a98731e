// Lesson 09's checks for cross_entropy's forward and gradient, shared by starter.cpp, solution.cpp
// and your exercise.cpp: the hand example, then pg::cross_entropy and its backward as the reference.
#pragma once
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

// The library's loss and gradient for the same inputs.
static exercise::LossAndGrad reference(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index = -100) {
    pg::Tensor l = logits.detach().requires_grad_();
    pg::Tensor loss = pg::cross_entropy(l, targets, ignore_index);
    loss.backward();
    return {loss.item(), l.grad()};
}

static void expect_like_library(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index,
                                const std::string& loss_hint, const std::string& grad_hint) {
    exercise::LossAndGrad mine = exercise::cross_entropy(logits, targets, ignore_index);
    exercise::LossAndGrad lib = reference(logits, targets, ignore_index);
    lesson::expect_near("loss", mine.loss, lib.loss, 1e-5, loss_hint);
    lesson::expect_near("dlogits", mine.dlogits, lib.dlogits, 1e-6, grad_hint);
}

int main() {
    lesson::Checks checks("09", "softmax_cross_entropy");
    checks.run("logits [2, 1, 0.1], target 0: loss 0.4170", [] {
        exercise::LossAndGrad r = exercise::cross_entropy(pg::tensor({{2.f, 1.f, 0.1f}}), pg::tensor({0.f}));
        lesson::expect_near("loss", r.loss, 0.41703, 1e-4,
                            "-log softmax(z)[target] = log(sum exp z) - z[target]; "
                            "2.4170 would be the logsumexp alone");
    });
    checks.run("its gradient: p - y = [-0.3410, 0.2424, 0.0986]", [] {
        exercise::LossAndGrad r = exercise::cross_entropy(pg::tensor({{2.f, 1.f, 0.1f}}), pg::tensor({0.f}));
        lesson::expect_near("dlogits", r.dlogits, pg::tensor({{-0.34101f, 0.24243f, 0.09856f}}), 1e-4,
                            "softmax(z) with 1 subtracted at the target; shape (N, C) = (1,3)");
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
        exercise::LossAndGrad r = exercise::cross_entropy(pg::tensor({{0.f, -200.f}}), pg::tensor({1.f}));
        lesson::expect_near("loss", r.loss, 200.0, 1e-3,
                            "work with log_softmax = z - max - log(sum exp(z - max)); "
                            "log(softmax) is log(0) = -inf here");
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
                            "rows whose target equals ignore_index get no gradient");
    });
    return checks.finish();
}
