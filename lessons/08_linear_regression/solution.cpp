// Lesson 08 reference solution: the mean squared error from pg ops, and the plain SGD update.
#include "check.hpp"

pg::Tensor exercise::mse_loss(const pg::Tensor& pred, const pg::Tensor& target) {
    pg::Tensor diff = pred - target;
    return pg::mean(diff * diff);
}

void exercise::sgd_step(std::vector<pg::Tensor>& params, float lr) {
    for (pg::Tensor& p : params) {
        if (!p.has_grad()) continue;
        float* value = p.mutable_data().data();  // p's own storage: the module sees the change
        const float* grad = p.grad_data().data();
        for (size_t i = 0; i < p.numel(); ++i) value[i] -= lr * grad[i];
        p.zero_grad();
    }
}
