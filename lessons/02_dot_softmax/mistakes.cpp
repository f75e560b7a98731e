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
// mistake 13: the row's sum misses its last exp, j < C - 1 => each row of C = x.size(-1) numbers is divided by its own sum
// mistake 14: the first call's weights kept in a static and returned ever after => for an earlier, different x
// mistake 15: the maximum started at std::numeric_limits<float>::max(), the largest float, not lowest() => your maximum starts above every number
// Lesson 02's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// The function is solution.cpp's, but for the lines marked.
#include <algorithm>
#include <cmath>
#include "check.hpp"
using lesson::mistake;

pg::Tensor exercise::stable_softmax(const pg::Tensor& x) {
    if (mistake(10)) return pg::softmax(x, -1);
    static std::vector<float> kept;  // mistake 14: the first call's weights
    if (mistake(14) && kept.size() == x.numel()) return pg::tensor(kept, x.shape());
    size_t C = mistake(9) ? x.size(0) : x.size(-1);
    size_t rows = mistake(8) ? (x.dim() == 1 ? 1 : x.size(0)) : x.numel() / C;
    const float* in = x.ptr();
    std::vector<float> y(x.numel());
    // mistakes 2 and 6: one maximum (and for 6 one sum) over the whole tensor
    float all_max = 0.f, all_total = 0.f;
    if (mistake(2) || mistake(6)) all_max = *std::max_element(in, in + x.numel());
    if (mistake(6))
        for (size_t i = 0; i < x.numel(); ++i) all_total += std::exp(in[i] - all_max);
    // mistake 7: "row" r taken as column r of the last two axes' (rows, C) matrix: x[0][r], x[1][r], ..., stride C
    const size_t lines = mistake(7) ? C : rows, len = mistake(7) ? rows : C;
    float total_all = 0.f;  // mistake 12's slip: declared once, before the loop over the rows
    for (size_t r = 0; r < lines; ++r) {
        const size_t start = mistake(7) ? r : r * C, step = mistake(7) ? C : 1;
        auto at = [&](size_t j) { return in[start + j * step]; };
        float m = mistake(3) ? 0.f : mistake(15) ? std::numeric_limits<float>::max() : at(0);
        const size_t end = mistake(4) ? len - 1 : len;  // mistake 4 misses the row's last number
        for (size_t j = 0; j < end; ++j) m = std::max(m, at(j));  // exp(x_j - m) <= 1: no overflow
        if (mistake(1) || mistake(5)) m = 0.f;
        if (mistake(2) || mistake(6)) m = all_max;
        float row_total = 0.f;
        float& total = mistake(12) ? total_all : row_total;
        for (size_t j = 0; j < len; ++j) {
            y[start + j * step] = std::exp(at(j) - m);
            if (!(mistake(13) && j + 1 == len)) total += y[start + j * step];  // mistake 13 skips the last exp
        }
        for (size_t j = 0; j < len; ++j) {
            if (mistake(5)) y[start + j * step] = std::exp(at(j) - std::log(total));
            else y[start + j * step] /= mistake(6) ? all_total : total;  // total >= 1: no 0/0
        }
    }
    if (mistake(11)) return pg::tensor(y, {x.numel()});
    if (mistake(14) && kept.empty()) kept = y;
    return pg::tensor(y, x.shape());
}
