// Lesson 21 exercise: one AdamW step by hand, as torch.optim.AdamW and pg::optim::AdamW take it.
// `./poet start 21` copies this file to exercise.cpp; write adamw_step there, then `./poet check 21`.
// 第 21 课练习：手写一步 AdamW，做法与 torch.optim.AdamW 和 pg::optim::AdamW 相同。
// `./poet start 21` 会把这个文件复制成 exercise.cpp；在那里写好 adamw_step，然后运行 `./poet check 21`。
#include "check.hpp"

void exercise::adamw_step(std::vector<pg::Tensor>& params, AdamWState& state, const pg::optim::AdamWOptions& opt) {
    // pg::NoGradGuard no_grad;                        the update is not part of any graph
    // pg::NoGradGuard no_grad;                        更新不属于任何计算图
    // state.t: one more step; the bias corrections 1 - beta1^t and 1 - beta2^t use the new count
    // state.t：步数加一；偏差校正 1 - beta1^t 和 1 - beta2^t 用加一之后的步数
    // for each i, with p = params[i] and g = p.grad():
    // 对每个 i，记 p = params[i]，g = p.grad()：
    //   state.m[i] = beta1 m + (1 - beta1) g;  state.v[i] = beta2 v + (1 - beta2) g * g
    //   一阶矩 state.m[i] = beta1 m + (1 - beta1) g；二阶矩 state.v[i] = beta2 v + (1 - beta2) g * g
    //   m_hat = m / (1 - beta1^t);  v_hat = v / (1 - beta2^t)
    //   校正后 m_hat = m / (1 - beta1^t)；v_hat = v / (1 - beta2^t)
    //   p.copy_(p * (1 - lr * weight_decay) - lr * m_hat / (sqrt(v_hat) + eps))   in place
    //   原地更新：p.copy_(p * (1 - lr * weight_decay) - lr * m_hat / (sqrt(v_hat) + eps))
    throw lesson::NotImplemented("exercise::adamw_step");
}
