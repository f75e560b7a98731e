// The GPT: token and position embeddings, n_layer pre-norm blocks, a final LayerNorm and an
// untied head. Parameter order (and names) match the PyTorch reference in tools/reference/.
// Leaves out: sampling (the poet's sampler lives in tools/poet/), weight tying, key/value caches.
#pragma once
#include <memory>
#include <vector>
#include "pg/nn/layers.hpp"

namespace pg::nn {

struct GPTConfig {
    size_t vocab_size = 0;
    size_t context = 32;   // longest sequence T the position embedding covers
    size_t n_layer = 4;
    size_t n_head = 4;
    size_t n_embd = 128;
    float dropout = 0.f;
};

class GPT : public Module {
public:
    // gen draws the initial weights and later dropout masks. Initial weights are GPT-2 style:
    // every Linear and Embedding weight N(0, 0.02), except attn.proj.weight and mlp.out.weight,
    // N(0, 0.02 / sqrt(2 n_layer)); every bias 0; LayerNorm weight 1, bias 0.
    GPT(const GPTConfig& cfg, Generator& gen);
    // ids (B,T) whole numbers in [0,V), T <= context -> logits (B,T,V); throws naming a bad id or T
    Tensor forward(const Tensor& ids);
    // The same logits as rows: ids (B,T) -> (B*T,V), row b*T + t, what a loss over every position
    // takes. The stream is flattened before the head, so the large (B,T,V) logits are never copied.
    Tensor forward_rows(const Tensor& ids);
    // The same, with ln_f and the head applied to the last position only: ids (B,T) -> logits (B,V),
    // the next token's, all that sampling needs (the head is most of a step's work when T is short).
    Tensor forward_last(const Tensor& ids);
    const GPTConfig& config() const { return cfg_; }

    Embedding wte;                               // (V,C)
    Embedding wpe;                               // (T,C)
    std::vector<std::unique_ptr<Block>> blocks;
    LayerNorm ln_f;
    Linear head;                                 // (V,C), no bias

private:
    Tensor stream(const Tensor& ids);   // checks ids, then the embeddings and blocks: (B,T) -> (B,T,C)
    GPTConfig cfg_;
};

}  // namespace pg::nn
