// Lesson 08 exercise: the mean squared error and the SGD update. `./poet start 8` copies this file
// to exercise.cpp; write both functions there, then `./poet check 8`.
#include "check.hpp"

pg::Tensor exercise::mse_loss(const pg::Tensor& pred, const pg::Tensor& target) {
    // the difference, squared elementwise, averaged over every element (pg::mean)
    throw lesson::NotImplemented("exercise::mse_loss");
}

void exercise::sgd_step(std::vector<pg::Tensor>& params, float lr) {
    // for each p with p.has_grad(): p's values -= lr * p's gradient, in place
    // (p.mutable_data().data() and p.grad_data().data() are flat float arrays of p.numel()),
    // then p.zero_grad()
    throw lesson::NotImplemented("exercise::sgd_step");
}
