// Lesson 01 reference solution: self-attention with plain loops, one step per loop nest.
#include <algorithm>
#include "check.hpp"

Matrix exercise::attention_loops(const Matrix& q, const Matrix& k, const Matrix& v) {
    size_t n_queries = q.size(), n_keys = k.size(), d_k = q[0].size(), d_v = v[0].size();
    float scale = 1.f / std::sqrt(static_cast<float>(d_k));
    Matrix out(n_queries, std::vector<float>(d_v, 0.f));
    for (size_t i = 0; i < n_queries; ++i) {
        // scores of query i against every key: (Tk)
        std::vector<float> w(n_keys, 0.f);
        for (size_t j = 0; j < n_keys; ++j)
            for (size_t c = 0; c < d_k; ++c) w[j] += q[i][c] * k[j][c] * scale;
        // softmax over the keys, after subtracting the largest score
        float m = *std::max_element(w.begin(), w.end()), total = 0.f;
        for (float& x : w) {
            x = std::exp(x - m);
            total += x;
        }
        for (float& x : w) x /= total;
        // weighted sum of the value rows: (d_v)
        for (size_t j = 0; j < n_keys; ++j)
            for (size_t d = 0; d < d_v; ++d) out[i][d] += w[j] * v[j][d];
    }
    return out;
}
