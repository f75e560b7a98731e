// mistake 1: the position embedding forgotten (x = wte(ids) alone) => the position embedding is missing
// mistake 2: positions looked up with the token ids, wpe(ids) => positions looked up with the token ids
// mistake 3: the final LayerNorm forgotten (logits = head(x)) => the final LayerNorm ln_f is missing
// mistake 4: every block reads the embeddings, so only the last block counts => that block is not used
// mistake 5: a second residual around each block, x = x + block(x) => each block already adds its own residual
// mistake 6: positions for the whole context, wpe(arange(context)) => not the whole context
// mistake 7: the count in unsigned, which wraps for GPT-3's size => overflowed 32 bits
// mistake 8: the head counted as tied to wte (V C once) => the head is untied
// Lesson 20's planted mistakes: each builds with -DMISTAKE=N and must fail the checks with its hint.
#include "check.hpp"

size_t exercise::gpt_parameter_count(const pg::nn::GPTConfig& cfg) {
#if MISTAKE == 7
    const unsigned V = static_cast<unsigned>(cfg.vocab_size), C = static_cast<unsigned>(cfg.n_embd),
                   context = static_cast<unsigned>(cfg.context), n_layer = static_cast<unsigned>(cfg.n_layer);
    return V * C + context * C + n_layer * (12 * C * C + 13 * C) + 2 * C + V * C;
#elif MISTAKE == 8
    const size_t V = cfg.vocab_size, C = cfg.n_embd;
    return V * C + cfg.context * C + cfg.n_layer * (12 * C * C + 13 * C) + 2 * C;
#else
    const size_t V = cfg.vocab_size, C = cfg.n_embd;
    return V * C + cfg.context * C + cfg.n_layer * (12 * C * C + 13 * C) + 2 * C + V * C;
#endif
}

pg::Tensor exercise::gpt_forward(const GPTParts& gpt, const pg::Tensor& ids) {
#if MISTAKE == 1
    pg::Tensor x = gpt.wte.forward(ids);
#elif MISTAKE == 2
    pg::Tensor x = gpt.wte.forward(ids) + gpt.wpe.forward(ids);
#elif MISTAKE == 6
    pg::Tensor x = gpt.wte.forward(ids) + gpt.wpe.forward(pg::arange(gpt.wpe.weight.size(0)));
#else
    pg::Tensor x = gpt.wte.forward(ids) + gpt.wpe.forward(pg::arange(ids.size(1)));
#endif
#if MISTAKE == 4
    pg::Tensor h = x;
    for (pg::nn::Block* block : gpt.blocks) h = block->forward(x);
    x = h;
#elif MISTAKE == 5
    for (pg::nn::Block* block : gpt.blocks) x = x + block->forward(x);
#else
    for (pg::nn::Block* block : gpt.blocks) x = block->forward(x);
#endif
#if MISTAKE == 3
    return gpt.head.forward(x);
#else
    return gpt.head.forward(gpt.ln_f.forward(x));
#endif
}
