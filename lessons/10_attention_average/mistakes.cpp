// mistake 1: the softmax over the whole row, later positions too => your rows average in later positions too
// mistake 2: the numerator over 0..t, the sum over the whole row => your weights in row t sum to less than 1
// mistake 3: j < t, so a position leaves itself out => position t attends to itself too
// mistake 4: the max taken over the whole row, later scores included => the max you subtract must be taken over scores[t][0..t] only
// mistake 5: one max over the whole matrix, not each row's => subtract each row's own max
// mistake 6: no max subtracted => exp(1000) overflows float
// mistake 7: the weights from pg::softmax of each row's slice => you called pg::softmax
// mistake 8: v[j][c] read at c * T + j, as if v were (C, T) => not c * T + j
// Lesson 10's planted mistakes: plausible wrong attention averages. Each builds with -DMISTAKE=N and
// must fail the checks with its hint above.
#include <algorithm>
#include <cmath>
#include "check.hpp"

pg::Tensor exercise::attend_past(const pg::Tensor& scores, const pg::Tensor& v) {
#if MISTAKE == 7
    std::vector<pg::Tensor> rows;  // each row's weights from the library's softmax, then the average
    for (long t = 0; t < static_cast<long>(scores.size(0)); ++t) {
        pg::Tensor w = pg::softmax(pg::slice(pg::slice(scores, 0, t, t + 1), 1, 0, t + 1), -1);
        rows.push_back(pg::matmul(w, pg::slice(v, 0, 0, t + 1)));
    }
    return pg::concat(rows, 0);
#endif
    size_t T = scores.size(0), C = v.size(1);
    const float* s = scores.ptr();
    const float* pv = v.ptr();
    std::vector<float> out(T * C, 0.f);
#if MISTAKE == 5
    const float global_max = *std::max_element(s, s + T * T);
#endif
    for (size_t t = 0; t < T; ++t) {
        const float* row = s + t * T;
#if MISTAKE == 1
        const size_t n = T;  // positions in the average
#elif MISTAKE == 3
        const size_t n = t;
#else
        const size_t n = t + 1;
#endif
#if MISTAKE == 4 || MISTAKE == 2
        float m = *std::max_element(row, row + T);
#elif MISTAKE == 5
        float m = global_max;
#elif MISTAKE == 6
        float m = 0.f;
#else
        float m = n ? *std::max_element(row, row + n) : 0.f;
#endif
        float total = 0.f;
        std::vector<float> w(T);
#if MISTAKE == 2
        for (size_t j = 0; j < T; ++j) total += std::exp(row[j] - m);
        for (size_t j = 0; j < n; ++j) w[j] = std::exp(row[j] - m);
#else
        for (size_t j = 0; j < n; ++j) total += (w[j] = std::exp(row[j] - m));
#endif
        for (size_t j = 0; j < n; ++j)
            for (size_t c = 0; c < C; ++c) {
#if MISTAKE == 8
                out[t * C + c] += w[j] / total * pv[c * T + j];
#else
                out[t * C + c] += w[j] / total * pv[j * C + c];
#endif
            }
    }
    return pg::tensor(out, {T, C});
}
