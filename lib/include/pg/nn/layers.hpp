// The building blocks of the GPT: Linear, Embedding, LayerNorm, Dropout, CausalSelfAttention,
// MLP and the pre-norm Block. Shapes: B batch, T time, C channels, NH heads, HS head size.
// Leaves out: cross-attention, key/value caches, weight tying.
#pragma once
#include "pg/nn/module.hpp"
#include "pg/random.hpp"

namespace pg::nn {

class Linear : public Module {
public:
    // weight (out, in), bias (out); both U(-1/sqrt(in), 1/sqrt(in)) as PyTorch
    Linear(size_t in, size_t out, bool bias, Generator& gen);
    Tensor forward(const Tensor& x) const;  // (..., in) -> (..., out)
    Tensor weight, bias;                     // bias is an empty Tensor() when there is none
};

class Embedding : public Module {
public:
    Embedding(size_t num, size_t dim, Generator& gen);  // weight (num, dim) ~ N(0, 1) as PyTorch
    Tensor forward(const Tensor& ids) const;            // ids (...) -> (..., dim)
    Tensor weight;
};

class LayerNorm : public Module {
public:
    explicit LayerNorm(size_t dim, float eps = 1e-5f);  // weight ones, bias zeros
    Tensor forward(const Tensor& x) const;              // normalise the last dim
    Tensor weight, bias;
    float eps;
};

class Dropout : public Module {
public:
    Dropout(float p, Generator& gen);  // the generator must outlive the module
    Tensor forward(const Tensor& x) const;
    float p;
private:
    Generator* gen_;
};

class CausalSelfAttention : public Module {
public:
    CausalSelfAttention(size_t n_embd, size_t n_head, float dropout, Generator& gen);
    Tensor forward(const Tensor& x);           // (B,T,C) -> (B,T,C)
    Linear qkv;                                // C -> 3C, split with chunk(3)
    Linear proj;                               // C -> C
    Dropout attn_drop, resid_drop;
    size_t n_head;
    Tensor last_attention;                     // (B,NH,T,T) weights of the last forward, detached
};

class MLP : public Module {
public:
    MLP(size_t n_embd, float dropout, Generator& gen);
    Tensor forward(const Tensor& x) const;     // (B,T,C) -> Linear C->4C, GELU, Linear 4C->C
    Linear fc, out;
    Dropout drop;
};

class Block : public Module {
public:
    Block(size_t n_embd, size_t n_head, float dropout, Generator& gen);
    Tensor forward(const Tensor& x);           // x + attn(ln1(x)), then x + mlp(ln2(x))
    LayerNorm ln1;
    CausalSelfAttention attn;
    LayerNorm ln2;
    MLP mlp;
};

}  // namespace pg::nn
