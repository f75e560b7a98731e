// mistake 1: the unbiased variance, divided by C - 1 => you divided the variance by C - 1
// mistake 2: eps added after the square root, sqrt(var) + eps => you divided by sqrt(variance) + eps
// mistake 3: eps forgotten, so a constant row is 0 / 0 => eps is missing: you divided by sqrt(variance)
// mistake 4: a fixed 1e-5 instead of the eps argument => a fixed 1e-5 is used
// mistake 5: one mean and variance over the whole tensor, not per row => one mean and variance for the whole tensor
// mistake 6: the variance as E[x^2] - mean^2 in float, which cancels far from 0 => the variance computed as E[x^2] - mean^2 in float
// mistake 7: the library's pg::layer_norm called => you called pg::layer_norm
// mistake 8: weight and bias swapped, xhat * bias + weight => weight and bias swapped
// mistake 9: C taken as x.size(1), a dim that is the last only for a matrix => C = x.size(-1), the last dim, whatever the rank
// mistake 10: the first call's y kept in a static and returned ever after => for an earlier, different input
// Lesson 15's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
#include <cmath>
#include "check.hpp"
using lesson::mistake;

pg::Tensor exercise::layer_norm(const pg::Tensor& x, const pg::Tensor& weight, const pg::Tensor& bias, float eps) {
    static pg::Tensor kept;  // mistake 10: the first call's answer
    static bool have = false;
    if (mistake(10) && have) return kept;
    if (mistake(7)) return pg::layer_norm(x, weight, bias, eps);
    if (mistake(4)) eps = 1e-5f;
    size_t C = mistake(5) ? x.numel() : mistake(9) ? x.size(1) : x.size(-1);
    size_t rows = mistake(5) ? 1 : x.numel() / C;
    std::vector<float> y(x.numel());
    for (size_t r = 0; r < rows; ++r) {
        const float* row = x.ptr() + r * C;
        double mean = 0, var = 0;
        if (mistake(6)) {
            float s = 0, s2 = 0;
            for (size_t c = 0; c < C; ++c) {
                s += row[c];
                s2 += row[c] * row[c];
            }
            float m = s / static_cast<float>(C);
            mean = m;
            var = s2 / static_cast<float>(C) - m * m;
        } else {
            for (size_t c = 0; c < C; ++c) mean += row[c];
            mean /= static_cast<double>(C);
            for (size_t c = 0; c < C; ++c) var += (row[c] - mean) * (row[c] - mean);
            var /= static_cast<double>(mistake(1) ? C - 1 : C);
        }
        double rstd = 1.0 / std::sqrt(var + eps);
        if (mistake(2)) rstd = 1.0 / (std::sqrt(var) + eps);
        if (mistake(3)) rstd = 1.0 / std::sqrt(var);
        const pg::Tensor& scale = mistake(8) ? bias : weight;
        const pg::Tensor& shift = mistake(8) ? weight : bias;
        for (size_t c = 0; c < C; ++c) {
            size_t k = c % weight.numel();
            float h = static_cast<float>((row[c] - mean) * rstd);
            y[r * C + c] = h * scale.ptr()[k] + shift.ptr()[k];
        }
    }
    if (mistake(10)) have = true, kept = pg::tensor(y, x.shape());
    return pg::tensor(y, x.shape());
}
