// Lesson 15 exercise: layer norm forward. `./poet start 15` copies this file to exercise.cpp;
// write layer_norm there, then `./poet check 15`.
// 第 15 课练习：层归一化的前向。`./poet start 15` 会把这个文件复制成 exercise.cpp；
// 在那里写好 layer_norm，然后运行 `./poet check 15`。
#include "check.hpp"

pg::Tensor exercise::layer_norm(const pg::Tensor& x, const pg::Tensor& weight, const pg::Tensor& bias, float eps) {
    // C = x.size(-1); for each row of C numbers in x.ptr():
    // C = x.size(-1)；x.ptr() 里每 C 个数是一行，对每一行：
    //   mean = sum / C;  var = sum of (x_c - mean)^2 / C   (biased: C, not C - 1)
    //   mean = 和 / C；var = (x_c - mean)^2 的和 / C   （有偏的：除以 C，不是 C - 1）
    //   y_c = (x_c - mean) / sqrt(var + eps) * weight[c] + bias[c]
    //   归一化，再乘以缩放 weight[c]、加上偏置 bias[c]：y_c = (x_c - mean) / sqrt(var + eps) * weight[c] + bias[c]
    // then return pg::tensor(values, x.shape())
    // 最后返回 pg::tensor(values, x.shape())
    throw lesson::NotImplemented("exercise::layer_norm");
}
