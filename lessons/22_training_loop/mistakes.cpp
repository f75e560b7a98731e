// mistake 1: opt.zero_grad() forgotten, so each backward adds onto the last step's gradient => the gradients added up
// mistake 2: the gradients clipped after opt.step(), when the step has already used them => saw the unclipped gradient
// mistake 3: the learning rate never set, so the schedule never reaches the optimizer => set the learning rate with opt.set_lr(lr)
// mistake 4: loss.backward() before opt.zero_grad(), which then wipes the new gradient => wipes the gradient just computed
// mistake 5: no check of the loss, so a NaN loss goes into backward and the update => one NaN step turns every weight into NaN
// mistake 6: clipping written by hand as g *= clip / norm, which also scales small gradients up => clipping only ever scales down
// mistake 7: no clipping at all => saw the unclipped gradient
// mistake 8: the loss returned is measured again after the update => computed before the update
// Lesson 22's planted mistakes: plausible wrong training steps. Each is built with -DMISTAKE=N and
// must fail the checks with the hint on its line above (lessons/common/expect_mistake_caught.sh).
#include "check.hpp"

float exercise::train_step(pg::nn::GPT& gpt, pg::optim::Optimizer& opt, const poet::Batch& batch, float lr,
                           float clip) {
#if MISTAKE != 3
    opt.set_lr(lr);
#endif
    pg::Tensor loss = poet::batch_loss(gpt, batch);
    float value = loss.item();
#if MISTAKE != 5
    if (!std::isfinite(value)) return value;
#endif
#if MISTAKE == 1
    loss.backward();
#elif MISTAKE == 4
    loss.backward();
    opt.zero_grad();
#else
    opt.zero_grad();
    loss.backward();
#endif
#if MISTAKE == 2
    opt.step();
    pg::optim::clip_grad_norm(opt.params(), clip);
#elif MISTAKE == 6
    double squares = 0;
    for (const pg::Tensor& p : opt.params())
        for (float g : p.grad().to_vector()) squares += static_cast<double>(g) * g;
    float scale = clip / static_cast<float>(std::sqrt(squares));
    for (const pg::Tensor& p : opt.params())
        for (float& g : p.impl()->grad) g *= scale;
    opt.step();
#elif MISTAKE == 7
    opt.step();
#else
    pg::optim::clip_grad_norm(opt.params(), clip);
    opt.step();
#endif
#if MISTAKE == 8
    return poet::batch_loss(gpt, batch).item();
#else
    return value;
#endif
}
