// Lesson 20 reference solution: the GPT's parameter count by formula, and its forward from the
// modules: head(ln_f(blocks(wte(ids) + wpe(0..T-1)))).
#include "check.hpp"

size_t exercise::gpt_parameter_count(const pg::nn::GPTConfig& cfg) {
    const size_t V = cfg.vocab_size, C = cfg.n_embd;
    size_t embeddings = V * C + cfg.context * C;           // wte, wpe
    size_t blocks = cfg.n_layer * (12 * C * C + 13 * C);  // lesson 17's block, n_layer times
    size_t ln_f = 2 * C;                                   // weight and bias
    size_t head = V * C;                                   // untied, no bias
    return embeddings + blocks + ln_f + head;
}

pg::Tensor exercise::gpt_forward(const GPTParts& gpt, const pg::Tensor& ids) {
    const size_t T = ids.size(1);
    pg::Tensor x = gpt.wte.forward(ids) + gpt.wpe.forward(pg::arange(T));  // (B,T,C): what and where
    for (pg::nn::Block* block : gpt.blocks) x = block->forward(x);         // (B,T,C), each block in turn
    return gpt.head.forward(gpt.ln_f.forward(x));                          // (B,T,V)
}
