// Lesson 07 exercise: a gradient check. `./poet start 7` copies this file to exercise.cpp; write
// max_gradient_error there, then `./poet check 7`.
// 第 07 课练习：梯度检验。`./poet start 7` 会把这个文件复制成 exercise.cpp；在那里写好
// max_gradient_error，然后运行 `./poet check 7`。
#include "check.hpp"

double exercise::max_gradient_error(const std::function<pg::Tensor(const pg::Tensor&)>& f, pg::Tensor x,
                                    double eps) {
    // 1. r: random weights with f(x)'s shape (pg::uniform(shape, -1, 1, gen) with a pg::Generator).
    // 1. r：形状与 f(x) 相同的随机权重（用一个 pg::Generator 调 pg::uniform(shape, -1, 1, gen)）。
    // 2. analytic: clear x's gradient, backward of sum(f(x) * r), read x.grad().
    // 2. 解析梯度：清掉 x 的梯度，对 sum(f(x) * r) 做 backward，读出 x.grad()。
    // 3. numeric, for each element i of x: L(x with x[i] + eps) and L(x with x[i] - eps), where
    //    L = sum of f(x) * r added up in double; their difference over 2 eps; then x[i] back as it was.
    //    (x.mutable_data().data() is a float* to x's values; pg::NoGradGuard skips building graphs.)
    // 3. 数值梯度，对 x 的每个元素 i：分别算 x[i] + eps 和 x[i] - eps 时的 L，
    //    L 是用 double 累加的 f(x) * r 之和；两者之差除以 2 eps；然后把 x[i] 改回原值。
    //    （x.mutable_data().data() 是指向 x 各个值的 float*；在 pg::NoGradGuard 之下计算不会构建计算图。）
    // 4. return the largest |analytic[i] - numeric[i]|.
    // 4. 返回最大的 |analytic[i] - numeric[i]|。
    throw lesson::NotImplemented("exercise::max_gradient_error");
}
