// mistake 1: bias correction forgotten (m and v used as they are) => divide by the bias corrections
// mistake 2: weight decay added to the gradient (Adam with L2, coupled) => not weight_decay * p added to the gradient
// mistake 3: decay not multiplied by lr, p * (1 - weight_decay) => the decay is multiplied by lr
// mistake 4: eps inside the square root, sqrt(v_hat + eps) => eps goes outside the square root
// mistake 5: the step count increased after the bias correction (t = 0 at step 1) => the step count starts at 1
// mistake 6: the moments updated in local handles, never stored in state => store the new moments in state.m[i]
// mistake 7: the parameter rebound (params[i] = ...) instead of updated in place => update the parameter in place
// mistake 8: eps outside the brackets, m_hat / sqrt(v_hat) + eps => eps goes inside the brackets
// mistake 9: the decay applied after the Adam update, to the new p => decay the old p first
// Lesson 21's planted mistakes: each MISTAKE = N build changes the lines marked for it and must
// fail the checks with the hint above. Leaves out: mistakes that do not compile.
#include "check.hpp"

void exercise::adamw_step(std::vector<pg::Tensor>& params, AdamWState& state, const pg::optim::AdamWOptions& opt) {
    pg::NoGradGuard no_grad;
#if MISTAKE == 5
    const float correction1 = 1.f - std::pow(opt.beta1, float(state.t));
    const float correction2 = 1.f - std::pow(opt.beta2, float(state.t));
    state.t += 1;
#elif MISTAKE == 1
    state.t += 1;
#else
    state.t += 1;
    const float correction1 = 1.f - std::pow(opt.beta1, float(state.t));
    const float correction2 = 1.f - std::pow(opt.beta2, float(state.t));
#endif
    for (size_t i = 0; i < params.size(); ++i) {
        pg::Tensor& p = params[i];
        pg::Tensor g = p.grad();
#if MISTAKE == 2
        g = g + opt.weight_decay * p;
#endif
#if MISTAKE == 6
        pg::Tensor m = state.m[i], v = state.v[i];
        m = opt.beta1 * m + (1.f - opt.beta1) * g;
        v = opt.beta2 * v + (1.f - opt.beta2) * g * g;
#else
        state.m[i] = opt.beta1 * state.m[i] + (1.f - opt.beta1) * g;
        state.v[i] = opt.beta2 * state.v[i] + (1.f - opt.beta2) * g * g;
        pg::Tensor m = state.m[i], v = state.v[i];
#endif
#if MISTAKE == 1
        pg::Tensor m_hat = m, v_hat = v;
#else
        pg::Tensor m_hat = m / correction1, v_hat = v / correction2;
#endif
#if MISTAKE == 4
        pg::Tensor update = opt.lr * m_hat / pg::sqrt(v_hat + opt.eps);
#elif MISTAKE == 8
        pg::Tensor update = opt.lr * m_hat / pg::sqrt(v_hat) + opt.eps;
#else
        pg::Tensor update = opt.lr * m_hat / (pg::sqrt(v_hat) + opt.eps);
#endif
#if MISTAKE == 2
        p.copy_(p - update);
#elif MISTAKE == 3
        p.copy_(p * (1.f - opt.weight_decay) - update);
#elif MISTAKE == 7
        p = p * (1.f - opt.lr * opt.weight_decay) - update;
#elif MISTAKE == 9
        p.copy_((p - update) * (1.f - opt.lr * opt.weight_decay));
#else
        p.copy_(p * (1.f - opt.lr * opt.weight_decay) - update);
#endif
    }
}
