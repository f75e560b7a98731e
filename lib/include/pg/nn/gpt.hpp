// The GPT: token and position embeddings, n_layer pre-norm blocks, a final LayerNorm and an
// untied head. Parameter order (and names) match the PyTorch reference in tools/reference/.
// Leaves out: generation (the poet's sampler lives in tools/poet/), weight tying, caches.
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
    GPT(const GPTConfig& cfg, Generator& gen);   // gen draws the initial weights and later dropout masks
    Tensor forward(const Tensor& ids);           // ids (B,T) whole numbers -> logits (B,T,V)
    const GPTConfig& config() const { return cfg_; }

    Embedding wte;                               // (V,C)
    Embedding wpe;                               // (T,C)
    std::vector<std::unique_ptr<Block>> blocks;
    LayerNorm ln_f;
    Linear head;                                 // (V,C), no bias

private:
    GPTConfig cfg_;
};

}  // namespace pg::nn
