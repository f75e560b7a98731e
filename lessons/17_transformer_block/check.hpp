// Lesson 17's checks for block_parameter_count and block_forward, shared by starter.cpp,
// solution.cpp and your exercise.cpp. Counts against num_parameters() and the formula's likely
// slips; the forward from the block's four modules (BlockParts, not Block::forward) against Block.
#pragma once
#include <cmath>
#include <string>
#include "lesson.hpp"

// The four modules of one pg::nn::Block, in the order Block::forward uses them. Your block_forward
// puts them together; Block::forward itself is what you are writing, so calling it here fails.
struct BlockParts {
    const pg::nn::LayerNorm& ln1;        // normalises what attention reads
    pg::nn::CausalSelfAttention& attn;   // (B,T,C) -> (B,T,C); not const: it keeps last_attention
    const pg::nn::LayerNorm& ln2;        // normalises what the MLP reads
    const pg::nn::MLP& mlp;              // (B,T,C) -> (B,T,C)

    // Not Block::forward: block.forward(x) here fails with a hint, since it is the thing to write.
    pg::Tensor forward(const pg::Tensor&) const {
        throw lesson::CheckFailed("block_forward", "the block's forward written from ln1, attn, ln2 and mlp",
                                  "a call of block.forward(x)",
                                  "you called block.forward(x), the library's Block::forward, which is what this "
                                  "exercise writes: h = x + block.attn.forward(block.ln1.forward(x)), then "
                                  "h + block.mlp.forward(block.ln2.forward(h))");
    }
};

inline BlockParts parts_of(pg::nn::Block& b) { return {b.ln1, b.attn, b.ln2, b.mlp}; }

namespace exercise {
// The number of scalars in one pre-norm block of width C with a 4C MLP (any number of heads).
size_t block_parameter_count(size_t C);
// The block's forward from its parts: h = x + attn(ln1(x)), then h + mlp(ln2(h)).
// x (B,T,C) -> (B,T,C)
pg::Tensor block_forward(const BlockParts& block, const pg::Tensor& x);
}  // namespace exercise

namespace check17 {

// Gives the block's two LayerNorms their own random weights and biases, so that a forward that
// mixes up ln1 and ln2, or leaves one out, no longer matches by luck (both start as ones and zeros).
inline void distinguish_norms(pg::nn::Block& block, pg::Generator& gen) {
    for (pg::nn::LayerNorm* ln : {&block.ln1, &block.ln2}) {
        ln->weight.copy_(pg::randn(ln->weight.shape(), gen) * 0.5f + 1.f);
        ln->bias.copy_(pg::randn(ln->bias.shape(), gen) * 0.5f);
    }
}

// The count's likely slip, read from the numbers.
inline std::string count_hint(size_t C, size_t got, size_t want) {
    if (got == want - 9 * C)
        return "9C short: every Linear here has a bias, out * in + out scalars (qkv 3C, proj C, fc 4C, out C)";
    if (got == want - 4 * C) return "4C short: the two LayerNorms are missing, ln1 and ln2 have a weight and a bias of C each";
    if (got == want - 2 * C) return "2C short: a LayerNorm has a bias too: ln1 and ln2 hold 2C each";
    if (got == want + 3 * C) return "3C too many: out's bias has C entries, one per output (out maps 4C to C)";
    if (got == want - 2 * C * C - 2 * C)
        return "2C^2 + 2C short: qkv maps C to 3C (q, k and v in one Linear): 3C*C + 3C";
    if (got == want % (size_t{1} << 32))
        return "the count overflowed 32 bits (it came out modulo 2^32): compute in size_t, not int or unsigned";
    return "ln1 and ln2: 2C each; qkv: 3C*C + 3C; proj: C*C + C; fc: 4C*C + 4C; out: C*4C + C; 12C^2 + 13C in all";
}

inline void expect_count(size_t C, size_t want) {
    size_t got = exercise::block_parameter_count(C);
    lesson::expect("block_parameter_count(" + std::to_string(C) + ")", got == want, std::to_string(want),
                   std::to_string(got), count_hint(C, got, want));
}

inline bool close(const pg::Tensor& a, const pg::Tensor& b, double tol) {
    if (a.shape() != b.shape()) return false;
    for (size_t i = 0; i < a.numel(); ++i)
        if (!(std::fabs(a.ptr()[i] - b.ptr()[i]) <= tol)) return false;
    return true;
}

// The likely wrong assemblies of the parts: the first one your result equals names the mistake.
inline std::string forward_diagnosis(pg::nn::Block& b, const pg::Tensor& x, const pg::Tensor& got) {
    if (got.shape() != x.shape()) return "a block gives back the stream's shape (B,T,C): both sublayers map C to C";
    auto attn = [&](const pg::Tensor& t) { return b.attn.forward(t); };
    auto mlp = [&](const pg::Tensor& t) { return b.mlp.forward(t); };
    auto ln1 = [&](const pg::Tensor& t) { return b.ln1.forward(t); };
    auto ln2 = [&](const pg::Tensor& t) { return b.ln2.forward(t); };
    pg::Tensor h = x + attn(ln1(x));
    struct Slip {
        pg::Tensor y;
        const char* hint;
    };
    pg::Tensor post = ln1(x + attn(x));
    pg::Tensor n1 = ln1(x), h_norm = n1 + attn(n1);
    const Slip slips[] = {
        {ln2(post + mlp(post)),
         "post-norm: you normalised after each addition, ln(x + f(x)); the GPT is pre-norm: normalise what goes "
         "into each sublayer and add its output to the unnormalised stream, h = x + attn(ln1(x))"},
        {x + mlp(ln2(h)),
         "the second residual starts from x: y = h + mlp(ln2(h)), with h, so that attention's output stays in "
         "the stream"},
        {h + mlp(ln2(x)),
         "ln2 reads x, so the MLP never sees what attention wrote: y = h + mlp(ln2(h))"},
        {[&] { pg::Tensor g = x + attn(ln2(x)); return g + mlp(ln1(g)); }(),
         "ln1 and ln2 swapped: ln1 goes before attn, ln2 before mlp (each has its own weights)"},
        {mlp(ln2(attn(ln1(x)))),
         "no residual: each sublayer's output is added to its input, h = x + attn(..), y = h + mlp(..)"},
        {h_norm + mlp(ln2(h_norm)),
         "the residual adds the normalised stream ln1(x): add x itself, h = x + attn(ln1(x)); only what a "
         "sublayer reads is normalised"},
        {[&] { pg::Tensor g = x + attn(x); return g + mlp(ln2(g)); }(),
         "ln1 is missing: attention reads the raw stream; h = x + attn(ln1(x))"},
        {[&] { pg::Tensor g = x + attn(ln1(x)); return g + mlp(g); }(),
         "ln2 is missing: the MLP reads the raw stream; y = h + mlp(ln2(h))"},
    };
    for (const Slip& s : slips)
        if (close(got, s.y, 1e-5)) return s.hint;
    return "pre-norm: normalise what goes *into* each sublayer, ln1 before attn and ln2 before mlp, and add the "
           "sublayer's output to the unnormalised stream: h = x + attn(ln1(x)), y = h + mlp(ln2(h))";
}

inline void expect_forward(const std::string& what, pg::nn::Block& block, const pg::Tensor& x, double tol) {
    pg::Tensor got = exercise::block_forward(parts_of(block), x);
    lesson::expect_near(what, got, block.forward(x), tol, forward_diagnosis(block, x, got));
}

}  // namespace check17

int main() {
    using namespace check17;
    lesson::Checks checks("17", "transformer_block");
    checks.run("parameter count for C = 8", [] { expect_count(8, 872); });
    checks.run("parameter count against num_parameters() for C = 4, 12, 64, 128", [] {
        for (size_t C : {4, 12, 64, 128}) {
            pg::Generator gen(1);
            pg::nn::Block block(C, 4, 0.f, gen);
            expect_count(C, block.num_parameters());
        }
    });
    checks.run("parameter count for C = 20480 (Megatron-Turing NLG's width): 5033431040, past 2^32", [] {
        expect_count(20480, 5033431040ull);
    });
    checks.run("block_forward against Block::forward, (2,5,8), 2 heads", [] {
        pg::Generator gen(171);
        pg::nn::Block block(8, 2, 0.f, gen);
        distinguish_norms(block, gen);
        expect_forward("block_forward", block, pg::randn({2, 5, 8}, gen), 1e-5);
    });
    checks.run("block_forward against Block::forward, (1,3,16), 4 heads", [] {
        pg::Generator gen(172);
        pg::nn::Block block(16, 4, 0.f, gen);
        distinguish_norms(block, gen);
        expect_forward("block_forward", block, pg::randn({1, 3, 16}, gen) * 2.f, 1e-5);
    });
    checks.run("a stream far from 0 (x = 50 + 20 randn): the norms keep the sublayers' inputs tame", [] {
        pg::Generator gen(174);
        pg::nn::Block block(8, 2, 0.f, gen);
        distinguish_norms(block, gen);
        expect_forward("block_forward", block, pg::randn({1, 6, 8}, gen) * 20.f + 50.f, 1e-4);
    });
    checks.run("the gradient reaches x through both residual paths", [] {
        pg::Generator gen(173);
        pg::nn::Block block(8, 2, 0.f, gen);
        pg::Tensor r = pg::randn({1, 4, 8}, gen);
        pg::Tensor x = pg::randn({1, 4, 8}, gen, true);
        pg::sum(block.forward(x) * r).backward();
        pg::Tensor want = x.grad();
        x.zero_grad();
        pg::Tensor y = exercise::block_forward(parts_of(block), x);
        lesson::expect_near("block_forward", y, block.forward(x), 1e-5, forward_diagnosis(block, x, y));
        lesson::expect("block_forward's result", y.requires_grad(), "a tensor that requires grad",
                       "no gradient history", "build it from the modules and + (no pg::tensor(values), no detach)");
        pg::sum(y * r).backward();
        lesson::expect_near("x.grad()", x.grad(), want, 1e-4,
                            "add x itself, not x.detach(): the residual's identity path is what carries the "
                            "gradient straight down (lesson 15)");
    });
    return checks.finish();
}
