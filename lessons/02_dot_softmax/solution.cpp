// Lesson 02 reference solution: softmax along the last dim, the row's maximum subtracted first.
#include <algorithm>
#include <cmath>
#include "check.hpp"

pg::Tensor exercise::stable_softmax(const pg::Tensor& x) {
    size_t C = x.size(-1), rows = x.numel() / C;
    const float* in = x.ptr();
    std::vector<float> y(x.numel());
    for (size_t r = 0; r < rows; ++r) {
        const float* row = in + r * C;
        float m = *std::max_element(row, row + C);  // exp(row[j] - m) <= 1: no overflow
        float total = 0.f;
        for (size_t j = 0; j < C; ++j) {
            y[r * C + j] = std::exp(row[j] - m);
            total += y[r * C + j];
        }
        for (size_t j = 0; j < C; ++j) y[r * C + j] /= total;  // total >= 1: no 0/0
    }
    return pg::tensor(y, x.shape());
}
