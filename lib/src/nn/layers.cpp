// The GPT's building blocks, each a few lines over the ops: Linear, Embedding, LayerNorm,
// Dropout, CausalSelfAttention, MLP and the pre-norm Block. Shapes: B,T,C,NH,HS.
// Leaves out: key/value caches and fused attention kernels (attention is composed from ops).
#include "pg/nn/layers.hpp"
#include <cmath>
#include <limits>
#include <stdexcept>
#include "pg/ops.hpp"

namespace pg::nn {

Linear::Linear(size_t in, size_t out, bool has_bias, Generator& gen) {
    if (in == 0 || out == 0)
        throw std::invalid_argument("Linear: in = " + std::to_string(in) + " and out = " + std::to_string(out) +
                                    " must both be positive");
    float bound = 1.f / std::sqrt(static_cast<float>(in));
    weight = register_parameter("weight", uniform({out, in}, -bound, bound, gen));
    if (has_bias) bias = register_parameter("bias", uniform({out}, -bound, bound, gen));
}

Tensor Linear::forward(const Tensor& x) const { return linear(x, weight, bias); }

Embedding::Embedding(size_t num, size_t dim, Generator& gen) {
    weight = register_parameter("weight", randn({num, dim}, gen));
}

Tensor Embedding::forward(const Tensor& ids) const { return embedding(weight, ids); }

LayerNorm::LayerNorm(size_t dim, float eps_) : eps(eps_) {
    weight = register_parameter("weight", ones({dim}));
    bias = register_parameter("bias", zeros({dim}));
}

Tensor LayerNorm::forward(const Tensor& x) const { return layer_norm(x, weight, bias, eps); }

Dropout::Dropout(float p_, Generator& gen) : p(p_), gen_(&gen) { check_dropout_p(p); }

Tensor Dropout::forward(const Tensor& x) const { return dropout(x, p, is_training(), *gen_); }

CausalSelfAttention::CausalSelfAttention(size_t n_embd, size_t n_head_, float p, Generator& gen)
    : qkv(n_embd, 3 * n_embd, true, gen), proj(n_embd, n_embd, true, gen), attn_drop(p, gen), resid_drop(p, gen),
      n_head(n_head_) {
    if (n_head == 0 || n_embd % n_head != 0)
        throw std::invalid_argument("CausalSelfAttention: n_embd = " + std::to_string(n_embd) +
                                    " is not divisible by n_head = " + std::to_string(n_head));
    register_module("qkv", qkv);
    register_module("proj", proj);
    register_module("attn_drop", attn_drop);
    register_module("resid_drop", resid_drop);
}

// (T,T) with 1 where a query would see a later key: the positions the mask hides.
static Tensor causal_mask(size_t T) {
    Tensor mask = zeros({T, T});
    float* m = mask.mutable_data().data();
    for (size_t i = 0; i < T; ++i)
        for (size_t j = i + 1; j < T; ++j) m[i * T + j] = 1.f;
    return mask;
}

Tensor CausalSelfAttention::forward(const Tensor& x) {
    Shape s = x.shape();
    if (s.size() != 3 || s[2] != qkv.weight.size(1))
        throw ShapeError("CausalSelfAttention: x " + shape_str(s) + " must be (B,T,C) with C = " +
                         std::to_string(qkv.weight.size(1)));
    size_t B = s[0], T = s[1], C = s[2], NH = n_head, HS = C / NH;
    std::vector<Tensor> parts = chunk(qkv.forward(x), 3, -1);  // q, k, v each (B,T,C)
    auto split_heads = [&](const Tensor& t) { return transpose(reshape(t, {B, T, NH, HS}), 1, 2); };  // (B,NH,T,HS)
    Tensor q = split_heads(parts[0]), k = split_heads(parts[1]), v = split_heads(parts[2]);
    Tensor att = matmul(q, transpose(k, -2, -1)) * (1.f / std::sqrt(static_cast<float>(HS)));  // (B,NH,T,T)
    att = masked_fill(att, causal_mask(T), -std::numeric_limits<float>::infinity());
    att = softmax(att, -1);
    last_attention = att.detach();
    att = attn_drop.forward(att);
    Tensor y = matmul(att, v);                            // (B,NH,T,HS)
    y = reshape(transpose(y, 1, 2), {B, T, C});           // heads side by side again
    return resid_drop.forward(proj.forward(y));
}

MLP::MLP(size_t n_embd, float p, Generator& gen)
    : fc(n_embd, 4 * n_embd, true, gen), out(4 * n_embd, n_embd, true, gen), drop(p, gen) {
    register_module("fc", fc);
    register_module("out", out);
    register_module("drop", drop);
}

Tensor MLP::forward(const Tensor& x) const { return drop.forward(out.forward(gelu(fc.forward(x)))); }

Block::Block(size_t n_embd, size_t n_head, float p, Generator& gen)
    : ln1(n_embd), attn(n_embd, n_head, p, gen), ln2(n_embd), mlp(n_embd, p, gen) {
    register_module("ln1", ln1);
    register_module("attn", attn);
    register_module("ln2", ln2);
    register_module("mlp", mlp);
}

Tensor Block::forward(const Tensor& x) {
    Tensor h = x + attn.forward(ln1.forward(x));
    return h + mlp.forward(ln2.forward(h));
}

}  // namespace pg::nn
