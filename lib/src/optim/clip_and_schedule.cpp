// Gradient clipping by the joint L2 norm, as PyTorch's clip_grad_norm_, and the two lr schedules.
// Leaves out: clipping by value, other norms, schedules with restarts.
#include <cmath>
#include <stdexcept>
#include "pg/optim/optim.hpp"

namespace pg::optim {

float clip_grad_norm(const std::vector<Tensor>& params, float max_norm) {
    if (!(max_norm > 0.f)) throw std::invalid_argument("clip_grad_norm: max_norm = " + std::to_string(max_norm) + " must be positive");
    double squares = 0;
    for (const Tensor& p : params) {
        if (!p.has_grad()) continue;
        const float* g = p.grad_data().data();
        for (size_t j = 0, n = p.numel(); j < n; ++j) squares += static_cast<double>(g[j]) * g[j];
    }
    float total = static_cast<float>(std::sqrt(squares));
    // coefficient max_norm / (norm + 1e-6), never above 1 (a NaN norm makes NaN gradients, as PyTorch)
    float coef = max_norm / (total + 1e-6f);
    if (coef < 1.f || std::isnan(coef))
        for (const Tensor& p : params) {
            if (!p.has_grad()) continue;
            float* g = p.impl()->grad.data();
            for (size_t j = 0, n = p.numel(); j < n; ++j) g[j] *= coef;
        }
    return total;
}

float constant_lr(size_t, float lr) { return lr; }

// step < warmup: max_lr * (step + 1) / warmup; then cosine from max_lr to min_lr; after total_steps: min_lr.
float warmup_cosine_lr(size_t step, size_t warmup, size_t total_steps, float max_lr, float min_lr) {
    if (step < warmup) return max_lr * static_cast<float>(step + 1) / static_cast<float>(warmup);
    if (step >= total_steps) return min_lr;
    double progress = static_cast<double>(step - warmup) / static_cast<double>(total_steps - warmup);  // [0, 1)
    double coeff = 0.5 * (1.0 + std::cos(M_PI * progress));                                            // 1 -> 0
    return static_cast<float>(min_lr + coeff * (max_lr - min_lr));
}

}  // namespace pg::optim
