// Lesson 20 exercise: the whole GPT, counted and assembled from its modules. `./poet start 20` copies
// this file to exercise.cpp; write gpt_parameter_count and gpt_forward there, then `./poet check 20`.
#include "check.hpp"

size_t exercise::gpt_parameter_count(const pg::nn::GPTConfig& cfg) {
    // add up: wte (V,C), wpe (context,C), n_layer blocks of 12 C^2 + 13 C each (lesson 17),
    //         ln_f (weight and bias, C each), head (V,C) with no bias
    throw lesson::NotImplemented("exercise::gpt_parameter_count");
}

pg::Tensor exercise::gpt_forward(const GPTParts& gpt, const pg::Tensor& ids) {
    // T = ids.size(1)
    // x = gpt.wte.forward(ids) + gpt.wpe.forward(pg::arange(T))   (B,T,C) + (T,C) -> (B,T,C)
    // every block in gpt.blocks, in order: x = block->forward(x)   (B,T,C)
    // logits = gpt.head.forward(gpt.ln_f.forward(x))              (B,T,V)
    throw lesson::NotImplemented("exercise::gpt_forward");
}
