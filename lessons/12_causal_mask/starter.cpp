// Lesson 12 exercise: causal self-attention. `./poet start 12` copies this file to exercise.cpp;
// write causal_attention there, then `./poet check 12`.
// 第 12 课练习：因果自注意力。`./poet start 12` 会把这个文件复制成 exercise.cpp；
// 在那里写好 causal_attention，然后运行 `./poet check 12`。
#include "check.hpp"

pg::Tensor exercise::causal_attention(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v) {
    // T = q.size(-2), HS = q.size(-1)
    // 1 compare:   scores = q @ k^T (transpose k's last two dims)       (..., T, T)
    // 2 scale:     scores / sqrt(HS)
    // 3 mask:      a (T, T) tensor with 1 where j > i; pg::masked_fill(scores, mask, -infinity)
    // 4 softmax:   along the last dim
    // 5 aggregate: weights @ v
    // T = q.size(-2)，HS = q.size(-1)
    // 1 比较：  scores = q @ k^T（转置 k 的最后两个轴）              (..., T, T)
    // 2 缩放：  scores / sqrt(HS)
    // 3 掩码：  一个 (T, T) 张量，j > i 的地方为 1；pg::masked_fill(scores, mask, -infinity)
    // 4 softmax：沿最后一个轴
    // 5 汇总：  weights @ v
    throw lesson::NotImplemented("exercise::causal_attention");
}
