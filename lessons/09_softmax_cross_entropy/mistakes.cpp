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
// mistake 13: the first call's answer kept in a static and returned ever after => the ones you returned for earlier inputs
// mistake 14: each row's first logit subtracted before exp, row[0], instead of its largest => you subtracted each row's first logit, not its largest
// Lesson 09's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// They are plausible wrong cross-entropies.
#include <algorithm>
#include <cmath>
#include "check.hpp"
using lesson::mistake;

exercise::LossAndGrad exercise::cross_entropy(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index) {
    static bool answered = false;  // mistake 13: the first answer, remembered
    static double first_loss = 0;
    static std::vector<float> first_grad;
    static pg::Shape first_shape;
    if (mistake(13) && answered) return {first_loss, pg::tensor(first_grad, first_shape)};
    if (mistake(9)) {
        pg::Tensor l = logits.detach().requires_grad_();
        pg::Tensor loss_t = pg::cross_entropy(l, targets, ignore_index);
        loss_t.backward();
        return {loss_t.item(), l.grad()};
    }
    size_t N = logits.size(0), C = logits.size(1);
    const float* z = logits.ptr();
    const float* t = targets.ptr();
    std::vector<float> grad(N * C, 0.f);
    if (mistake(8))
        for (size_t r = 0; r < N; ++r) {  // p for every row, ignored ones too
            const float* row = z + r * C;
            float m = *std::max_element(row, row + C), sum = 0.f;
            for (size_t c = 0; c < C; ++c) sum += std::exp(row[c] - m);
            for (size_t c = 0; c < C; ++c) grad[r * C + c] = std::exp(row[c] - m) / sum;
        }
    double loss = 0;
    size_t counted = 0;
    const long ignored = mistake(5) ? -100 : ignore_index;
    for (size_t r = 0; r < N; ++r) {
        if (static_cast<long>(t[r]) == ignored) continue;
        const float* row = z + r * C;
        double m = 0;  // mistake 2 subtracts no max
        if (mistake(1)) m = *std::max_element(z, z + N * C);  // one max over the whole tensor
        else if (mistake(14)) m = row[0];                      // the first logit, not the largest
        else if (!mistake(2)) m = *std::max_element(row, row + C);
        double sum = 0;
        float fsum = 0.f;  // mistake 2's, in float, as exp(z) / sum exp(z) is usually written
        for (size_t c = 0; c < C; ++c) {
            sum += std::exp(row[c] - m);
            fsum += std::exp(row[c]);
        }
        if (mistake(2)) sum = fsum;
        double logsumexp = m + std::log(sum);
        size_t target = static_cast<size_t>(t[r]);
        if (mistake(3)) {
            float p_target = static_cast<float>(std::exp(row[target] - m) / sum);
            loss += -std::log(p_target);
        } else if (mistake(12)) {
            loss += logsumexp;
        } else {
            loss += logsumexp - row[target];
        }
        for (size_t c = 0; c < C; ++c) grad[r * C + c] = static_cast<float>(std::exp(row[c] - logsumexp));
        if (mistake(11)) {
            for (size_t c = 0; c < C; ++c) grad[r * C + c] = -grad[r * C + c];
            grad[r * C + target] += 1.f;
        } else if (!mistake(7)) {
            grad[r * C + target] -= 1.f;
        }
        ++counted;
    }
    if (mistake(4)) counted = N;
    if (mistake(10)) {
        // the gradient from the library's softmax, minus the one-hot, as a tensor
        pg::Tensor p = pg::softmax(logits, -1);
        std::vector<float> onehot(N * C, 0.f);
        for (size_t r = 0; r < N; ++r)
            if (static_cast<long>(t[r]) != ignore_index) onehot[r * C + static_cast<size_t>(t[r])] = 1.f;
        return {loss / static_cast<double>(counted), (p - pg::tensor(onehot, {N, C})) / static_cast<float>(counted)};
    }
    if (!mistake(6))
        for (float& g : grad) g /= static_cast<float>(counted);
    if (mistake(13)) {
        answered = true, first_loss = loss / static_cast<double>(counted), first_shape = {N, C};
        first_grad = grad;
    }
    return {loss / static_cast<double>(counted), pg::tensor(grad, {N, C})};
}
