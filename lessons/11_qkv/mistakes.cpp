// mistake 1: the order swapped, wq @ x => x on the left
// mistake 2: v from wk, a copy-paste slip => your v equals x @ wk
// mistake 3: k from wq => your k equals x @ wq
// mistake 4: the weights transposed, pg::linear(x, wq) as for a Linear layer => is used as it is
// mistake 5: x flattened to 2-D (x.size(0), C) first => no reshape to 2-D
// mistake 6: the fused result split along the first dim => split along the last dim
// mistake 7: the fused bias forgotten => keep the bias
// mistake 8: each part cut C wide (x's width) instead of D => each part is D = weight.size(0) / 3
// mistake 9: pg::matmul(x, weight), weight not transposed => pg::matmul(x, weight) does not fit
// Lesson 11's planted mistakes: plausible wrong projections. Each builds with -DMISTAKE=N and must fail
// the checks with its hint above.
#include "check.hpp"

QKV exercise::solve(const pg::Tensor& x, const pg::Tensor& wq, const pg::Tensor& wk, const pg::Tensor& wv) {
#if MISTAKE == 1
    return QKV{pg::matmul(wq, x), pg::matmul(wk, x), pg::matmul(wv, x)};
#elif MISTAKE == 2
    return QKV{pg::matmul(x, wq), pg::matmul(x, wk), pg::matmul(x, wk)};
#elif MISTAKE == 3
    return QKV{pg::matmul(x, wq), pg::matmul(x, wq), pg::matmul(x, wv)};
#elif MISTAKE == 4
    return QKV{pg::linear(x, wq, pg::Tensor()), pg::linear(x, wk, pg::Tensor()), pg::linear(x, wv, pg::Tensor())};
#elif MISTAKE == 5
    pg::Tensor rows = pg::reshape(x, {x.size(0), x.size(-1)});
    return QKV{pg::matmul(rows, wq), pg::matmul(rows, wk), pg::matmul(rows, wv)};
#else
    return QKV{pg::matmul(x, wq), pg::matmul(x, wk), pg::matmul(x, wv)};
#endif
}

QKV exercise::fused_qkv(const pg::Tensor& x, const pg::Tensor& weight, const pg::Tensor& bias) {
#if MISTAKE == 7
    pg::Tensor all = pg::linear(x, weight, pg::Tensor());
#elif MISTAKE == 9
    pg::Tensor all = pg::matmul(x, weight) + bias;
#else
    pg::Tensor all = pg::linear(x, weight, bias);
#endif
#if MISTAKE == 6
    std::vector<pg::Tensor> parts = pg::chunk(all, 3, 0);
#elif MISTAKE == 8
    const long C = static_cast<long>(x.size(-1));
    std::vector<pg::Tensor> parts{pg::slice(all, -1, 0, C), pg::slice(all, -1, C, 2 * C), pg::slice(all, -1, 2 * C, 3 * C)};
#else
    std::vector<pg::Tensor> parts = pg::chunk(all, 3, -1);
#endif
    return QKV{parts[0], parts[1], parts[2]};
}
