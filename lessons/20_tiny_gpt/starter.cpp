// Lesson 20 exercise: the whole GPT, counted and assembled from its modules. `./poet start 20` copies
// this file to exercise.cpp; write gpt_parameter_count and gpt_forward there, then `./poet check 20`.
// 第 20 课练习：完整的 GPT，先数参数，再用它的各个模块搭起来。`./poet start 20` 会把这个文件
// 复制成 exercise.cpp；在那里写好 gpt_parameter_count 和 gpt_forward，然后运行 `./poet check 20`。
#include "check.hpp"

size_t exercise::gpt_parameter_count(const pg::nn::GPTConfig& cfg) {
    // add up: wte (V,C), wpe (context,C), n_layer blocks of 12 C^2 + 13 C each (lesson 17),
    //         ln_f (weight and bias, C each), head (V,C) with no bias
    // 加起来：wte (V,C)，wpe (context,C)，n_layer 个块、每块 12 C^2 + 13 C（第 17 课），
    //         ln_f（权重和偏置，各 C 个），head (V,C)，没有偏置
    throw lesson::NotImplemented("exercise::gpt_parameter_count");
}

pg::Tensor exercise::gpt_forward(const GPTParts& gpt, const pg::Tensor& ids) {
    // T = ids.size(1)
    // x = gpt.wte.forward(ids) + gpt.wpe.forward(pg::arange(T))   (B,T,C) + (T,C) -> (B,T,C)
    // every block in gpt.blocks, in order: x = block->forward(x)   (B,T,C)
    // logits = gpt.head.forward(gpt.ln_f.forward(x))              (B,T,V)
    // T = ids.size(1)
    // x = gpt.wte.forward(ids) + gpt.wpe.forward(pg::arange(T))   (B,T,C) + (T,C) -> (B,T,C)
    // 按顺序走过 gpt.blocks 里的每个块：x = block->forward(x)      (B,T,C)
    // logits = gpt.head.forward(gpt.ln_f.forward(x))              (B,T,V)
    throw lesson::NotImplemented("exercise::gpt_forward");
}
