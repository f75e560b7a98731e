// The runner's test (test_runner.sh): lesson 02's exercise, throwing from the learner's own line
// (it takes every input for a matrix, so a vector's shape().at(1) is past the end).
#include "../../02_dot_softmax/check.hpp"
#include <cmath>

pg::Tensor exercise::stable_softmax(const pg::Tensor& x) {
    size_t C = x.shape().at(1);  // the throwing line for a rank-1 input
    std::vector<float> out(x.numel());
    for (size_t r = 0; r < x.numel() / C; ++r) {
        const float* row = x.ptr() + r * C;
        float m = row[0], sum = 0;
        for (size_t j = 0; j < C; ++j) m = std::max(m, row[j]);
        for (size_t j = 0; j < C; ++j) sum += out[r * C + j] = std::exp(row[j] - m);
        for (size_t j = 0; j < C; ++j) out[r * C + j] /= sum;
    }
    return pg::tensor(out, x.shape());
}
