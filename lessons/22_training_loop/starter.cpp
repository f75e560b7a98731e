// Lesson 22 exercise: one training step, the heart of the loop. `./poet start 22` copies this file
// to exercise.cpp; write train_step there, then `./poet check 22`.
// 第 22 课练习：一个训练步，训练循环的核心。`./poet start 22` 会把这个文件复制成 exercise.cpp；
// 在那里写好 train_step，然后运行 `./poet check 22`。
#include "check.hpp"

float exercise::train_step(pg::nn::GPT& gpt, pg::optim::Optimizer& opt, const poet::Batch& batch, float lr,
                           float clip) {
    // 1. give the optimizer this step's learning rate (the schedule's)
    // 1. 把这一步的学习率（调度给出的那个）交给优化器
    // 2. the loss of the batch: poet::batch_loss(gpt, batch), a scalar tensor; its value: .item()
    // 2. 这一批的损失：poet::batch_loss(gpt, batch)，一个标量张量；它的值用 .item() 取
    // 3. a NaN or infinite loss: return it at once, before any gradient or update
    // 3. 损失是 NaN 或无穷大：立刻把它返回，不算梯度，也不更新
    // 4. forget the previous step's gradients, then backward from the loss
    // 4. 清掉上一步的梯度，再从损失做反向传播
    // 5. clip the gradients' joint norm to clip: pg::optim::clip_grad_norm(opt.params(), clip)
    // 5. 把梯度的联合范数裁剪到 clip：pg::optim::clip_grad_norm(opt.params(), clip)
    // 6. update the weights, and return the loss
    // 6. 更新权重，并返回损失
    throw lesson::NotImplemented("exercise::train_step");
}
