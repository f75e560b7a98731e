// Lesson 17's checks for block_parameter_count and block_forward, shared by starter.cpp,
// solution.cpp and your exercise.cpp. Counts against num_parameters(), the forward against Block.
#pragma once
#include "lesson.hpp"

namespace exercise {
// The number of scalars in one pre-norm block of width C with a 4C MLP (any number of heads).
size_t block_parameter_count(size_t C);
// The block's forward from its parts: h = x + attn(ln1(x)), then h + mlp(ln2(h)).
// x (B,T,C) -> (B,T,C)
pg::Tensor block_forward(pg::nn::Block& block, const pg::Tensor& x);
}  // namespace exercise

// Gives the block's two LayerNorms their own random weights and biases, so that a forward that
// mixes up ln1 and ln2, or leaves one out, no longer matches by luck (both start as ones and zeros).
static void distinguish_norms(pg::nn::Block& block, pg::Generator& gen) {
    for (pg::nn::LayerNorm* ln : {&block.ln1, &block.ln2}) {
        ln->weight.copy_(pg::randn(ln->weight.shape(), gen) * 0.5f + 1.f);
        ln->bias.copy_(pg::randn(ln->bias.shape(), gen) * 0.5f);
    }
}

int main() {
    lesson::Checks checks("17", "transformer_block");
    checks.run("parameter count for C = 8", [] {
        lesson::expect("block_parameter_count(8)", exercise::block_parameter_count(8) == 872, "872",
                       std::to_string(exercise::block_parameter_count(8)),
                       "ln1 and ln2: 2C each; qkv: 3C*C + 3C; proj: C*C + C; fc: 4C*C + 4C; out: C*4C + C");
    });
    checks.run("parameter count against num_parameters() for C = 4, 12, 64, 128", [] {
        for (size_t C : {4, 12, 64, 128}) {
            pg::Generator gen(1);
            pg::nn::Block block(C, 4, 0.f, gen);
            size_t want = block.num_parameters(), got = exercise::block_parameter_count(C);
            lesson::expect("block_parameter_count(" + std::to_string(C) + ")", got == want, std::to_string(want),
                           std::to_string(got),
                           "every Linear here has a bias: out * in + out; the two LayerNorms have a weight and a "
                           "bias of C each");
        }
    });
    checks.run("block_forward against Block::forward, (2,5,8), 2 heads", [] {
        pg::Generator gen(171);
        pg::nn::Block block(8, 2, 0.f, gen);
        distinguish_norms(block, gen);
        pg::Tensor x = pg::randn({2, 5, 8}, gen);
        lesson::expect_near("block_forward", exercise::block_forward(block, x), block.forward(x), 1e-5,
                            "pre-norm: normalise what goes *into* each sublayer, ln1 before attn and ln2 before mlp, "
                            "and add the sublayer's output to the unnormalised stream: h = x + attn(ln1(x)), "
                            "y = h + mlp(ln2(h)), with h (not x) in the second line");
    });
    checks.run("block_forward against Block::forward, (1,3,16), 4 heads", [] {
        pg::Generator gen(172);
        pg::nn::Block block(16, 4, 0.f, gen);
        distinguish_norms(block, gen);
        pg::Tensor x = pg::randn({1, 3, 16}, gen) * 2.f;
        lesson::expect_near("block_forward", exercise::block_forward(block, x), block.forward(x), 1e-5,
                            "call the block's own modules: block.ln1, block.attn, block.ln2, block.mlp");
    });
    checks.run("the gradient reaches x through both residual paths", [] {
        pg::Generator gen(173);
        pg::nn::Block block(8, 2, 0.f, gen);
        pg::Tensor r = pg::randn({1, 4, 8}, gen);
        pg::Tensor x = pg::randn({1, 4, 8}, gen, true);
        pg::sum(block.forward(x) * r).backward();
        pg::Tensor want = x.grad();
        x.zero_grad();
        pg::Tensor y = exercise::block_forward(block, x);
        lesson::expect("block_forward's result", y.requires_grad(), "a tensor that requires grad",
                       "no gradient history", "build it from the modules and + (no pg::tensor(values), no detach)");
        pg::sum(y * r).backward();
        lesson::expect_near("x.grad()", x.grad(), want, 1e-4,
                            "add x itself, not x.detach(): the residual's identity path is what carries the "
                            "gradient straight down (lesson 15)");
    });
    return checks.finish();
}
