// Lesson 22 reference solution: one training step, in the order poet::train_step takes it.
#include "check.hpp"

float exercise::train_step(pg::nn::GPT& gpt, pg::optim::Optimizer& opt, const poet::Batch& batch, float lr,
                           float clip) {
    opt.set_lr(lr);                                     // the schedule's rate for this step
    pg::Tensor loss = poet::batch_loss(gpt, batch);     // forward: (B,T) -> (B,T,V) -> a scalar
    float value = loss.item();
    if (!std::isfinite(value)) return value;            // never let a NaN or an inf into the weights
    opt.zero_grad();                                    // backward adds into .grad: start from nothing
    loss.backward();
    pg::optim::clip_grad_norm(opt.params(), clip);      // joint norm at most clip, before the step uses it
    opt.step();
    return value;
}
