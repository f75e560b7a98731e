// The GPT: logits = head(ln_f(blocks(wte(ids) + wpe(0..T-1)))), with GPT-2 style initial weights.
// Checks its input before any op runs, so a bad id or a too-long sequence gets a clear message.
// Leaves out: sampling and generation (they sit above the library, in tools/poet/).
#include "pg/nn/gpt.hpp"
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include "pg/ops.hpp"

namespace pg::nn {

static const GPTConfig& checked(const GPTConfig& cfg) {
    if (cfg.vocab_size == 0 || cfg.context == 0 || cfg.n_embd == 0 || cfg.n_head == 0)
        throw std::invalid_argument("GPT: vocab_size, context, n_embd and n_head must be positive (got " +
                                    std::to_string(cfg.vocab_size) + ", " + std::to_string(cfg.context) + ", " +
                                    std::to_string(cfg.n_embd) + ", " + std::to_string(cfg.n_head) + ")");
    return cfg;
}

static void fill_normal(Tensor& t, float std, Generator& gen) {
    float* p = t.mutable_data().data();
    for (size_t i = 0; i < t.numel(); ++i) p[i] = std * gen.normal();
}

static void fill_zero(Tensor& t) { std::fill(t.mutable_data().data(), t.mutable_data().data() + t.numel(), 0.f); }

GPT::GPT(const GPTConfig& cfg, Generator& gen)
    : wte(checked(cfg).vocab_size, cfg.n_embd, gen), wpe(cfg.context, cfg.n_embd, gen), ln_f(cfg.n_embd),
      head(cfg.n_embd, cfg.vocab_size, false, gen), cfg_(cfg) {
    register_module("wte", wte);
    register_module("wpe", wpe);
    for (size_t i = 0; i < cfg.n_layer; ++i) {
        blocks.push_back(std::make_unique<Block>(cfg.n_embd, cfg.n_head, cfg.dropout, gen));
        register_module("blocks." + std::to_string(i), *blocks.back());
    }
    register_module("ln_f", ln_f);
    register_module("head", head);

    // GPT-2 style initial weights, drawn in parameter order: every weight N(0, 0.02), except the two
    // projections that write into the residual stream, N(0, 0.02 / sqrt(2 n_layer)); biases 0;
    // LayerNorms keep weight 1, bias 0.
    const float std = 0.02f, resid_std = 0.02f / std::sqrt(2.f * static_cast<float>(std::max<size_t>(cfg.n_layer, 1)));
    fill_normal(wte.weight, std, gen);
    fill_normal(wpe.weight, std, gen);
    for (auto& block : blocks) {
        fill_normal(block->attn.qkv.weight, std, gen);
        fill_zero(block->attn.qkv.bias);
        fill_normal(block->attn.proj.weight, resid_std, gen);
        fill_zero(block->attn.proj.bias);
        fill_normal(block->mlp.fc.weight, std, gen);
        fill_zero(block->mlp.fc.bias);
        fill_normal(block->mlp.out.weight, resid_std, gen);
        fill_zero(block->mlp.out.bias);
    }
    fill_normal(head.weight, std, gen);
}

Tensor GPT::stream(const Tensor& ids) {
    const Shape& s = ids.shape();
    if (s.size() != 2 || s[1] == 0)
        throw ShapeError("GPT: ids " + shape_str(s) + " must be (B,T) with T >= 1");
    size_t T = s[1];
    if (T > cfg_.context)
        throw ShapeError("GPT: sequence length T = " + std::to_string(T) + " exceeds the context of " +
                         std::to_string(cfg_.context));
    Tensor x;
    try {
        x = wte.forward(ids) + wpe.forward(arange(T));     // (B,T,C) + (T,C); the embedding checks every id
    } catch (const IdError& e) {                           // ... and GPT names the id by (b,t)
        throw IdError("GPT: id " + e.value + " at (" + std::to_string(e.position / T) + "," +
                          std::to_string(e.position % T) + ") is not a whole number in [0, " + std::to_string(e.limit) + ")",
                      e.value, e.position, e.limit);
    }
    for (auto& block : blocks) x = block->forward(x);
    return x;                                              // (B,T,C)
}

Tensor GPT::forward(const Tensor& ids) { return head.forward(ln_f.forward(stream(ids))); }  // (B,T,V)

Tensor GPT::forward_rows(const Tensor& ids) {
    Tensor x = stream(ids);
    const size_t B = x.shape()[0], T = x.shape()[1];
    return head.forward(ln_f.forward(reshape(x, {B * T, cfg_.n_embd})));   // (B*T,C) -> (B*T,V)
}

Tensor GPT::forward_last(const Tensor& ids) {
    Tensor x = stream(ids);
    const size_t B = x.shape()[0], T = x.shape()[1];
    Tensor last = slice(x, 1, static_cast<long>(T) - 1, static_cast<long>(T));   // (B,1,C)
    return reshape(head.forward(ln_f.forward(last)), {B, cfg_.vocab_size});      // (B,V)
}

}  // namespace pg::nn
