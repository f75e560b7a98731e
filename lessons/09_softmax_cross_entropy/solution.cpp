// Lesson 09 reference solution: cross-entropy and its gradient p - y, with a stable log-softmax.
#include <cmath>
#include "check.hpp"

exercise::LossAndGrad exercise::cross_entropy(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index) {
    size_t N = logits.size(0), C = logits.size(1);
    const float* z = logits.ptr();    // z[r * C + c]
    const float* t = targets.ptr();   // t[r], a whole number (or ignore_index)
    std::vector<float> grad(N * C, 0.f);
    double loss = 0;
    size_t counted = 0;
    for (size_t r = 0; r < N; ++r) {
        if (static_cast<long>(t[r]) == ignore_index) continue;
        const float* row = z + r * C;
        double m = row[0];
        for (size_t c = 1; c < C; ++c) m = std::max(m, static_cast<double>(row[c]));
        double sum = 0;
        for (size_t c = 0; c < C; ++c) sum += std::exp(row[c] - m);
        double logsumexp = m + std::log(sum);
        size_t target = static_cast<size_t>(t[r]);
        loss += logsumexp - row[target];
        for (size_t c = 0; c < C; ++c) grad[r * C + c] = static_cast<float>(std::exp(row[c] - logsumexp));  // p
        grad[r * C + target] -= 1.f;                                                                         // p - y
        ++counted;
    }
    for (float& g : grad) g /= static_cast<float>(counted);
    return {loss / static_cast<double>(counted), pg::tensor(grad, {N, C})};
}
