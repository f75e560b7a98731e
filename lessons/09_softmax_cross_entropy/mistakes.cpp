// mistake 1: one max over the whole tensor, not each row's => subtract each row's own max
// mistake 2: no max subtracted, exp(z) / sum exp(z) => subtract the row's max before exp
// mistake 3: the loss as -log(softmax), which is log(0) for a very unlikely target => log(softmax) is log(0)
// mistake 4: the loss and gradient divided by N, ignored rows included => divide by the rows that count
// mistake 5: rows compared with -100, not with the ignore_index given => not -100
// mistake 6: the gradient not divided by the rows that count => times too large
// mistake 7: the gradient is softmax alone, 1 never subtracted at the target => subtract 1 at the target
// mistake 8: softmax computed for every row first, so ignored rows keep a gradient => ignored rows get a zero gradient
// mistake 9: pg::cross_entropy and backward on a copy of the logits => you called backward
// mistake 10: p from pg::softmax instead of loops => you called pg::softmax
// mistake 11: the gradient y - p => the gradient has the wrong sign
// mistake 12: the loss is the logsumexp, z[target] never subtracted => the logsumexp alone
// Lesson 09's planted mistakes: plausible wrong cross-entropies. Each builds with -DMISTAKE=N and must
// fail the checks with its hint above.
#include <cmath>
#include "check.hpp"

exercise::LossAndGrad exercise::cross_entropy(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index) {
#if MISTAKE == 9
    pg::Tensor l = logits.detach().requires_grad_();
    pg::Tensor loss_t = pg::cross_entropy(l, targets, ignore_index);
    loss_t.backward();
    return {loss_t.item(), l.grad()};
#endif
    size_t N = logits.size(0), C = logits.size(1);
    const float* z = logits.ptr();
    const float* t = targets.ptr();
    std::vector<float> grad(N * C, 0.f);
#if MISTAKE == 1
    double global_max = z[0];
    for (size_t i = 1; i < N * C; ++i) global_max = std::max(global_max, static_cast<double>(z[i]));
#endif
#if MISTAKE == 8
    for (size_t r = 0; r < N; ++r) {  // p for every row, ignored ones too
        const float* row = z + r * C;
        float m = *std::max_element(row, row + C), sum = 0.f;
        for (size_t c = 0; c < C; ++c) sum += std::exp(row[c] - m);
        for (size_t c = 0; c < C; ++c) grad[r * C + c] = std::exp(row[c] - m) / sum;
    }
#endif
#if MISTAKE == 10
    std::vector<float> p_all = pg::softmax(logits, -1).to_vector();
    pg::Tensor p_tensor = pg::softmax(logits, -1);
#endif
    double loss = 0;
    size_t counted = 0;
    for (size_t r = 0; r < N; ++r) {
#if MISTAKE == 5
        if (static_cast<long>(t[r]) == -100) continue;
#else
        if (static_cast<long>(t[r]) == ignore_index) continue;
#endif
        const float* row = z + r * C;
#if MISTAKE == 1
        double m = global_max;
#elif MISTAKE == 2
        double m = 0;
#else
        double m = row[0];
        for (size_t c = 1; c < C; ++c) m = std::max(m, static_cast<double>(row[c]));
#endif
#if MISTAKE == 2
        float fsum = 0.f;  // in float, as exp(z) / sum exp(z) is usually written
        for (size_t c = 0; c < C; ++c) fsum += std::exp(row[c]);
        double sum = fsum;
#else
        double sum = 0;
        for (size_t c = 0; c < C; ++c) sum += std::exp(row[c] - m);
#endif
        double logsumexp = m + std::log(sum);
        size_t target = static_cast<size_t>(t[r]);
#if MISTAKE == 3
        float p_target = static_cast<float>(std::exp(row[target] - m) / sum);
        loss += -std::log(p_target);
#elif MISTAKE == 12
        loss += logsumexp;
#else
        loss += logsumexp - row[target];
#endif
        for (size_t c = 0; c < C; ++c) {
#if MISTAKE == 10
            grad[r * C + c] = p_all[r * C + c];
#else
            grad[r * C + c] = static_cast<float>(std::exp(row[c] - logsumexp));
#endif
        }
#if MISTAKE == 11
        for (size_t c = 0; c < C; ++c) grad[r * C + c] = -grad[r * C + c];
        grad[r * C + target] += 1.f;
#elif MISTAKE != 7
        grad[r * C + target] -= 1.f;
#endif
        ++counted;
    }
#if MISTAKE == 4
    counted = N;
#endif
#if MISTAKE == 10
    // the gradient from the library's softmax, minus the one-hot, as a tensor
    std::vector<float> onehot(N * C, 0.f);
    for (size_t r = 0; r < N; ++r)
        if (static_cast<long>(t[r]) != ignore_index) onehot[r * C + static_cast<size_t>(t[r])] = 1.f;
    return {loss / static_cast<double>(counted),
            (p_tensor - pg::tensor(onehot, {N, C})) / static_cast<float>(counted)};
#endif
#if MISTAKE != 6
    for (float& g : grad) g /= static_cast<float>(counted);
#endif
    return {loss / static_cast<double>(counted), pg::tensor(grad, {N, C})};
}
