// mistake 1: pg::sum for pg::mean => N times too large
// mistake 2: the square root taken (RMSE) => no square root
// mistake 3: half the mean squared error, 0.5 * mean((pred - target)^2) => no factor 1/2
// mistake 4: the square of the mean difference, mean(d) * mean(d) => square each difference first
// mistake 5: the expanded square pred^2 - 2 pred target + target^2 => exact on paper, wrong in float
// mistake 6: the loss computed from raw numbers and wrapped in pg::scalar => no graph back to pred
// mistake 7: p += lr * grad => you added lr * grad
// mistake 8: lr forgotten, p -= grad => multiply it by lr first
// mistake 9: p = p - p.grad() * lr, a new tensor in the vector => the vector now holds a new tensor
// mistake 10: the gradient never cleared => the gradient was not cleared
// mistake 11: every parameter's gradient read, with or without one => skip p when !p.has_grad()
// mistake 12: break at the first parameter without a gradient => not break or return
// mistake 13: the loop stops one short (i + 1 < params.size()) => the last one too
// mistake 14: the update written into a copy, p.detach() => w did not move
// mistake 15: the first loss kept in a static and returned ever after => the same number for two inputs whose losses differ
// Lesson 08's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// They are plausible wrong losses and updates.
#include "check.hpp"
using lesson::mistake;

pg::Tensor exercise::mse_loss(const pg::Tensor& pred, const pg::Tensor& target) {
    pg::Tensor diff = pred - target;
    static pg::Tensor first;  // mistake 15: the first loss, remembered
    static bool have_first = false;
    if (mistake(15)) {
        if (!have_first) first = pg::mean(diff * diff), have_first = true;
        return first;
    }
    if (mistake(1)) return pg::sum(diff * diff);
    if (mistake(2)) return pg::sqrt(pg::mean(diff * diff));
    if (mistake(3)) return pg::mean(diff * diff) * 0.5f;
    if (mistake(4)) return pg::mean(diff) * pg::mean(diff);
    if (mistake(5)) return pg::mean(pred * pred - pred * target * 2.f + target * target);
    if (mistake(6)) {
        double s = 0;
        for (size_t i = 0; i < pred.numel(); ++i) {
            double d = static_cast<double>(pred.ptr()[i]) - target.ptr()[i];
            s += d * d;
        }
        return pg::scalar(static_cast<float>(s / static_cast<double>(pred.numel())));
    }
    return pg::mean(diff * diff);
}

void exercise::sgd_step(std::vector<pg::Tensor>& params, float lr) {
    const size_t short_by = mistake(13) ? 1 : 0;
    for (size_t k = 0; k + short_by < params.size(); ++k) {
        pg::Tensor& p = params[k];
        if (mistake(11)) {
            pg::Tensor g = p.grad();  // throws for a parameter without a gradient
        } else if (!p.has_grad()) {
            if (mistake(12)) break;
            continue;
        }
        if (mistake(9)) {
            p = p - p.grad() * lr;
            continue;
        }
        pg::Tensor updated = mistake(14) ? p.detach() : p;  // mistake 14: a copy
        float* value = updated.mutable_data().data();
        const float* grad = p.grad_data().data();
        for (size_t i = 0; i < p.numel(); ++i) {
            if (mistake(7)) value[i] += lr * grad[i];
            else if (mistake(8)) value[i] -= grad[i];
            else value[i] -= lr * grad[i];
        }
        if (!mistake(10)) p.zero_grad();
    }
}
