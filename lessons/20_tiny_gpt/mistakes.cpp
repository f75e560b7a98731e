// mistake 1: the position embedding forgotten (x = wte(ids) alone) => the position embedding is missing
// mistake 2: positions looked up with the token ids, wpe(ids) => positions looked up with the token ids
// mistake 3: the final LayerNorm forgotten (logits = head(x)) => the final LayerNorm ln_f is missing
// mistake 4: every block reads the embeddings, so only the last block counts => that block is not used
// mistake 5: a second residual around each block, x = x + block(x) => each block already adds its own residual
// mistake 6: positions for the whole context, wpe(arange(context)) => not the whole context
// mistake 7: the count in unsigned, which wraps for GPT-3's size => overflowed 32 bits
// mistake 8: the head counted as tied to wte (V C once) => the head is untied
// Lesson 20's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
#include "check.hpp"
using lesson::mistake;

size_t exercise::gpt_parameter_count(const pg::nn::GPTConfig& cfg) {
    if (mistake(7)) {
        const unsigned V = static_cast<unsigned>(cfg.vocab_size), C = static_cast<unsigned>(cfg.n_embd),
                       context = static_cast<unsigned>(cfg.context), n_layer = static_cast<unsigned>(cfg.n_layer);
        return V * C + context * C + n_layer * (12 * C * C + 13 * C) + 2 * C + V * C;
    }
    const size_t V = cfg.vocab_size, C = cfg.n_embd;
    const size_t head = mistake(8) ? 0 : V * C;
    return V * C + cfg.context * C + cfg.n_layer * (12 * C * C + 13 * C) + 2 * C + head;
}

pg::Tensor exercise::gpt_forward(const GPTParts& gpt, const pg::Tensor& ids) {
    pg::Tensor x = gpt.wte.forward(ids);
    const size_t positions = mistake(6) ? gpt.wpe.weight.size(0) : ids.size(1);
    if (mistake(2)) x = x + gpt.wpe.forward(ids);
    else if (!mistake(1)) x = x + gpt.wpe.forward(pg::arange(positions));
    const pg::Tensor embeddings = x;
    for (pg::nn::Block* block : gpt.blocks) {
        pg::Tensor out = block->forward(mistake(4) ? embeddings : x);
        x = mistake(5) ? x + out : out;
    }
    return gpt.head.forward(mistake(3) ? x : gpt.ln_f.forward(x));
}
