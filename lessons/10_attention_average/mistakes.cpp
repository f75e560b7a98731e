// mistake 1: the softmax over the whole row, later positions too => your rows average in later positions too
// mistake 2: the numerator over 0..t, the sum over the whole row => your weights in row t sum to less than 1
// mistake 3: j < t, so a position leaves itself out => position t attends to itself too
// mistake 4: the max taken over the whole row, later scores included => the max you subtract must be taken over scores[t][0..t] only
// mistake 5: one max over the whole matrix, not each row's => subtract each row's own max
// mistake 6: no max subtracted => exp(1000) overflows float
// mistake 7: the weights from pg::softmax of each row's slice => you called pg::softmax
// mistake 8: v[j][c] read at c * T + j, as if v were (C, T) => not c * T + j
// mistake 9: the first call's answer kept in a static and returned ever after => the one you returned for earlier inputs
// mistake 10: each row's first score subtracted before exp, scores[t][0], instead of its largest => not its first score
// mistake 11: the max taken over the scores before t, scores[t][0..t-1], leaving out position t's own => not its first score
// Lesson 10's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// They are plausible wrong attention averages.
#include <algorithm>
#include <cmath>
#include "check.hpp"
using lesson::mistake;

pg::Tensor exercise::attend_past(const pg::Tensor& scores, const pg::Tensor& v) {
    static std::vector<float> first;  // mistake 9: the first answer, remembered
    static pg::Shape first_shape;
    if (mistake(9) && !first.empty()) return pg::tensor(first, first_shape);
    if (mistake(7)) {
        std::vector<pg::Tensor> rows;  // each row's weights from the library's softmax, then the average
        for (long t = 0; t < static_cast<long>(scores.size(0)); ++t) {
            pg::Tensor w = pg::softmax(pg::slice(pg::slice(scores, 0, t, t + 1), 1, 0, t + 1), -1);
            rows.push_back(pg::matmul(w, pg::slice(v, 0, 0, t + 1)));
        }
        return pg::concat(rows, 0);
    }
    size_t T = scores.size(0), C = v.size(1);
    const float* s = scores.ptr();
    const float* pv = v.ptr();
    std::vector<float> out(T * C, 0.f);
    for (size_t t = 0; t < T; ++t) {
        const float* row = s + t * T;
        const size_t n = mistake(1) ? T : mistake(3) ? t : t + 1;  // positions in the average
        float m = n ? *std::max_element(row, row + n) : 0.f;
        if (mistake(4) || mistake(2)) m = *std::max_element(row, row + T);  // later scores too
        else if (mistake(5)) m = *std::max_element(s, s + T * T);           // one max for the matrix
        else if (mistake(6)) m = 0.f;
        else if (mistake(10)) m = row[0];                                           // the first score
        else if (mistake(11)) m = *std::max_element(row, row + std::max<size_t>(t, 1));  // j < t
        const size_t summed = mistake(2) ? T : n;  // mistake 2: the sum over the whole row
        float total = 0.f;
        std::vector<float> w(T);
        for (size_t j = 0; j < summed; ++j) total += (w[j] = std::exp(row[j] - m));
        for (size_t j = 0; j < n; ++j)
            for (size_t c = 0; c < C; ++c)
                out[t * C + c] += w[j] / total * (mistake(8) ? pv[c * T + j] : pv[j * C + c]);
    }
    if (mistake(9)) first = out, first_shape = {T, C};
    return pg::tensor(out, {T, C});
}
