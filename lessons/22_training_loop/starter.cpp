// Lesson 22 exercise: one training step, the heart of the loop. `./poet start 22` copies this file
// to exercise.cpp; write train_step there, then `./poet check 22`.
#include "check.hpp"

float exercise::train_step(pg::nn::GPT& gpt, pg::optim::Optimizer& opt, const poet::Batch& batch, float lr,
                           float clip) {
    // 1. give the optimizer this step's learning rate (the schedule's)
    // 2. the loss of the batch: poet::batch_loss(gpt, batch), a scalar tensor; its value: .item()
    // 3. a NaN or infinite loss: return it at once, before any gradient or update
    // 4. forget the previous step's gradients, then backward from the loss
    // 5. clip the gradients' joint norm to clip: pg::optim::clip_grad_norm(opt.params(), clip)
    // 6. update the weights, and return the loss
    throw lesson::NotImplemented("exercise::train_step");
}
