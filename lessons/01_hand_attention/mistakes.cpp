// mistake 1: the scale forgotten, softmax(q k^T) v => attention without the scale
// mistake 2: the scale written as 1/sqrt(2), seed 000's d_k => not always 2
// mistake 3: the scores multiplied by sqrt(d_k) instead of divided => you multiplied the scores by sqrt(d_k)
// mistake 4: d_k taken as the number of keys, k.size() => not k.size()
// mistake 5: softmax down each column (over the queries) => softmax over the wrong axis
// mistake 6: exp of the raw scores, no maximum subtracted => Subtract the row's max before exp
// mistake 7: one maximum over the whole score matrix, not one per row => one maximum over all the scores
// mistake 8: the row's maximum found starting from 0 => your maximum starts at 0
// mistake 9: the dot product written with = instead of += => keep only the last product
// mistake 10: the weighted sum written with = instead of += => only the last key's share
// mistake 11: the key rows averaged instead of the value rows => you averaged the key rows
// mistake 12: one output row per key instead of per query => one row per query
// mistake 13: the softmax's total declared once, before the loop over the rows => the softmax's total is never set back to 0
// Lesson 01's plausible wrong answers, each built as lesson_01_mistake_N (-DMISTAKE=N); every one must
// fail the checks with the hint above. The function is solution.cpp's, but for the lines marked.
#include <algorithm>
#include <limits>
#include "check.hpp"

Matrix exercise::attention_loops(const Matrix& q, const Matrix& k, const Matrix& v) {
    size_t n_queries = q.size(), n_keys = k.size(), d_k = q[0].size(), d_v = v[0].size();
#if MISTAKE == 1
    float scale = 1.f;
#elif MISTAKE == 2
    float scale = 1.f / std::sqrt(2.f);
#elif MISTAKE == 3
    float scale = std::sqrt(static_cast<float>(d_k));
#elif MISTAKE == 4
    float scale = 1.f / std::sqrt(static_cast<float>(n_keys));
#else
    float scale = 1.f / std::sqrt(static_cast<float>(d_k));
#endif
#if MISTAKE == 12
    Matrix out(n_keys, std::vector<float>(d_v, 0.f));
#else
    Matrix out(n_queries, std::vector<float>(d_v, 0.f));
#endif
    // every score first, so that mistakes 5 and 7 can look across the rows: (Tq, Tk)
    Matrix w(n_queries, std::vector<float>(n_keys, 0.f));
    for (size_t i = 0; i < n_queries; ++i)
        for (size_t j = 0; j < n_keys; ++j)
            for (size_t c = 0; c < d_k; ++c)
#if MISTAKE == 9
                w[i][j] = q[i][c] * k[j][c] * scale;
#else
                w[i][j] += q[i][c] * k[j][c] * scale;
#endif
#if MISTAKE == 5
    for (size_t j = 0; j < n_keys; ++j) {
        float m = w[0][j], total = 0.f;
        for (size_t i = 0; i < n_queries; ++i) m = std::max(m, w[i][j]);
        for (size_t i = 0; i < n_queries; ++i) {
            w[i][j] = std::exp(w[i][j] - m);
            total += w[i][j];
        }
        for (size_t i = 0; i < n_queries; ++i) w[i][j] /= total;
    }
#else
#if MISTAKE == 7
    float all_max = -std::numeric_limits<float>::infinity();
    for (const auto& row : w) all_max = std::max(all_max, *std::max_element(row.begin(), row.end()));
#endif
#if MISTAKE == 13
    float total_all = 0.f;  // the slip: declared once, before the loop over the rows
#endif
    for (size_t i = 0; i < n_queries; ++i) {
        // softmax over the keys, after subtracting the largest score
#if MISTAKE == 6
        float m = 0.f;
#elif MISTAKE == 7
        float m = all_max;
#elif MISTAKE == 8
        float m = 0.f;
        for (float x : w[i]) m = std::max(m, x);
#else
        float m = *std::max_element(w[i].begin(), w[i].end());
#endif
#if MISTAKE == 13
        float& total = total_all;
#else
        float total = 0.f;
#endif
        for (float& x : w[i]) {
            x = std::exp(x - m);
            total += x;
        }
        for (float& x : w[i]) x /= total;
    }
#endif
    // weighted sum of the value rows: (d_v)
    for (size_t i = 0; i < n_queries; ++i)
        for (size_t j = 0; j < n_keys; ++j)
            for (size_t d = 0; d < d_v; ++d)
#if MISTAKE == 10
                out[i][d] = w[i][j] * v[j][d];
#elif MISTAKE == 11
                out[i][d] += w[i][j] * (d < d_k ? k[j][d] : 0.f);
#else
                out[i][d] += w[i][j] * v[j][d];
#endif
    return out;
}
