// mistake 1: opt.zero_grad() forgotten, so each backward adds onto the last step's gradient => the gradients added up
// mistake 2: the gradients clipped after opt.step(), when the step has already used them => saw the unclipped gradient
// mistake 3: the learning rate never set, so the schedule never reaches the optimizer => set the learning rate with opt.set_lr(lr)
// mistake 4: loss.backward() before opt.zero_grad(), which then wipes the new gradient => wipes the gradient just computed
// mistake 5: no check of the loss, so a NaN loss goes into backward and the update => one NaN step turns every weight into NaN
// mistake 6: clipping written by hand as g *= clip / norm, which also scales small gradients up => clipping only ever scales down
// mistake 7: no clipping at all => saw the unclipped gradient
// mistake 8: the loss returned is measured again after the update => computed before the update
// mistake 9: only NaN tested (std::isnan), so an infinite loss goes into backward and the update => std::isnan(loss) lets an infinite loss through
// mistake 10: the first call's loss kept in a static and returned ever after => your function returned for an earlier, different input
// Lesson 22's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// They are plausible wrong training steps (the test: lessons/common/expect_mistake_caught.sh).
#include "check.hpp"
using lesson::mistake;

float exercise::train_step(pg::nn::GPT& gpt, pg::optim::Optimizer& opt, const poet::Batch& batch, float lr,
                           float clip) {
    if (!mistake(3)) opt.set_lr(lr);
    pg::Tensor loss = poet::batch_loss(gpt, batch);
    float value = loss.item();
    if (mistake(9) ? std::isnan(value) : !mistake(5) && !std::isfinite(value)) return value;
    if (!mistake(1) && !mistake(4)) opt.zero_grad();
    loss.backward();
    if (mistake(4)) opt.zero_grad();
    if (mistake(6)) {
        double squares = 0;
        for (const pg::Tensor& p : opt.params())
            for (float g : p.grad().to_vector()) squares += static_cast<double>(g) * g;
        float scale = clip / static_cast<float>(std::sqrt(squares));
        for (pg::Tensor p : opt.params())
            for (float& g : p.mutable_grad()) g *= scale;
    } else if (!mistake(2) && !mistake(7)) {
        pg::optim::clip_grad_norm(opt.params(), clip);
    }
    opt.step();
    if (mistake(2)) pg::optim::clip_grad_norm(opt.params(), clip);
    static float kept = NAN;   // mistake 10: the first call's loss
    if (mistake(10) && std::isnan(kept)) kept = value;
    if (mistake(10)) return kept;
    return mistake(8) ? poet::batch_loss(gpt, batch).item() : value;
}
