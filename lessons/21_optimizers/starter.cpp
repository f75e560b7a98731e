// Lesson 21 exercise: one AdamW step by hand, as torch.optim.AdamW and pg::optim::AdamW take it.
// `./poet start 21` copies this file to exercise.cpp; write adamw_step there, then `./poet check 21`.
#include "check.hpp"

void exercise::adamw_step(std::vector<pg::Tensor>& params, AdamWState& state, const pg::optim::AdamWOptions& opt) {
    // pg::NoGradGuard no_grad;                        the update is not part of any graph
    // state.t: one more step; the bias corrections 1 - beta1^t and 1 - beta2^t use the new count
    // for each i, with p = params[i] and g = p.grad():
    //   state.m[i] = beta1 m + (1 - beta1) g;  state.v[i] = beta2 v + (1 - beta2) g * g
    //   m_hat = m / (1 - beta1^t);  v_hat = v / (1 - beta2^t)
    //   p.copy_(p * (1 - lr * weight_decay) - lr * m_hat / (sqrt(v_hat) + eps))   in place
    throw lesson::NotImplemented("exercise::adamw_step");
}
