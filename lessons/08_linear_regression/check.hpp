// Lesson 08's checks for mse_loss and sgd_step, shared by starter.cpp, solution.cpp and your
// exercise.cpp: exact values first, then pg::optim::SGD's step, then a whole line fit.
#pragma once
#include "lesson.hpp"

namespace exercise {
// mean((pred - target)^2) built from pg ops, so that backward works: pred, target (N, 1) -> ()
pg::Tensor mse_loss(const pg::Tensor& pred, const pg::Tensor& target);
// For every parameter that has a gradient: p -= lr * p.grad, in place in p's own values; then
// clear the gradient so that the next backward starts from zero. Parameters without one are skipped.
void sgd_step(std::vector<pg::Tensor>& params, float lr);
}  // namespace exercise

int main() {
    lesson::Checks checks("08", "linear_regression");
    checks.run("mse_loss of [1, 2, 3] against [1, 1, 1] is 5/3", [] {
        pg::Tensor pred = pg::tensor({1.f, 2.f, 3.f}, {3, 1}), target = pg::ones({3, 1});
        pg::Tensor loss = exercise::mse_loss(pred, target);
        lesson::expect_shape("mse_loss's shape", loss.shape(), {}, "one number: pg::mean of everything gives shape ()");
        lesson::expect_near("mse_loss", loss.item(), 5.0 / 3.0, 1e-6,
                            "square the differences (0, 1, 4), then average them over N = 3; no square root");
    });
    checks.run("mse_loss's gradient is 2 (pred - target) / N", [] {
        pg::Tensor pred = pg::tensor({1.f, 2.f, 3.f}, {3, 1}).requires_grad_(), target = pg::ones({3, 1});
        exercise::mse_loss(pred, target).backward();
        lesson::expect_near("pred.grad", pred.grad(), pg::tensor({0.f, 2.f / 3.f, 4.f / 3.f}, {3, 1}), 1e-6,
                            "build the loss from pg ops (-, *, pg::mean) on pred itself, so backward reaches it");
    });
    checks.run("sgd_step: w = [1, 2], grad [0.5, -1], lr 0.1 -> [0.95, 2.1]", [] {
        pg::Tensor w = pg::tensor({1.f, 2.f}).requires_grad_();
        pg::sum(w * pg::tensor({0.5f, -1.f})).backward();  // w.grad = [0.5, -1]
        std::vector<pg::Tensor> params{w};
        exercise::sgd_step(params, 0.1f);
        lesson::expect_near("w", w.detach(), pg::tensor({0.95f, 2.1f}), 1e-6,
                            "p -= lr * grad: subtract, the gradient points uphill; change the values of the tensor "
                            "itself (p.mutable_data()), not a new tensor in the vector");
        lesson::expect("w.is_leaf()", w.is_leaf() && w.requires_grad(), "still a leaf that requires grad",
                       "a result of an op", "update the values in place, outside the graph");
        lesson::expect("w.has_grad()", !w.has_grad(), "false: the gradient cleared", "true",
                       "call p.zero_grad() after the update, or the next backward adds to this gradient");
    });
    checks.run("sgd_step skips a parameter without a gradient", [] {
        pg::Tensor w = pg::tensor({1.f, 2.f}).requires_grad_(), unused = pg::tensor({3.f}).requires_grad_();
        pg::sum(w * 2.f).backward();
        std::vector<pg::Tensor> params{w, unused};
        exercise::sgd_step(params, 0.5f);
        lesson::expect_near("w", w.detach(), pg::tensor({0.f, 1.f}), 1e-6, "p -= lr * grad with grad = [2, 2]");
        lesson::expect_near("unused", unused.detach(), pg::tensor({3.f}), 0, "skip p when !p.has_grad()");
    });
    checks.run("sgd_step matches pg::optim::SGD on a random Linear(3, 2)", [] {
        pg::Generator gen(8), gen2(8), data(9);
        pg::nn::Linear mine(3, 2, true, gen), theirs(3, 2, true, gen2);
        pg::Tensor x = pg::randn({4, 3}, data), target = pg::randn({4, 2}, data);
        pg::sum((mine.forward(x) - target) * (mine.forward(x) - target)).backward();
        pg::sum((theirs.forward(x) - target) * (theirs.forward(x) - target)).backward();
        std::vector<pg::Tensor> params = mine.parameters();
        exercise::sgd_step(params, 0.05f);
        pg::optim::SGD sgd(theirs.parameters(), {0.05f});
        sgd.step();
        lesson::expect_near("weight", mine.weight.detach(), theirs.weight.detach(), 1e-6,
                            "p -= lr * p.grad, element by element");
        lesson::expect_near("bias", mine.bias.detach(), theirs.bias.detach(), 1e-6,
                            "update every parameter in the list");
    });
    checks.run("your two functions fit y = 2x + 1 from w = b = 0 in 60 steps", [] {
        pg::Tensor x = pg::tensor({-1.f, -0.5f, 0.f, 0.5f, 1.f}, {5, 1}), y = x * 2.f + 1.f;
        pg::Tensor w = pg::zeros({1, 1}, true), b = pg::zeros({1}, true);
        std::vector<pg::Tensor> params{w, b};
        for (int step = 0; step < 60; ++step) {
            exercise::mse_loss(pg::linear(x, w, b), y).backward();
            exercise::sgd_step(params, 0.25f);
        }
        std::string hint = "each step: loss, backward, sgd_step (which clears the gradients)";
        lesson::expect_near("w", w.item(), 2.0, 1e-3, hint);
        lesson::expect_near("b", b.item(), 1.0, 1e-3, hint);
    });
    return checks.finish();
}
