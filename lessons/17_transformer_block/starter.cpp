// Lesson 17 exercise: one transformer block, counted and assembled. `./poet start 17` copies this
// file to exercise.cpp; write block_parameter_count and block_forward there, then `./poet check 17`.
// 第 17 课练习：一个 Transformer 块，先数参数，再搭起来。`./poet start 17` 会把这个文件复制成
// exercise.cpp；在那里写好 block_parameter_count 和 block_forward，然后运行 `./poet check 17`。
#include "check.hpp"

size_t exercise::block_parameter_count(size_t C) {
    // add up: ln1 (weight, bias), attn.qkv (C -> 3C, with bias), attn.proj (C -> C, with bias),
    //         ln2 (weight, bias), mlp.fc (C -> 4C, with bias), mlp.out (4C -> C, with bias)
    // 加起来：ln1（权重、偏置），attn.qkv（C -> 3C，带偏置），attn.proj（C -> C，带偏置），
    //         ln2（权重、偏置），mlp.fc（C -> 4C，带偏置），mlp.out（4C -> C，带偏置）
    throw lesson::NotImplemented("exercise::block_parameter_count");
}

pg::Tensor exercise::block_forward(const BlockParts& block, const pg::Tensor& x) {
    // h = x + block.attn.forward(block.ln1.forward(x))     (B,T,C)
    // y = h + block.mlp.forward(block.ln2.forward(h))      (B,T,C)
    // 注意力子层加上残差连接：h = x + block.attn.forward(block.ln1.forward(x))     (B,T,C)
    // 前馈子层加上残差连接：  y = h + block.mlp.forward(block.ln2.forward(h))      (B,T,C)
    throw lesson::NotImplemented("exercise::block_forward");
}
