// Lesson 11 exercise: Q, K and V from one input. `./poet start 11` copies this file to
// exercise.cpp; write solve and fused_qkv there, then `./poet check 11`.
// 第 11 课练习：从同一个输入得到 Q、K 和 V。`./poet start 11` 会把这个文件复制成 exercise.cpp；
// 在那里写好 solve 和 fused_qkv，然后运行 `./poet check 11`。
#include "check.hpp"

QKV exercise::solve(const pg::Tensor& x, const pg::Tensor& wq, const pg::Tensor& wk, const pg::Tensor& wv) {
    // q = x @ wq, k = x @ wk, v = x @ wv  (pg::matmul broadcasts over x's leading dims)
    // return QKV{q, k, v};
    // q = x @ wq，k = x @ wk，v = x @ wv（pg::matmul 会在 x 前面的轴上广播）
    // 最后 return QKV{q, k, v};
    throw lesson::NotImplemented("exercise::solve");
}

QKV exercise::fused_qkv(const pg::Tensor& x, const pg::Tensor& weight, const pg::Tensor& bias) {
    // all = x @ weight^T + bias, (..., 3D): one pg op does exactly this
    // all = x @ weight^T + bias，形状 (..., 3D)：有一个 pg 算子正好做这件事
    // split all into 3 equal parts along the last dim: q, k, v
    // 沿最后一个轴把 all 切成相等的 3 份：q、k、v
    throw lesson::NotImplemented("exercise::fused_qkv");
}
