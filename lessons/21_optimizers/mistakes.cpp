// mistake 1: bias correction forgotten (m and v used as they are) => divide by the bias corrections
// mistake 2: weight decay added to the gradient (Adam with L2, coupled) => not weight_decay * p added to the gradient
// mistake 3: decay not multiplied by lr, p * (1 - weight_decay) => the decay is multiplied by lr
// mistake 4: eps inside the square root, sqrt(v_hat + eps) => eps goes outside the square root
// mistake 5: the step count increased after the bias correction (t = 0 at step 1) => the step count starts at 1
// mistake 6: the moments updated in local handles, never stored in state => store the new moments in state.m[i]
// mistake 7: the parameter rebound (params[i] = ...) instead of updated in place => update the parameter in place
// mistake 8: eps outside the brackets, m_hat / sqrt(v_hat) + eps => eps goes inside the brackets
// mistake 9: the decay applied after the Adam update, to the new p => decay the old p first
// mistake 10: g not squared in v, v = beta2 v + (1 - beta2) g => with g not squared
// mistake 11: the step count kept in a static, state.t = ++steps, which goes on counting for a new state => a static count keeps growing from call to call
// Lesson 21's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// Leaves out: mistakes that do not compile.
#include "check.hpp"
using lesson::mistake;

void exercise::adamw_step(std::vector<pg::Tensor>& params, AdamWState& state, const pg::optim::AdamWOptions& opt) {
    pg::NoGradGuard no_grad;
    static size_t steps = 0;   // mistake 11: the count kept across calls
    if (mistake(11)) state.t = ++steps;
    else if (!mistake(5)) state.t += 1;
    const float correction1 = 1.f - std::pow(opt.beta1, float(state.t));
    const float correction2 = 1.f - std::pow(opt.beta2, float(state.t));
    if (mistake(5)) state.t += 1;
    // mistake 2 puts the decay into the gradient; mistake 3 forgets to multiply it by lr
    const float decay = mistake(2) ? 0.f : mistake(3) ? opt.weight_decay : opt.lr * opt.weight_decay;
    for (size_t i = 0; i < params.size(); ++i) {
        pg::Tensor& p = params[i];
        pg::Tensor g = p.grad();
        if (mistake(2)) g = g + opt.weight_decay * p;
        pg::Tensor m = opt.beta1 * state.m[i] + (1.f - opt.beta1) * g;
        pg::Tensor v = opt.beta2 * state.v[i] + (1.f - opt.beta2) * (mistake(10) ? g : g * g);
        if (!mistake(6)) {
            state.m[i] = m;
            state.v[i] = v;
        }
        pg::Tensor m_hat = mistake(1) ? m : m / correction1, v_hat = mistake(1) ? v : v / correction2;
        pg::Tensor update = mistake(4)   ? opt.lr * m_hat / pg::sqrt(v_hat + opt.eps)
                            : mistake(8) ? opt.lr * m_hat / pg::sqrt(v_hat) + opt.eps
                                         : opt.lr * m_hat / (pg::sqrt(v_hat) + opt.eps);
        if (mistake(7)) p = p * (1.f - decay) - update;
        else if (mistake(9)) p.copy_((p - update) * (1.f - decay));
        else p.copy_(p * (1.f - decay) - update);
    }
}
