// Lesson 21 reference solution: AdamW's step on tensors, the moments, the bias corrections and the
// decoupled decay, in PyTorch's order (decay the old p, then the Adam update).
#include "check.hpp"

void exercise::adamw_step(std::vector<pg::Tensor>& params, AdamWState& state, const pg::optim::AdamWOptions& opt) {
    pg::NoGradGuard no_grad;                           // the update is not part of any graph
    state.t += 1;                                      // this step's number, from 1
    const float correction1 = 1.f - std::pow(opt.beta1, float(state.t));
    const float correction2 = 1.f - std::pow(opt.beta2, float(state.t));
    for (size_t i = 0; i < params.size(); ++i) {
        pg::Tensor& p = params[i];
        pg::Tensor g = p.grad();
        state.m[i] = opt.beta1 * state.m[i] + (1.f - opt.beta1) * g;        // running mean of g
        state.v[i] = opt.beta2 * state.v[i] + (1.f - opt.beta2) * g * g;    // running mean of g^2
        pg::Tensor m_hat = state.m[i] / correction1, v_hat = state.v[i] / correction2;
        p.copy_(p * (1.f - opt.lr * opt.weight_decay) - opt.lr * m_hat / (pg::sqrt(v_hat) + opt.eps));
    }
}
