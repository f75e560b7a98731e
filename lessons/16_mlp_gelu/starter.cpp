// Lesson 16 exercise: GELU and the feed-forward part. `./poet start 16` copies this file to
// exercise.cpp; write gelu and feed_forward there, then `./poet check 16`.
// 第 16 课练习：GELU 和前馈网络。`./poet start 16` 会把这个文件复制成 exercise.cpp；
// 在那里写好 gelu 和 feed_forward，然后运行 `./poet check 16`。
#include "check.hpp"

pg::Tensor exercise::gelu(const pg::Tensor& x) {
    // for each value v in x.ptr():
    // 对 x.ptr() 里的每个值 v：
    //   u = sqrt(2/pi) * (v + 0.044715 v^3);   y = 0.5 v (1 + tanh(u))
    //   这是 GELU 的 tanh 近似：u = sqrt(2/pi) * (v + 0.044715 v^3)；y = 0.5 v (1 + tanh(u))
    // then return pg::tensor(values, x.shape())
    // 最后返回 pg::tensor(values, x.shape())
    throw lesson::NotImplemented("exercise::gelu");
}

pg::Tensor exercise::feed_forward(const pg::nn::MLP& mlp, const pg::Tensor& x) {
    // h = x @ fc.weight^T + fc.bias       (B,T,C) -> (B,T,4C)   pg::linear does both
    // h = exercise::gelu(h)   (yours; write exercise::, since pg::gelu has the same name)
    // y = h @ out.weight^T + out.bias     (B,T,4C) -> (B,T,C)
    // h = x @ fc.weight^T + fc.bias       (B,T,C) -> (B,T,4C)   pg::linear 把乘法和加偏置一起做了
    // h = exercise::gelu(h)   （你写的那个；要写上 exercise::，因为 pg::gelu 同名）
    // y = h @ out.weight^T + out.bias     (B,T,4C) -> (B,T,C)
    throw lesson::NotImplemented("exercise::feed_forward");
}
