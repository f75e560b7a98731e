// Lesson 10 reference solution: each position's softmax over its own and earlier scores, then the
// weighted average of those positions' value rows, with loops over the raw numbers.
#include <algorithm>
#include <cmath>
#include "check.hpp"

pg::Tensor exercise::attend_past(const pg::Tensor& scores, const pg::Tensor& v) {
    size_t T = scores.size(0), C = v.size(1);
    const float* s = scores.ptr();
    const float* pv = v.ptr();
    std::vector<float> out(T * C, 0.f);
    for (size_t t = 0; t < T; ++t) {
        const float* row = s + t * T;
        // weights over positions 0..t: the row's max subtracted, so exp never overflows
        float m = *std::max_element(row, row + t + 1), total = 0.f;
        std::vector<float> w(t + 1);
        for (size_t j = 0; j <= t; ++j) total += (w[j] = std::exp(row[j] - m));
        // the weighted average of v_0 .. v_t
        for (size_t j = 0; j <= t; ++j)
            for (size_t c = 0; c < C; ++c) out[t * C + c] += w[j] / total * pv[j * C + c];
    }
    return pg::tensor(out, {T, C});
}
