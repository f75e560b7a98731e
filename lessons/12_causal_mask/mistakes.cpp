// mistake 1: masked with 0 instead of -infinity => masked with 0, which hides nothing
// mistake 2: the diagonal hidden too (j >= i) => a query sees itself
// mistake 3: the mask one off, hiding only j > i + 1 => the mask is one off
// mistake 4: the earlier keys hidden (j < i) instead of the later => you hid the earlier keys
// mistake 5: no scale => the scores are not scaled
// mistake 6: scaled by sqrt(T) => not T
// mistake 7: scaled by 1/sqrt(2), the seed's width => scaled by 1/sqrt(2)
// mistake 8: softmax along dim -2 => softmax along the last dim (-1)
// mistake 9: the mask after softmax, later weights set to 0 => the mask came after softmax
// mistake 10: k transposed with (0, 1) => transpose the last two dims of k
// mistake 11: T taken as q.size(0) => T = q.size(-2)
// mistake 12: softmax by hand, exp(s) / sum exp(s), no max => overflows (exp(1000) = inf)
// mistake 13: softmax by hand with one max over all the scores => not one max over all the scores
// mistake 14: scaled by 1/HS => divide by sqrt(HS), not HS
// mistake 15: the first call's output kept in a static and returned ever after => for an earlier, different input
// mistake 16: scaled by 1/sqrt(HV), v's width v.size(-1), not q's => not v.size(-1)
// Lesson 12's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// They are plausible wrong causal attentions.
#include "check.hpp"
using lesson::mistake;

pg::Tensor exercise::causal_attention(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v) {
    static pg::Tensor kept;  // mistake 15: the first call's output
    static bool have = false;
    if (mistake(15) && have) return kept;
    size_t T = mistake(11) ? q.size(0) : q.size(-2);
    pg::Tensor scores = pg::matmul(q, mistake(10) ? pg::transpose(k, 0, 1) : pg::transpose(k, -2, -1));
    float scale = 1.f / std::sqrt(static_cast<float>(q.size(-1)));  // HS = q.size(-1)
    if (mistake(6)) scale = 1.f / std::sqrt(static_cast<float>(T));
    if (mistake(7)) scale = 1.f / std::sqrt(2.f);
    if (mistake(14)) scale = 1.f / static_cast<float>(q.size(-1));
    if (mistake(16)) scale = 1.f / std::sqrt(static_cast<float>(v.size(-1)));
    if (!mistake(5)) scores = scores * scale;
    std::vector<float> later(T * T, 0.f);
    for (size_t i = 0; i < T; ++i)
        for (size_t j = 0; j < T; ++j) {
            if (mistake(2)) later[i * T + j] = j >= i;
            else if (mistake(3)) later[i * T + j] = j > i + 1;
            else if (mistake(4)) later[i * T + j] = j < i;
            else later[i * T + j] = j > i;
        }
    pg::Tensor mask = pg::tensor(later, {T, T});
    if (mistake(9)) return pg::matmul(pg::masked_fill(pg::softmax(scores, -1), mask, 0.f), v);
    const float inf = std::numeric_limits<float>::infinity();
    scores = pg::masked_fill(scores, mask, mistake(1) ? 0.f : -inf);
    if (mistake(8)) return pg::matmul(pg::softmax(scores, -2), v);
    if (mistake(12) || mistake(13)) {  // softmax by hand; 12: no max, 13: one max over all the scores
        pg::Tensor e = pg::exp(mistake(13) ? scores - pg::max(scores) : scores);
        return pg::matmul(e / pg::sum(e, -1, true), v);
    }
    pg::Tensor out = pg::matmul(pg::softmax(scores, -1), v);
    if (mistake(15)) have = true, kept = out;
    return out;
}
