// Gradient clipping by the joint L2 norm, as PyTorch's clip_grad_norm_, and the two lr schedules.
// Leaves out: clipping by value, other norms, schedules with restarts.
#include <cmath>
#include <stdexcept>
#include "pg/optim/optim.hpp"
#include "../kernels/parallel.hpp"
#include "chunks.hpp"

namespace pg::optim {

// The sum of squares of g[begin, end) in double, in eight running sums (the lanes the compiler
// vectorises), added up in a fixed order: the same bits whichever thread computes it.
static double sum_of_squares(const float* __restrict g, size_t begin, size_t end) {
    double lane[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    size_t j = begin;
    for (; j + 8 <= end; j += 8)
        for (size_t k = 0; k < 8; ++k) lane[k] += static_cast<double>(g[j + k]) * g[j + k];
    for (size_t k = 0; j < end; ++j, ++k) lane[k] += static_cast<double>(g[j]) * g[j];
    return ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
}

float clip_grad_norm(const std::vector<Tensor>& params, float max_norm) {
    if (!(max_norm > 0.f)) throw std::invalid_argument("clip_grad_norm: max_norm = " + std::to_string(max_norm) + " must be positive");
    // each piece's sum on some thread, then the pieces' sums in order: independent of the thread count
    const std::vector<detail::Chunk> chunks = detail::chunks_of(params);
    std::vector<double> piece(chunks.size());
    kernels::parallel_for(chunks.size(), [&](size_t c) {
        piece[c] = sum_of_squares(params[chunks[c].param].grad_data().data(), chunks[c].begin, chunks[c].end);
    });
    double squares = 0;
    for (double s : piece) squares += s;
    float total = static_cast<float>(std::sqrt(squares));
    // coefficient max_norm / (norm + 1e-6), never above 1 (a NaN norm makes NaN gradients, as PyTorch)
    float coef = max_norm / (total + 1e-6f);
    if (coef < 1.f || std::isnan(coef))
        kernels::parallel_for(chunks.size(), [&](size_t c) {
            Tensor param = params[chunks[c].param];   // a handle: its gradient is written in place
            float* __restrict g = param.mutable_grad().data();
            for (size_t j = chunks[c].begin; j < chunks[c].end; ++j) g[j] *= coef;
        });
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
