// Lesson 08's checks for mse_loss and sgd_step, shared by starter.cpp, solution.cpp and your
// exercise.cpp: exact values first (with a diagnosis of the usual wrong formulas), losses near
// 10^4, then pg::optim::SGD's step, parameters without a gradient, and a whole line fit.
#pragma once
#include <cmath>
#include <stdexcept>
#include "lesson.hpp"

namespace exercise {
// mean((pred - target)^2) built from pg ops, so that backward works: pred, target (N, 1) -> ()
pg::Tensor mse_loss(const pg::Tensor& pred, const pg::Tensor& target);
// For every parameter that has a gradient: p -= lr * p.grad, in place in p's own values; then
// clear the gradient so that the next backward starts from zero. Parameters without one are skipped.
void sgd_step(std::vector<pg::Tensor>& params, float lr);
}  // namespace exercise

namespace check08 {

// What the learner's loss gives on a probe where the usual wrong formulas all differ:
// differences [2, -2, -1, 1]: mse 2.5, sum 10, rmse 1.5811, half 1.25, square of the mean 0, / (N - 1) 3.3333.
static std::string diagnose_mse(const std::string& fallback) {
    double got;
    try {
        got = exercise::mse_loss(pg::tensor({3.f, -1.f, 0.f, 2.f}, {4, 1}), pg::ones({4, 1})).item();
    } catch (const std::exception&) {
        return fallback;
    }
    auto is = [got](double v) { return std::fabs(got - v) < 1e-4; };
    if (is(10.0)) return "N times too large: you summed the squares; divide by N (pg::mean, not pg::sum)";
    if (is(std::sqrt(2.5))) return "that is the square root of the mean squared error: no square root (that is RMSE)";
    if (is(1.25)) return "half the mean squared error: no factor 1/2, mean((pred - target)^2) as it stands";
    if (is(0.0)) return "the square of the mean difference, where the differences cancel: square each difference first, "
                        "then take the mean";
    if (is(10.0 / 3.0)) return "divided by N - 1: the mean divides by N";
    if (is(1.5)) return "the mean absolute difference: square the differences instead";
    return fallback;
}

// sgd_step, with the library's "no gradient yet" error turned into a hint.
static void step(std::vector<pg::Tensor>& params, float lr) {
    try {
        exercise::sgd_step(params, lr);
    } catch (const std::logic_error& e) {
        if (std::string(e.what()).find("has no gradient yet") == std::string::npos) throw;
        throw lesson::CheckFailed("sgd_step", "parameters without a gradient skipped", std::string("error: ") + e.what(),
                                  "a parameter had no gradient and you read it: skip p when !p.has_grad() "
                                  "(continue with the next one)");
    }
}

// Two parameters, both with a gradient, one step: which of them moved?
static std::pair<bool, bool> which_move() {
    pg::Tensor a = pg::tensor({1.f}).requires_grad_(), b = pg::tensor({1.f}).requires_grad_();
    pg::sum(a + b).backward();
    std::vector<pg::Tensor> params{a, b};
    try {
        exercise::sgd_step(params, 0.5f);
    } catch (const std::exception&) {
    }
    return {a.item() != 1.f, b.item() != 1.f};
}

// Names what a wrong update of w (values `before`, gradient `grad`, learning rate lr) did; `after_unused`
// when a parameter without a gradient comes before w in the list.
static std::string diagnose_step(const pg::Tensor& w, const std::vector<float>& before, const std::vector<float>& grad,
                                 float lr, const std::vector<pg::Tensor>& params, size_t at, bool after_unused) {
    if (params.size() <= at || !params[at].same_as(w))
        return "the vector now holds a new tensor and w itself never moved: p = p - lr * grad makes a new tensor; "
               "change p's own values in place (p.mutable_data().data())";
    std::vector<float> got = w.detach().to_vector();
    auto is = [&](float sign, float scale) {
        for (size_t i = 0; i < got.size(); ++i)
            if (std::fabs(got[i] - (before[i] + sign * scale * grad[i])) > 1e-5f) return false;
        return true;
    };
    if (is(0.f, 0.f)) {
        auto [first, last] = which_move();
        if (first && !last)
            return "w did not move, and of two parameters with gradients only the first moves: update every "
                   "parameter in the list, the last one too (i < params.size())";
        if (first && last && after_unused)
            return "w did not move because it comes after a parameter without a gradient: skip that one with "
                   "continue, not break or return";
        return "w did not move: change the values of p itself (p.mutable_data().data()), not of a copy "
               "(p.detach() and p.data() copies are not p)";
    }
    if (is(1.f, lr)) return "w moved uphill: you added lr * grad; subtract it, the gradient points uphill";
    if (is(-1.f, 1.f)) return "w moved by the whole gradient: multiply it by lr first, p -= lr * grad";
    return "p -= lr * grad: subtract, element by element, in the values of the tensor itself (p.mutable_data())";
}

}  // namespace check08

int main() {
    lesson::Checks checks("08", "linear_regression");
    checks.run("mse_loss of [1, 2, 3] against [1, 1, 1] is 5/3", [] {
        pg::Tensor pred = pg::tensor({1.f, 2.f, 3.f}, {3, 1}), target = pg::ones({3, 1});
        pg::Tensor loss = exercise::mse_loss(pred, target);
        lesson::expect_shape("mse_loss's shape", loss.shape(), {}, "one number: pg::mean of everything gives shape ()");
        lesson::expect_near("mse_loss", loss.item(), 5.0 / 3.0, 1e-6,
                            check08::diagnose_mse("square the differences (0, 1, 4), then average them over N = 3; "
                                                  "no square root"));
    });
    checks.run("mse_loss's gradient is 2 (pred - target) / N", [] {
        pg::Tensor pred = pg::tensor({1.f, 2.f, 3.f}, {3, 1}).requires_grad_(), target = pg::ones({3, 1});
        pg::Tensor loss = exercise::mse_loss(pred, target);
        lesson::expect("loss.requires_grad()", loss.requires_grad(), "true: a graph back to pred",
                       "false: no graph back to pred",
                       "the loss was made from raw numbers (ptr(), item(), a loop, pg::scalar) or from pred.detach(), "
                       "so backward cannot reach pred: there is no graph back to pred; build it from pg ops on pred "
                       "itself (-, *, pg::mean)");
        loss.backward();
        lesson::expect_near("pred.grad", pred.grad(), pg::tensor({0.f, 2.f / 3.f, 4.f / 3.f}, {3, 1}), 1e-6,
                            check08::diagnose_mse("build the loss from pg ops (-, *, pg::mean) on pred itself, so "
                                                  "backward reaches it"));
    });
    checks.run("mse_loss near 10^4: pred = 10000 + [0.5, -0.5, 0.25], target = 10000", [] {
        pg::Tensor pred = pg::tensor({10000.5f, 9999.5f, 10000.25f}, {3, 1}), target = pg::full({3, 1}, 10000.f);
        double loss = exercise::mse_loss(pred, target).item();
        if (std::fabs(loss - 0.1875) <= 1e-6) return;
        // a formula right on the small probe and wrong here is exact on paper only
        lesson::expect_near("mse_loss", loss, 0.1875, 1e-6,
                            check08::diagnose_mse("exact on paper, wrong in float: the expanded square pred^2 - 2 pred "
                                                  "target + target^2 subtracts numbers near 10^8, where float's "
                                                  "spacing is 8; square the difference pred - target itself"));
    });
    checks.run("sgd_step: w = [1, 2], grad [0.5, -1], lr 0.1 -> [0.95, 2.1]", [] {
        pg::Tensor w = pg::tensor({1.f, 2.f}).requires_grad_();
        pg::sum(w * pg::tensor({0.5f, -1.f})).backward();  // w.grad = [0.5, -1]
        std::vector<pg::Tensor> params{w};
        check08::step(params, 0.1f);
        lesson::expect_near("w", w.detach(), pg::tensor({0.95f, 2.1f}), 1e-6,
                            check08::diagnose_step(w, {1.f, 2.f}, {0.5f, -1.f}, 0.1f, params, 0, false));
        lesson::expect("w.is_leaf()", w.is_leaf() && w.requires_grad(), "still a leaf that requires grad",
                       "a result of an op", "update the values in place, outside the graph");
        lesson::expect("w.has_grad()", !w.has_grad(), "false: the gradient cleared", "true",
                       "the gradient was not cleared: call p.zero_grad() after the update, or the next backward adds "
                       "to this gradient");
    });
    checks.run("sgd_step skips a parameter without a gradient", [] {
        pg::Tensor w = pg::tensor({1.f, 2.f}).requires_grad_(), unused = pg::tensor({3.f}).requires_grad_();
        pg::sum(w * 2.f).backward();
        std::vector<pg::Tensor> params{w, unused};
        check08::step(params, 0.5f);
        lesson::expect_near("w", w.detach(), pg::tensor({0.f, 1.f}), 1e-6,
                            check08::diagnose_step(w, {1.f, 2.f}, {2.f, 2.f}, 0.5f, params, 0, false));
        lesson::expect_near("unused", unused.detach(), pg::tensor({3.f}), 0, "skip p when !p.has_grad()");
    });
    checks.run("sgd_step goes on past a parameter without a gradient", [] {
        pg::Tensor unused = pg::tensor({3.f}).requires_grad_(), w = pg::tensor({1.f, 2.f}).requires_grad_();
        pg::sum(w * 2.f).backward();
        std::vector<pg::Tensor> params{unused, w};
        check08::step(params, 0.5f);
        lesson::expect_near("unused", unused.detach(), pg::tensor({3.f}), 0, "skip p when !p.has_grad()");
        lesson::expect_near("w, after the parameter without a gradient", w.detach(), pg::tensor({0.f, 1.f}), 1e-6,
                            check08::diagnose_step(w, {1.f, 2.f}, {2.f, 2.f}, 0.5f, params, 1, true));
    });
    checks.run("sgd_step matches pg::optim::SGD on a random Linear(3, 2)", [] {
        pg::Generator gen(8), gen2(8), data(9);
        pg::nn::Linear mine(3, 2, true, gen), theirs(3, 2, true, gen2);
        pg::Tensor x = pg::randn({4, 3}, data), target = pg::randn({4, 2}, data);
        pg::sum((mine.forward(x) - target) * (mine.forward(x) - target)).backward();
        pg::sum((theirs.forward(x) - target) * (theirs.forward(x) - target)).backward();
        std::vector<pg::Tensor> params = mine.parameters();
        check08::step(params, 0.05f);
        pg::optim::SGD sgd(theirs.parameters(), {0.05f});
        sgd.step();
        lesson::expect_near("weight", mine.weight.detach(), theirs.weight.detach(), 1e-6,
                            "p -= lr * p.grad, element by element");
        lesson::expect_near("bias", mine.bias.detach(), theirs.bias.detach(), 1e-6,
                            "the weight moved and the bias did not: update every parameter in the list, the last one "
                            "too (i < params.size())");
    });
    checks.run("your two functions fit y = 2x + 1 from w = b = 0 in 60 steps", [] {
        pg::Tensor x = pg::tensor({-1.f, -0.5f, 0.f, 0.5f, 1.f}, {5, 1}), y = x * 2.f + 1.f;
        pg::Tensor w = pg::zeros({1, 1}, true), b = pg::zeros({1}, true);
        std::vector<pg::Tensor> params{w, b};
        for (int step = 0; step < 60; ++step) {
            pg::Tensor loss = exercise::mse_loss(pg::linear(x, w, b), y);
            lesson::expect("loss.requires_grad()", loss.requires_grad(), "true: a graph back to w and b",
                           "false: no graph back to w and b",
                           "build the loss from pg ops on pred itself (-, *, pg::mean), so backward reaches w and b");
            loss.backward();
            check08::step(params, 0.25f);
        }
        std::string hint = "each step: loss, backward, sgd_step (which clears the gradients)";
        lesson::expect_near("w", w.item(), 2.0, 1e-3, hint);
        lesson::expect_near("b", b.item(), 1.0, 1e-3, hint);
    });
    return checks.finish();
}
