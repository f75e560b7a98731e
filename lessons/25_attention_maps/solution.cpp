// Lesson 25 reference solution: one head's attention weights from the block's own modules, ln1 and
// attn.qkv: that head's columns of q and k, q k^T / sqrt(HS), the future masked, softmax over the keys.
#include "check.hpp"

pg::Tensor exercise::head_attention(const pg::nn::Block& block, const pg::Tensor& x, size_t h) {
    const size_t T = x.size(1), C = x.size(2), HS = C / block.attn.n_head;
    pg::Tensor qkv = block.attn.qkv.forward(block.ln1.forward(x));   // (B,T,3C): q of all heads | k | v
    const long from = static_cast<long>(h * HS), to = static_cast<long>((h + 1) * HS);
    pg::Tensor q = pg::slice(qkv, -1, from, to);                      // (B,T,HS): head h's query
    pg::Tensor k = pg::slice(qkv, -1, C + from, C + to);              // (B,T,HS): head h's key
    pg::Tensor scores = pg::matmul(q, pg::transpose(k, -2, -1)) / std::sqrt(static_cast<float>(HS));  // (B,T,T)
    pg::Tensor future = pg::zeros({T, T});                            // 1 where key s comes after query t
    for (size_t t = 0; t < T; ++t)
        for (size_t s = t + 1; s < T; ++s) future.mutable_data()(t, s) = 1.f;
    scores = pg::masked_fill(scores, future, -std::numeric_limits<float>::infinity());
    return pg::softmax(scores, -1);                                   // each row: a distribution over s <= t
}
