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
// mistake 14: the scores divided by d_k instead of its square root => divide by its square root
// mistake 15: a constant answer, seed 000's output returned whatever the input => your output is exactly the one your function returned for an earlier, different input
// Lesson 01's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// The function is solution.cpp's, but for the lines marked.
#include <algorithm>
#include <limits>
#include "check.hpp"
using lesson::mistake;

Matrix exercise::attention_loops(const Matrix& q, const Matrix& k, const Matrix& v) {
    size_t n_queries = q.size(), n_keys = k.size(), d_k = q[0].size(), d_v = v[0].size();
    float scale = 1.f / std::sqrt(static_cast<float>(d_k));
    if (mistake(1)) scale = 1.f;
    if (mistake(2)) scale = 1.f / std::sqrt(2.f);
    if (mistake(3)) scale = std::sqrt(static_cast<float>(d_k));
    if (mistake(4)) scale = 1.f / std::sqrt(static_cast<float>(n_keys));
    if (mistake(14)) scale = 1.f / static_cast<float>(d_k);
    if (mistake(15)) return {{1.3395f, 1.3210f}, {0.6605f, 2.6790f}};
    Matrix out(mistake(12) ? n_keys : n_queries, std::vector<float>(d_v, 0.f));
    // every score first, so that mistakes 5 and 7 can look across the rows: (Tq, Tk)
    Matrix w(n_queries, std::vector<float>(n_keys, 0.f));
    for (size_t i = 0; i < n_queries; ++i)
        for (size_t j = 0; j < n_keys; ++j)
            for (size_t c = 0; c < d_k; ++c) {
                if (mistake(9)) w[i][j] = q[i][c] * k[j][c] * scale;
                else w[i][j] += q[i][c] * k[j][c] * scale;
            }
    if (mistake(5)) {  // softmax down each column, over the queries
        for (size_t j = 0; j < n_keys; ++j) {
            float m = w[0][j], total = 0.f;
            for (size_t i = 0; i < n_queries; ++i) m = std::max(m, w[i][j]);
            for (size_t i = 0; i < n_queries; ++i) {
                w[i][j] = std::exp(w[i][j] - m);
                total += w[i][j];
            }
            for (size_t i = 0; i < n_queries; ++i) w[i][j] /= total;
        }
    } else {
        float all_max = -std::numeric_limits<float>::infinity();  // mistake 7's one maximum
        for (const auto& row : w) all_max = std::max(all_max, *std::max_element(row.begin(), row.end()));
        float total_all = 0.f;  // mistake 13's slip: declared once, before the loop over the rows
        for (size_t i = 0; i < n_queries; ++i) {
            // softmax over the keys, after subtracting the largest score
            float m = *std::max_element(w[i].begin(), w[i].end());
            if (mistake(6)) m = 0.f;
            if (mistake(7)) m = all_max;
            if (mistake(8)) {
                m = 0.f;
                for (float x : w[i]) m = std::max(m, x);
            }
            float row_total = 0.f;
            float& total = mistake(13) ? total_all : row_total;
            for (float& x : w[i]) {
                x = std::exp(x - m);
                total += x;
            }
            for (float& x : w[i]) x /= total;
        }
    }
    // weighted sum of the value rows: (d_v)
    for (size_t i = 0; i < n_queries; ++i)
        for (size_t j = 0; j < n_keys; ++j)
            for (size_t d = 0; d < d_v; ++d) {
                if (mistake(10)) out[i][d] = w[i][j] * v[j][d];
                else if (mistake(11)) out[i][d] += w[i][j] * (d < d_k ? k[j][d] : 0.f);
                else out[i][d] += w[i][j] * v[j][d];
            }
    return out;
}
