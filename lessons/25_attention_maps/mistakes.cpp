// mistake 1: the causal mask missing, so each position attends to the future => the causal mask is missing
// mistake 2: softmax over the wrong axis, the queries (dim -2) instead of the keys => softmax over the wrong axis
// mistake 3: the scores scaled by 1/sqrt(C), the model's width, instead of 1/sqrt(HS) => scaled by 1/sqrt(C)
// mistake 4: q and k swapped, softmax(k q^T), the attention transposed => q and k swapped
// mistake 5: the wrong head's slice, qkv read as [q0 k0 v0 q1 k1 v1 ...] => q for every head, then k, then v
// mistake 6: heads split by reshaping (B,T,C) straight to (B,NH,T,HS), without the transpose => reshaping straight to (B,NH,T,HS)
// mistake 7: the future zeroed after the softmax instead of set to -inf before it => masked after the softmax
// mistake 8: ln1 left out, q and k computed from the raw stream x => ln1 is missing
// mistake 9: softmax written by hand as exp(s) / sum exp(s), which overflows => subtract each row's max
// mistake 10: the mask hides the diagonal too (s >= t), so row 0 sees nothing => your mask hides the diagonal too
// Lesson 25's planted mistakes: plausible wrong ways to pull one head's weights out of a block. Each
// is built with -DMISTAKE=N and must fail the checks with the hint on its line above.
#include "check.hpp"

pg::Tensor exercise::head_attention(const pg::nn::Block& block, const pg::Tensor& x, size_t h) {
    const size_t T = x.size(1), C = x.size(2), HS = C / block.attn.n_head;
#if MISTAKE == 8
    pg::Tensor qkv = block.attn.qkv.forward(x);
#else
    pg::Tensor qkv = block.attn.qkv.forward(block.ln1.forward(x));   // (B,T,3C)
#endif
#if MISTAKE == 5
    const long hs = static_cast<long>(HS), from = 3 * static_cast<long>(h) * hs;   // [q_h k_h v_h] blocks
    pg::Tensor q = pg::slice(qkv, -1, from, from + hs);
    pg::Tensor k = pg::slice(qkv, -1, from + hs, from + 2 * hs);
#elif MISTAKE == 6
    const size_t B = x.size(0), NH = block.attn.n_head;
    auto head_of = [&](long third) {   // (B,T,C) -> (B,NH,T,HS) by reshape alone
        pg::Tensor all = pg::reshape(pg::slice(qkv, -1, third * static_cast<long>(C), (third + 1) * static_cast<long>(C)),
                                     {B, NH, T, HS});
        return pg::reshape(pg::slice(all, 1, static_cast<long>(h), static_cast<long>(h + 1)), {B, T, HS});
    };
    pg::Tensor q = head_of(0), k = head_of(1);
#else
    const long from = static_cast<long>(h * HS), to = static_cast<long>((h + 1) * HS);
    pg::Tensor q = pg::slice(qkv, -1, from, to);                       // (B,T,HS)
    pg::Tensor k = pg::slice(qkv, -1, static_cast<long>(C) + from, static_cast<long>(C) + to);
#endif
#if MISTAKE == 4
    pg::Tensor scores = pg::matmul(k, pg::transpose(q, -2, -1)) / std::sqrt(static_cast<float>(HS));
#elif MISTAKE == 3
    pg::Tensor scores = pg::matmul(q, pg::transpose(k, -2, -1)) / std::sqrt(static_cast<float>(C));
#else
    pg::Tensor scores = pg::matmul(q, pg::transpose(k, -2, -1)) / std::sqrt(static_cast<float>(HS));   // (B,T,T)
#endif
    pg::Tensor future = pg::zeros({T, T});
    for (size_t t = 0; t < T; ++t)
#if MISTAKE == 10
        for (size_t s = t; s < T; ++s) future.mutable_data()(t, s) = 1.f;
#else
        for (size_t s = t + 1; s < T; ++s) future.mutable_data()(t, s) = 1.f;
#endif
#if MISTAKE == 1
    return pg::softmax(scores, -1);
#elif MISTAKE == 2
    return pg::softmax(pg::masked_fill(scores, future, -std::numeric_limits<float>::infinity()), -2);
#elif MISTAKE == 7
    return pg::masked_fill(pg::softmax(scores, -1), future, 0.f);
#elif MISTAKE == 9
    pg::Tensor e = pg::exp(pg::masked_fill(scores, future, -std::numeric_limits<float>::infinity()));
    return e / pg::sum(e, -1, true);
#else
    return pg::softmax(pg::masked_fill(scores, future, -std::numeric_limits<float>::infinity()), -1);
#endif
}
