// Lesson 16 reference solution: GELU's tanh approximation with a loop, and the MLP from its parts.
#include <cmath>
#include "check.hpp"

pg::Tensor exercise::gelu(const pg::Tensor& x) {
    const float k = std::sqrt(2.f / 3.14159265358979f);  // sqrt(2/pi) = 0.7979
    std::vector<float> y(x.numel());
    for (size_t i = 0; i < y.size(); ++i) {
        float v = x.ptr()[i];
        y[i] = 0.5f * v * (1.f + std::tanh(k * (v + 0.044715f * v * v * v)));
    }
    return pg::tensor(y, x.shape());
}

pg::Tensor exercise::feed_forward(const pg::nn::MLP& mlp, const pg::Tensor& x) {
    pg::Tensor h = pg::linear(x, mlp.fc.weight, mlp.fc.bias);  // (B,T,C) -> (B,T,4C)
    return pg::linear(exercise::gelu(h), mlp.out.weight, mlp.out.bias);  // (B,T,4C) -> (B,T,C)
}
