// Lesson 08 exercise: the mean squared error and the SGD update. `./poet start 8` copies this file
// to exercise.cpp; write both functions there, then `./poet check 8`.
// 第 08 课练习：均方误差和 SGD 更新。`./poet start 8` 会把这个文件复制成 exercise.cpp；
// 在那里写好这两个函数，然后运行 `./poet check 8`。
#include "check.hpp"

pg::Tensor exercise::mse_loss(const pg::Tensor& pred, const pg::Tensor& target) {
    // the difference, squared elementwise, averaged over every element (pg::mean)
    // 两者之差，逐元素平方，再对所有元素求平均（pg::mean）
    throw lesson::NotImplemented("exercise::mse_loss");
}

void exercise::sgd_step(std::vector<pg::Tensor>& params, float lr) {
    // for each p with p.has_grad(): p's values -= lr * p's gradient, in place
    // (p.mutable_data().data() and p.grad_data().data() are flat float arrays of p.numel()),
    // then p.zero_grad()
    // 对每个 p.has_grad() 为真的 p：原地执行 p 的值 -= lr * p 的梯度
    // （p.mutable_data().data() 和 p.grad_data().data() 都是长 p.numel() 的扁平 float 数组），
    // 然后 p.zero_grad()
    throw lesson::NotImplemented("exercise::sgd_step");
}
