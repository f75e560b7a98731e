// mistake 1: the naive formula, exp(x) / sum(exp(x)) with no maximum subtracted => subtract the row's maximum first
// mistake 2: one maximum for the whole tensor instead of one per row => you subtracted one maximum of the whole tensor
// mistake 3: the row's maximum found starting from 0 => your maximum starts at 0
// mistake 4: the maximum searched in row .. row + C - 1, missing the last number => your maximum missed the row's last number
// mistake 5: exp(x - log(sum of exp)), exact on paper => the sum of exps overflows to inf first
// mistake 6: every row divided by one sum over the whole tensor => the whole tensor sums to 1, not each row
// mistake 7: the rows read down the first axis (stride rows instead of 1) => softmax over the wrong axis
// mistake 8: written for a vector or a matrix only, rows = x.size(0) for a matrix => the number of rows is x.numel() / C
// mistake 9: C taken from the first axis, x.size(0) => C = x.size(-1), the last axis
// mistake 10: the library's pg::softmax called => you called pg::softmax
// mistake 11: the result returned flat, pg::tensor(y, {x.numel()}) => softmax keeps the shape
// mistake 12: the sum declared once, before the loop over the rows => the sum is never set back to 0
// Lesson 02's plausible wrong answers, each built as lesson_02_mistake_N (-DMISTAKE=N); every one must
// fail the checks with the hint above. The function is solution.cpp's, but for the lines marked.
#include <algorithm>
#include <cmath>
#include "check.hpp"

pg::Tensor exercise::stable_softmax(const pg::Tensor& x) {
#if MISTAKE == 10
    return pg::softmax(x, -1);
#endif
#if MISTAKE == 9
    size_t C = x.size(0), rows = x.numel() / C;
#elif MISTAKE == 8
    size_t C = x.size(-1), rows = x.dim() == 1 ? 1 : x.size(0);
#else
    size_t C = x.size(-1), rows = x.numel() / C;
#endif
    const float* in = x.ptr();
    std::vector<float> y(x.numel());
#if MISTAKE == 2 || MISTAKE == 6
    const float all_max = *std::max_element(in, in + x.numel());
#endif
#if MISTAKE == 6
    float all_total = 0.f;
    for (size_t i = 0; i < x.numel(); ++i) all_total += std::exp(in[i] - all_max);
#endif
#if MISTAKE == 7
    // "row" r taken as column r of the last two axes' (rows, C) matrix: x[0][r], x[1][r], ..., stride C
    const size_t lines = C, len = rows;
#else
    const size_t lines = rows, len = C;
#endif
#if MISTAKE == 12
    float total_all = 0.f;  // the slip: declared once, before the loop over the rows
#endif
    for (size_t r = 0; r < lines; ++r) {
#if MISTAKE == 7
        const size_t start = r, step = C;
#else
        const size_t start = r * C, step = 1;
#endif
        auto at = [&](size_t j) { return in[start + j * step]; };
#if MISTAKE == 1 || MISTAKE == 5
        float m = 0.f;
#elif MISTAKE == 2 || MISTAKE == 6
        float m = all_max;
#elif MISTAKE == 3
        float m = 0.f;
        for (size_t j = 0; j < len; ++j) m = std::max(m, at(j));
#elif MISTAKE == 4
        float m = at(0);
        for (size_t j = 0; j < len - 1; ++j) m = std::max(m, at(j));
#else
        float m = at(0);
        for (size_t j = 1; j < len; ++j) m = std::max(m, at(j));  // exp(x_j - m) <= 1: no overflow
#endif
#if MISTAKE == 12
        float& total = total_all;
#else
        float total = 0.f;
#endif
        for (size_t j = 0; j < len; ++j) {
            y[start + j * step] = std::exp(at(j) - m);
            total += y[start + j * step];
        }
#if MISTAKE == 5
        for (size_t j = 0; j < len; ++j) y[start + j * step] = std::exp(at(j) - std::log(total));
#elif MISTAKE == 6
        for (size_t j = 0; j < len; ++j) y[start + j * step] /= all_total;
#else
        for (size_t j = 0; j < len; ++j) y[start + j * step] /= total;  // total >= 1: no 0/0
#endif
    }
#if MISTAKE == 11
    return pg::tensor(y, {x.numel()});
#else
    return pg::tensor(y, x.shape());
#endif
}
