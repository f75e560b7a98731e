// mistake 1: the position embedding forgotten (x = wte(ids) alone) => the position embedding is missing
// mistake 2: positions looked up with the token ids, wpe(ids) => positions looked up with the token ids
// mistake 3: the final LayerNorm forgotten (logits = head(x)) => the final LayerNorm ln_f is missing
// mistake 4: every block reads the embeddings, so only the last block counts => that block is not used
// mistake 5: a second residual around each block, x = x + block(x) => each block already adds its own residual
// mistake 6: positions for the whole context, wpe(arange(context)) => not the whole context
// mistake 7: the count in unsigned, which wraps for GPT-3's size => overflowed 32 bits
// mistake 8: the head counted as tied to wte (V C once) => the head is untied
// mistake 9: the count in int, which overflows for GPT-3's size => the count must not be done in int
// mistake 10: each block counted as 12 C^2 + 11 C (one LayerNorm forgotten) => so the blocks are wrong
// mistake 11: ln_f left out of the count => ln_f is missing
// mistake 12: wpe left out of the count => wpe is missing
// mistake 13: the first count kept in a static and returned for every shape => your function returned for an earlier, different input
// mistake 14: the first call's logits kept in a static and returned ever after => your function returned for an earlier, different input
// Lesson 20's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
#include "check.hpp"
using lesson::mistake;

size_t exercise::gpt_parameter_count(const pg::nn::GPTConfig& cfg) {
    static size_t kept = 0;   // mistake 13: the first call's count
    if (mistake(13) && kept != 0) return kept;
    if (mistake(7)) {
        const unsigned V = static_cast<unsigned>(cfg.vocab_size), C = static_cast<unsigned>(cfg.n_embd),
                       context = static_cast<unsigned>(cfg.context), n_layer = static_cast<unsigned>(cfg.n_layer);
        return V * C + context * C + n_layer * (12 * C * C + 13 * C) + 2 * C + V * C;
    }
    if (mistake(9)) {
        const int V = static_cast<int>(cfg.vocab_size), C = static_cast<int>(cfg.n_embd),
                  context = static_cast<int>(cfg.context), n_layer = static_cast<int>(cfg.n_layer);
        // wraps where int overflows (the learner's build, with the sanitizer, names the overflow instead)
        const unsigned total = static_cast<unsigned>(V * C) + static_cast<unsigned>(context * C) +
                               static_cast<unsigned>(n_layer) * static_cast<unsigned>(12 * C * C + 13 * C) +
                               static_cast<unsigned>(2 * C) + static_cast<unsigned>(V * C);
        return static_cast<size_t>(static_cast<int>(total));
    }
    const size_t V = cfg.vocab_size, C = cfg.n_embd;
    const size_t head = mistake(8) ? 0 : V * C;
    const size_t block = 12 * C * C + (mistake(10) ? 11 : 13) * C;
    const size_t count = V * C + (mistake(12) ? 0 : cfg.context * C) + cfg.n_layer * block + (mistake(11) ? 0 : 2 * C) + head;
    if (mistake(13)) kept = count;
    return count;
}

pg::Tensor exercise::gpt_forward(const GPTParts& gpt, const pg::Tensor& ids) {
    static pg::Tensor kept;   // mistake 14: the first call's logits
    static bool have = false;
    if (mistake(14) && have) return kept;
    pg::Tensor x = gpt.wte.forward(ids);
    const size_t positions = mistake(6) ? gpt.wpe.weight.size(0) : ids.size(1);
    if (mistake(2)) x = x + gpt.wpe.forward(ids);
    else if (!mistake(1)) x = x + gpt.wpe.forward(pg::arange(positions));
    const pg::Tensor embeddings = x;
    for (pg::nn::Block* block : gpt.blocks) {
        pg::Tensor out = block->forward(mistake(4) ? embeddings : x);
        x = mistake(5) ? x + out : out;
    }
    pg::Tensor logits = gpt.head.forward(mistake(3) ? x : gpt.ln_f.forward(x));
    if (mistake(14)) have = true, kept = logits;
    return logits;
}
