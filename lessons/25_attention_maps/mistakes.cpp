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
// mistake 11: the scores never divided by sqrt(HS) => the scores are not scaled
// mistake 12: the next head's columns, h + 1, taken for head h => that is head 1's matrix, not head 0's
// mistake 13: the weights read from attn.last_attention after running attn.forward on the block => these weights have no gradient history
// mistake 14: the first call's weights kept in a static and returned for every call => the answer of an earlier call came back
// Lesson 25's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// They are plausible wrong ways to pull one head's weights out of a block.
#include "check.hpp"
using lesson::mistake;

static pg::Tensor weights_of(const pg::nn::Block& block, const pg::Tensor& x, size_t h);

pg::Tensor exercise::head_attention(const pg::nn::Block& block, const pg::Tensor& x, size_t h) {
    if (mistake(13)) {   // the library's weights of its last forward: (B,NH,T,T), head h taken out
        auto& attn = const_cast<pg::nn::Block&>(block).attn;
        attn.forward(block.ln1.forward(x));
        const size_t B = x.size(0), T = x.size(1);
        const long head = static_cast<long>(h);
        return pg::reshape(pg::slice(attn.last_attention, 1, head, head + 1), {B, T, T});
    }
    if (mistake(14)) {   // the first answer, kept
        static std::vector<pg::Tensor> first;
        if (first.empty()) first.push_back(weights_of(block, x, h));
        return first[0];
    }
    return weights_of(block, x, h);
}

static pg::Tensor weights_of(const pg::nn::Block& block, const pg::Tensor& x, size_t h) {
    const size_t T = x.size(1), C = x.size(2), NH = block.attn.n_head, HS = C / NH;
    if (mistake(12)) h = (h + 1) % NH;   // the next head's columns
    pg::Tensor qkv = block.attn.qkv.forward(mistake(8) ? x : block.ln1.forward(x));   // (B,T,3C)
    // where head h's q and k start along the last axis; mistake 5 reads qkv as [q0 k0 v0 q1 k1 v1 ...]
    const long hs = static_cast<long>(HS), q_from = static_cast<long>(mistake(5) ? 3 * h * HS : h * HS);
    const long k_from = mistake(5) ? q_from + hs : static_cast<long>(C) + q_from;
    pg::Tensor q = pg::slice(qkv, -1, q_from, q_from + hs);           // (B,T,HS)
    pg::Tensor k = pg::slice(qkv, -1, k_from, k_from + hs);
    if (mistake(6)) {
        const size_t B = x.size(0), NH = block.attn.n_head;
        auto head_of = [&](long third) {   // (B,T,C) -> (B,NH,T,HS) by reshape alone
            const long c = static_cast<long>(C);
            pg::Tensor all = pg::reshape(pg::slice(qkv, -1, third * c, (third + 1) * c), {B, NH, T, HS});
            return pg::reshape(pg::slice(all, 1, static_cast<long>(h), static_cast<long>(h + 1)), {B, T, HS});
        };
        q = head_of(0);
        k = head_of(1);
    }
    const pg::Tensor &left = mistake(4) ? k : q, &right = mistake(4) ? q : k;
    pg::Tensor scores = pg::matmul(left, pg::transpose(right, -2, -1)) /
                        std::sqrt(static_cast<float>(mistake(3) ? C : mistake(11) ? 1 : HS));   // (B,T,T)
    const size_t first_hidden = mistake(10) ? 0 : 1;   // the future of t starts at s = t + first_hidden
    pg::Tensor future = pg::zeros({T, T});
    for (size_t t = 0; t < T; ++t)
        for (size_t s = t + first_hidden; s < T; ++s) future.mutable_data()(t, s) = 1.f;
    if (mistake(1)) return pg::softmax(scores, -1);
    if (mistake(7)) return pg::masked_fill(pg::softmax(scores, -1), future, 0.f);
    pg::Tensor masked = pg::masked_fill(scores, future, -std::numeric_limits<float>::infinity());
    if (mistake(9)) {
        pg::Tensor e = pg::exp(masked);
        return e / pg::sum(e, -1, true);
    }
    return pg::softmax(masked, mistake(2) ? -2 : -1);
}
