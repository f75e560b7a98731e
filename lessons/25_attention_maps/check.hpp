// Lesson 25's checks for head_attention, shared by starter.cpp, solution.cpp and your exercise.cpp:
// one head's weights pulled out of a block sum to 1 along each row, are 0 above the diagonal, and all
// heads recombined (att @ v, side by side, proj) give the block's own attention output. A wrong
// answer is named by the likely mistake it equals. Leaves out: dropout (the blocks here have none).
#pragma once
#include <cmath>
#include <limits>
#include <string>
#include <vector>
#include "lesson.hpp"

namespace exercise {
// Head h's attention weights inside `block` for the stream x entering it, from block.ln1,
// block.attn.qkv and block.attn.n_head: row t holds how much position t reads from each position s
// (0 for every s > t). x (B,T,C) -> (B,T,T)
pg::Tensor head_attention(const pg::nn::Block& block, const pg::Tensor& x, size_t h);
}  // namespace exercise

namespace check25 {

// The reference with one thing changed: how each likely wrong answer computes its weights.
struct Variant {
    bool ln1 = true;                       // q and k from ln1(x), not from x
    enum Slice { Head, PerHeadQKV, ReshapeOnly } slice = Head;
    bool swap_qk = false;                  // softmax(k q^T) instead of softmax(q k^T)
    enum Scale { ByHS, ByC, Unscaled } scale = ByHS;
    enum Mask { Future, NoMask, AfterSoftmax } mask = Future;
    long softmax_dim = -1;                 // over the keys s
};

inline pg::Tensor future_mask(size_t T) {   // (T,T), 1 where s > t
    pg::Tensor m = pg::zeros({T, T});
    for (size_t t = 0; t < T; ++t)
        for (size_t s = t + 1; s < T; ++s) m.mutable_data()(t, s) = 1.f;
    return m;
}

// Head h's q or k (which = 0 or 1) or v (2), (B,T,HS), taken from qkv (B,T,3C) as `slice` says.
inline pg::Tensor head_part(const pg::Tensor& qkv, size_t which, size_t h, size_t NH, Variant::Slice slice) {
    const size_t B = qkv.size(0), T = qkv.size(1), C = qkv.size(2) / 3, HS = C / NH;
    auto cols = [&](size_t from) { return pg::slice(qkv, -1, static_cast<long>(from), static_cast<long>(from + HS)); };
    if (slice == Variant::PerHeadQKV) return cols((3 * h + which) * HS);   // as if qkv were [q0 k0 v0 q1 k1 v1 ...]
    if (slice == Variant::ReshapeOnly) {   // (B,T,C) reshaped straight to (B,NH,T,HS), no transpose
        pg::Tensor all = pg::reshape(pg::slice(qkv, -1, static_cast<long>(which * C), static_cast<long>((which + 1) * C)),
                                     {B, NH, T, HS});
        return pg::reshape(pg::slice(all, 1, static_cast<long>(h), static_cast<long>(h + 1)), {B, T, HS});
    }
    return cols(which * C + h * HS);
}

inline pg::Tensor variant_attention(const pg::nn::Block& block, const pg::Tensor& x, size_t h, const Variant& v) {
    const size_t T = x.size(1), C = x.size(2), NH = block.attn.n_head, HS = C / NH;
    pg::Tensor qkv = block.attn.qkv.forward(v.ln1 ? block.ln1.forward(x) : x);   // (B,T,3C)
    pg::Tensor q = head_part(qkv, 0, h, NH, v.slice), k = head_part(qkv, 1, h, NH, v.slice);
    if (v.swap_qk) std::swap(q, k);
    pg::Tensor scores = pg::matmul(q, pg::transpose(k, -2, -1));   // (B,T,T)
    if (v.scale != Variant::Unscaled)
        scores = scores * (1.f / std::sqrt(static_cast<float>(v.scale == Variant::ByHS ? HS : C)));
    const pg::Tensor future = future_mask(T);
    if (v.mask == Variant::Future) scores = pg::masked_fill(scores, future, -std::numeric_limits<float>::infinity());
    pg::Tensor w = pg::softmax(scores, v.softmax_dim);
    return v.mask == Variant::AfterSoftmax ? pg::masked_fill(w, future, 0.f) : w;
}

inline pg::Tensor reference(const pg::nn::Block& block, const pg::Tensor& x, size_t h) {
    return variant_attention(block, x, h, Variant{});
}

inline float max_abs_diff(const pg::Tensor& a, const pg::Tensor& b) {   // NaN counts as a difference
    float m = 0.f;
    for (size_t i = 0; i < a.numel(); ++i) {
        float d = std::fabs(a.ptr()[i] - b.ptr()[i]);
        m = std::isnan(d) ? std::numeric_limits<float>::infinity() : std::max(m, d);
    }
    return m;
}

inline bool close(const pg::Tensor& a, const pg::Tensor& b, double tol = 1e-5) {
    return a.shape() == b.shape() && max_abs_diff(a, b) <= tol;
}

// w[b, t, s] of a (B,T,T) tensor
inline float at(const pg::Tensor& w, size_t b, size_t t, size_t s) {
    const size_t T = w.size(1);
    return w.ptr()[(b * T + t) * T + s];
}

// What the learner's weights `got` for head h equal, in words: the hint of a failed check.
inline std::string diagnosis(const pg::nn::Block& block, const pg::Tensor& x, size_t h, const pg::Tensor& got) {
    const size_t B = x.size(0), T = x.size(1), NH = block.attn.n_head, HS = x.size(2) / NH;
    if (!got.requires_grad())
        return "these weights have no gradient history, so they were not computed here: block.attn.last_attention "
               "is the library's record of its last forward; compute them yourself from block.ln1 and block.attn.qkv";
    if (got.shape() != pg::Shape{B, T, T})
        return "one head's weights are (B,T,T): a row per query t, a column per key s; if you split every head "
               "to (B,NH,T,T), take head h and reshape to (B,T,T)";
    bool nan_first_row = false, nan_later = false;
    for (size_t b = 0; b < B; ++b)
        for (size_t t = 0; t < T; ++t)
            for (size_t s = 0; s < T; ++s)
                if (std::isnan(at(got, b, t, s))) (t == 0 ? nan_first_row : nan_later) = true;
    if (nan_first_row && !nan_later)
        return "NaN in row 0 only: your mask hides the diagonal too, so position 0 sees no key at all (softmax of "
               "nothing but -inf); hide s > t only, each position reads itself";
    if (nan_first_row || nan_later)
        return "NaN: scores in the hundreds overflow exp (exp(89) is inf in float, inf / inf is NaN); subtract each "
               "row's max before exp, or call pg::softmax, which does";
    struct Slip {
        Variant v;
        const char* hint;
    };
    std::vector<Slip> slips;
    auto add = [&](auto change, const char* hint) {
        Variant v;
        change(v);
        slips.push_back({v, hint});
    };
    add([](Variant& v) { v.mask = Variant::NoMask; },
        "the causal mask is missing: row t gives weight to later positions s > t, the future the model must not "
        "see; fill the scores above the diagonal with -inf before the softmax");
    add([](Variant& v) { v.softmax_dim = -2; },
        "softmax over the wrong axis: your columns sum to 1, not your rows; each query's row is a distribution "
        "over the keys, softmax(scores, -1)");
    add([](Variant& v) { v.mask = Variant::AfterSoftmax; },
        "masked after the softmax: zeroing the future afterwards leaves rows that sum to less than 1; fill the "
        "scores with -inf before the softmax, which then shares all the weight among s <= t");
    add([](Variant& v) { v.scale = Variant::ByC; },
        "scaled by 1/sqrt(C): a head's dot products run over its HS = C / NH numbers, so divide by sqrt(HS)");
    add([](Variant& v) { v.scale = Variant::Unscaled; },
        "the scores are not scaled: divide q k^T by sqrt(HS) before the mask and the softmax");
    add([](Variant& v) { v.swap_qk = true; },
        "q and k swapped: the score of query t for key s is q_t . k_s, so softmax(q @ k^T); k @ q^T is the "
        "transposed attention");
    add([](Variant& v) { v.slice = Variant::PerHeadQKV; },
        "qkv's 3C outputs are q for every head, then k, then v (chunk(3) splits them): head h's q is columns "
        "[h*HS, (h+1)*HS), its k the same columns of the second third, C + h*HS on");
    add([](Variant& v) { v.slice = Variant::ReshapeOnly; },
        "reshape (B,T,C) to (B,T,NH,HS) and then transpose to (B,NH,T,HS): reshaping straight to (B,NH,T,HS) mixes "
        "positions of one head with those of another");
    add([](Variant& v) { v.ln1 = false; },
        "ln1 is missing: attention reads the normalised stream, block.ln1.forward(x), and so do q and k");
    for (const Slip& s : slips)
        if (close(got, variant_attention(block, x, h, s.v))) return s.hint;
    for (size_t other = 0; other < NH; ++other)
        if (other != h && close(got, reference(block, x, other)))
            return "that is head " + std::to_string(other) + "'s matrix, not head " + std::to_string(h) +
                   "'s: head h is columns [h*HS, (h+1)*HS) of q and of k, here [" + std::to_string(h * HS) + ", " +
                   std::to_string((h + 1) * HS) + ")";
    return "ln1(x) -> attn.qkv -> head h's q and k (columns h*HS.. of the first and second third) -> q k^T / sqrt(HS) "
           "-> the future (s > t) set to -inf -> softmax over the last axis";
}

// A block whose LayerNorm has weights of its own, so that leaving ln1 out shows.
inline void distinguish_ln1(pg::nn::Block& block, pg::Generator& gen) {
    block.ln1.weight.copy_(pg::randn(block.ln1.weight.shape(), gen) * 0.5f + 1.f);
    block.ln1.bias.copy_(pg::randn(block.ln1.bias.shape(), gen) * 0.5f);
}

inline std::string name(size_t h) { return "head_attention(block, x, " + std::to_string(h) + ")"; }

// The learner's weights for head h, with their origin and shape checked.
inline pg::Tensor weights(const pg::nn::Block& block, const pg::Tensor& x, size_t h) {
    pg::Tensor got = exercise::head_attention(block, x, h);
    const pg::Shape want{x.size(0), x.size(1), x.size(1)};
    if (!got.requires_grad())
        throw lesson::CheckFailed(name(h), "weights computed from the block's modules (with gradient history)",
                                  "a tensor without gradient history", diagnosis(block, x, h, got));
    if (got.shape() != want)
        throw lesson::CheckFailed(name(h) + "'s shape", lesson::str(want), lesson::str(got.shape()),
                                  diagnosis(block, x, h, got));
    return got;
}

inline void expect_rows_sum_to_one(const pg::nn::Block& block, const pg::Tensor& x, size_t h) {
    pg::Tensor got = weights(block, x, h);
    for (size_t b = 0; b < got.size(0); ++b)
        for (size_t t = 0; t < got.size(1); ++t) {
            double sum = 0;
            for (size_t s = 0; s < got.size(2); ++s) sum += at(got, b, t, s);
            if (!(std::fabs(sum - 1.0) <= 1e-5))
                throw lesson::CheckFailed(name(h) + ", row " + std::to_string(t) + " of batch " + std::to_string(b),
                                          "weights summing to 1", "they sum to " + lesson::num(sum, 6),
                                          diagnosis(block, x, h, got));
        }
}

inline void expect_nothing_above_diagonal(const pg::nn::Block& block, const pg::Tensor& x, size_t h) {
    pg::Tensor got = weights(block, x, h);
    for (size_t b = 0; b < got.size(0); ++b)
        for (size_t t = 0; t < got.size(1); ++t)
            for (size_t s = t + 1; s < got.size(2); ++s)
                if (!(at(got, b, t, s) == 0.f))
                    throw lesson::CheckFailed(name(h) + "[" + std::to_string(b) + ", " + std::to_string(t) + ", " +
                                                  std::to_string(s) + "]: query " + std::to_string(t) + " reading key " +
                                                  std::to_string(s),
                                              "0 (a later position)", lesson::num(at(got, b, t, s), 6),
                                              diagnosis(block, x, h, got));
}

// Every head's weights @ its v, the heads side by side again, then proj: what attn.forward returns.
inline void expect_recombined(pg::nn::Block& block, const pg::Tensor& x) {
    const size_t B = x.size(0), T = x.size(1), C = x.size(2), NH = block.attn.n_head;
    pg::Tensor qkv = block.attn.qkv.forward(block.ln1.forward(x));
    std::vector<pg::Tensor> got, outputs;
    for (size_t h = 0; h < NH; ++h) {
        got.push_back(weights(block, x, h));
        outputs.push_back(pg::matmul(got[h], head_part(qkv, 2, h, NH, Variant::Head)));   // (B,T,HS)
    }
    pg::Tensor y = block.attn.proj.forward(pg::concat(outputs, -1));   // (B,T,C)
    pg::Tensor want = block.attn.forward(block.ln1.forward(x));
    if (close(y, want)) return;
    size_t wrong = 0;
    while (wrong + 1 < NH && close(got[wrong], reference(block, x, wrong))) ++wrong;
    throw lesson::CheckFailed("proj(concat over heads of head_attention(block, x, h) @ v_h)",
                              "block.attn.forward(block.ln1.forward(x)), shape " + lesson::str(pg::Shape{B, T, C}),
                              "max |difference| " + lesson::num(max_abs_diff(y, want), 4) + " (head " +
                                  std::to_string(wrong) + "'s weights are the first that differ)",
                              diagnosis(block, x, wrong, got[wrong]));
}

}  // namespace check25

int main() {
    using namespace check25;
    lesson::Checks checks("25", "attention_maps");
    checks.run("head 0 of a (1,4,8) stream, 2 heads: shape (B,T,T), computed from the block's modules", [] {
        pg::Generator gen(251);
        pg::nn::Block block(8, 2, 0.f, gen);
        weights(block, pg::randn({1, 4, 8}, gen), 0);
    });
    checks.run("every row sums to 1: (2,6,8), 2 heads, each head", [] {
        pg::Generator gen(252);
        pg::nn::Block block(8, 2, 0.f, gen);
        distinguish_ln1(block, gen);
        pg::Tensor x = pg::randn({2, 6, 8}, gen);
        for (size_t h = 0; h < 2; ++h) expect_rows_sum_to_one(block, x, h);
    });
    checks.run("zeros above the diagonal: no position reads a later one", [] {
        pg::Generator gen(253);
        pg::nn::Block block(8, 2, 0.f, gen);
        distinguish_ln1(block, gen);
        pg::Tensor x = pg::randn({2, 6, 8}, gen);
        for (size_t h = 0; h < 2; ++h) expect_nothing_above_diagonal(block, x, h);
    });
    checks.run("all 4 heads recombined give the block's attention output: (1,7,16)", [] {
        pg::Generator gen(254);
        pg::nn::Block block(16, 4, 0.f, gen);
        distinguish_ln1(block, gen);
        expect_recombined(block, pg::randn({1, 7, 16}, gen));
    });
    checks.run("recombined again: (3,5,12), 3 heads of HS = 4", [] {
        pg::Generator gen(255);
        pg::nn::Block block(12, 3, 0.f, gen);
        distinguish_ln1(block, gen);
        expect_recombined(block, pg::randn({3, 5, 12}, gen) * 2.f);
    });
    checks.run("one position (T = 1): its only weight, on itself, is 1", [] {
        pg::Generator gen(256);
        pg::nn::Block block(8, 2, 0.f, gen);
        pg::Tensor got = weights(block, pg::randn({2, 1, 8}, gen), 1);
        lesson::expect_near(name(1), got, pg::ones({2, 1, 1}), 1e-6,
                            "a single position sees only itself: the mask hides s > t, never s = t");
    });
    checks.run("sharp attention: qkv's weights times 40, scores in the hundreds", [] {
        pg::Generator gen(257);
        pg::nn::Block block(8, 2, 0.f, gen);
        block.attn.qkv.weight.copy_(block.attn.qkv.weight * 40.f);
        pg::Tensor x = pg::randn({1, 6, 8}, gen);
        for (size_t h = 0; h < 2; ++h) {
            pg::Tensor got = weights(block, x, h), want = reference(block, x, h);
            if (!close(got, want))
                throw lesson::CheckFailed(name(h) + " against the block's own weights", "equal within 1e-5",
                                          "max |difference| " + lesson::num(max_abs_diff(got, want), 4),
                                          diagnosis(block, x, h, got));
        }
    });
    return checks.finish();
}
