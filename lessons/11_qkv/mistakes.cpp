// mistake 1: the order swapped, wq @ x => x on the left
// mistake 2: v from wk, a copy-paste slip => your v equals x @ wk
// mistake 3: k from wq => your k equals x @ wq
// mistake 4: the weights transposed, pg::linear(x, wq) as for a Linear layer => is used as it is
// mistake 5: x flattened to 2-D (x.size(0), C) first => no reshape to 2-D
// mistake 6: the fused result split along the first dim => split along the last dim
// mistake 7: the fused bias forgotten => keep the bias
// mistake 8: each part cut C wide (x's width) instead of D => each part is D = weight.size(0) / 3
// mistake 9: pg::matmul(x, weight), weight not transposed => pg::matmul(x, weight) does not fit
// mistake 10: the first call's q, k, v kept in a static and returned ever after => for an earlier, different input
// mistake 11: fused_qkv's first answer kept in a static => for an earlier, different input
// Lesson 11's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// They are plausible wrong projections.
#include "check.hpp"
using lesson::mistake;

QKV exercise::solve(const pg::Tensor& x, const pg::Tensor& wq, const pg::Tensor& wk, const pg::Tensor& wv) {
    static QKV kept;  // mistake 10: the first call's answer
    static bool have = false;
    if (mistake(10) && have) return kept;
    if (mistake(10)) return have = true, kept = QKV{pg::matmul(x, wq), pg::matmul(x, wk), pg::matmul(x, wv)};
    if (mistake(1)) return QKV{pg::matmul(wq, x), pg::matmul(wk, x), pg::matmul(wv, x)};
    if (mistake(4))
        return QKV{pg::linear(x, wq, pg::Tensor()), pg::linear(x, wk, pg::Tensor()), pg::linear(x, wv, pg::Tensor())};
    pg::Tensor rows = mistake(5) ? pg::reshape(x, {x.size(0), x.size(-1)}) : x;
    // mistake 3: k from wq; mistake 2: v from wk
    return QKV{pg::matmul(rows, wq), pg::matmul(rows, mistake(3) ? wq : wk), pg::matmul(rows, mistake(2) ? wk : wv)};
}

QKV exercise::fused_qkv(const pg::Tensor& x, const pg::Tensor& weight, const pg::Tensor& bias) {
    static QKV kept;  // mistake 11: the first call's answer
    static bool have = false;
    if (mistake(11) && have) return kept;
    pg::Tensor all;
    if (mistake(7)) all = pg::linear(x, weight, pg::Tensor());
    else if (mistake(9)) all = pg::matmul(x, weight) + bias;
    else all = pg::linear(x, weight, bias);
    if (mistake(8)) {
        const long C = static_cast<long>(x.size(-1));
        return QKV{pg::slice(all, -1, 0, C), pg::slice(all, -1, C, 2 * C), pg::slice(all, -1, 2 * C, 3 * C)};
    }
    std::vector<pg::Tensor> parts = pg::chunk(all, 3, mistake(6) ? 0 : -1);
    if (mistake(11)) have = true, kept = QKV{parts[0], parts[1], parts[2]};
    return QKV{parts[0], parts[1], parts[2]};
}
