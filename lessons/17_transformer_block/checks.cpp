// Lesson 17's checks for block_parameter_count and block_forward, shared by starter.cpp,
// solution.cpp and your exercise.cpp. Counts against num_parameters() and the formula's likely
// slips; the forward from the block's four modules (BlockParts, not Block::forward) against Block.
#include "check.hpp"
#include "check_tools.hpp"

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
        return lesson::tr("9C short: every Linear here has a bias, out * in + out scalars (qkv 3C, proj C, fc 4C, out C)",
                          "少了 9C：这里每个 Linear 都有 bias，共 out * in + out 个数（qkv 3C，proj C，fc 4C，out C）");
    if (got == want - 4 * C) return lesson::tr("4C short: the two LayerNorms are missing, ln1 and ln2 have a weight and a bias of C each",
                                               "少了 4C：缺了两个 LayerNorm，ln1 和 ln2 各有一个 C 维的 weight 和一个 C 维的 bias");
    if (got == want - 2 * C) return lesson::tr("2C short: a LayerNorm has a bias too: ln1 and ln2 hold 2C each",
                                               "少了 2C：LayerNorm 也有 bias：ln1 和 ln2 各有 2C 个");
    if (got == want + 3 * C) return lesson::tr("3C too many: out's bias has C entries, one per output (out maps 4C to C)",
                                               "多了 3C：out 的 bias 有 C 个元素，每个输出一个（out 把 4C 映射到 C）");
    if (got == want - 2 * C * C - 2 * C)
        return lesson::tr("2C^2 + 2C short: qkv maps C to 3C (q, k and v in one Linear): 3C*C + 3C",
                          "少了 2C^2 + 2C：qkv 把 C 映射到 3C（q、k 和 v 在同一个 Linear 里）：3C*C + 3C");
    if (got == want % (size_t{1} << 32))
        return lesson::tr("the count overflowed 32 bits (it came out modulo 2^32): compute in size_t, not int or unsigned",
                          "计数溢出了 32 位（结果是对 2^32 取模后的值）：用 size_t 计算，不要用 int 或 unsigned");
    return lesson::tr("ln1 and ln2: 2C each; qkv: 3C*C + 3C; proj: C*C + C; fc: 4C*C + 4C; out: C*4C + C; 12C^2 + 13C in all",
                      "ln1 和 ln2：各 2C；qkv：3C*C + 3C；proj：C*C + C；fc：4C*C + 4C；out：C*4C + C；总共 12C^2 + 13C");
}

inline void expect_count(size_t C, size_t want) {
    static size_t last_C = 0, last_got = 0;  // the previous call: a count that stays put while C changes is a constant
    size_t got = exercise::block_parameter_count(C);
    const bool constant = last_C != 0 && last_C != C && got == last_got;
    const std::string hint =
        constant ? lesson::tr("the same count for C = ", "C = ") + std::to_string(last_C) + lesson::tr(" and C = ", " 和 C = ") +
                       std::to_string(C) + lesson::tr(": the count is a function of C, 12C^2 + 13C, not a number written in",
                                                      " 给出了同一个数：参数个数是 C 的函数 12C^2 + 13C，不是一个写死的数")
                 : count_hint(C, got, want);
    last_C = C, last_got = got;
    lesson::expect("block_parameter_count(" + std::to_string(C) + ")", got == want, std::to_string(want),
                   std::to_string(got), hint);
}

inline bool close(const pg::Tensor& a, const pg::Tensor& b, double tol) {
    if (a.shape() != b.shape()) return false;
    for (size_t i = 0; i < a.numel(); ++i)
        if (!(std::fabs(a.ptr()[i] - b.ptr()[i]) <= tol)) return false;
    return true;
}

// The likely wrong assemblies of the parts: the first one your result equals names the mistake.
inline std::string forward_diagnosis(pg::nn::Block& b, const pg::Tensor& x, const pg::Tensor& got) {
    if (got.shape() != x.shape()) return lesson::tr("a block gives back the stream's shape (B,T,C): both sublayers map C to C",
                                                    "块返回的是残差流的形状 (B,T,C)：两个子层都把 C 映射到 C");
    auto attn = [&](const pg::Tensor& t) { return b.attn.forward(t); };
    auto mlp = [&](const pg::Tensor& t) { return b.mlp.forward(t); };
    auto ln1 = [&](const pg::Tensor& t) { return b.ln1.forward(t); };
    auto ln2 = [&](const pg::Tensor& t) { return b.ln2.forward(t); };
    pg::Tensor h = x + attn(ln1(x));
    struct Slip {
        pg::Tensor y;
        std::string hint;
    };
    pg::Tensor post = ln1(x + attn(x));
    pg::Tensor n1 = ln1(x), h_norm = n1 + attn(n1);
    const Slip slips[] = {
        {ln2(post + mlp(post)),
         lesson::tr("post-norm: you normalised after each addition, ln(x + f(x)); the GPT is pre-norm: normalise what goes "
                    "into each sublayer and add its output to the unnormalised stream, h = x + attn(ln1(x))",
                    "后归一化：你在每次相加之后才做归一化，ln(x + f(x))；GPT 是前归一化：对进入每个子层的东西做归一化，再把子层的输出加到未归一化的残差流上，h = x + attn(ln1(x))")},
        {x + mlp(ln2(h)),
         lesson::tr("the second residual starts from x: y = h + mlp(ln2(h)), with h, so that attention's output stays in "
                    "the stream",
                    "第二个残差是从 x 开始的：应是 y = h + mlp(ln2(h))，用 h，这样注意力的输出才会留在残差流里")},
        {h + mlp(ln2(x)),
         lesson::tr("ln2 reads x, so the MLP never sees what attention wrote: y = h + mlp(ln2(h))",
                    "ln2 读的是 x，所以 MLP 永远看不到注意力写进去的东西：y = h + mlp(ln2(h))")},
        {[&] { pg::Tensor g = x + attn(ln2(x)); return g + mlp(ln1(g)); }(),
         lesson::tr("ln1 and ln2 swapped: ln1 goes before attn, ln2 before mlp (each has its own weights)",
                    "ln1 和 ln2 弄反了：ln1 放在 attn 之前，ln2 放在 mlp 之前（各有各的权重）")},
        {mlp(ln2(attn(ln1(x)))),
         lesson::tr("no residual: each sublayer's output is added to its input, h = x + attn(..), y = h + mlp(..)",
                    "没有残差：每个子层的输出要加到它的输入上，h = x + attn(..)，y = h + mlp(..)")},
        {h_norm + mlp(ln2(h_norm)),
         lesson::tr("the residual adds the normalised stream ln1(x): add x itself, h = x + attn(ln1(x)); only what a "
                    "sublayer reads is normalised",
                    "残差加的是归一化后的流 ln1(x)：应加 x 本身，h = x + attn(ln1(x))；只有子层读入的东西才做归一化")},
        {[&] { pg::Tensor g = x + attn(x); return g + mlp(ln2(g)); }(),
         lesson::tr("ln1 is missing: attention reads the raw stream; h = x + attn(ln1(x))",
                    "缺了 ln1：注意力读的是原始的残差流；h = x + attn(ln1(x))")},
        {[&] { pg::Tensor g = x + attn(ln1(x)); return g + mlp(g); }(),
         lesson::tr("ln2 is missing: the MLP reads the raw stream; y = h + mlp(ln2(h))",
                    "缺了 ln2：MLP 读的是原始的残差流；y = h + mlp(ln2(h))")},
    };
    for (const Slip& s : slips)
        if (close(got, s.y, 1e-5)) return s.hint;
    return lesson::tr("pre-norm: normalise what goes *into* each sublayer, ln1 before attn and ln2 before mlp, and add the "
                      "sublayer's output to the unnormalised stream: h = x + attn(ln1(x)), y = h + mlp(ln2(h))",
                      "前归一化：对*进入*每个子层的东西做归一化，ln1 在 attn 之前，ln2 在 mlp 之前，再把子层的输出加到未归一化的残差流上：h = x + attn(ln1(x))，y = h + mlp(ln2(h))");
}

// Your block_forward, and an answer repeated from an earlier call caught: the same as what it returned for
// an earlier block and input (whose right answer differs) is a constant or a static.
inline pg::Tensor call_forward(pg::nn::Block& block, const pg::Tensor& x) {
    static std::vector<pg::Tensor> earlier;  // what block_forward returned in the checks before
    pg::Tensor got = exercise::block_forward(parts_of(block), x);
    if (lesson::came_back(got, block.forward(x), earlier, 0.0, 1e-5))
        throw lesson::CheckFailed("block_forward",
                                  lesson::tr("an output computed from this call's parts and x", "由这一次调用的部件和 x 算出的输出"),
                                  lesson::tr("the output of an earlier call", "先前一次调用的输出"),
                                  lesson::came_back_hint({"output", "输出"}, {"parts and x", "部件和 x"}));
    return got;
}

inline void expect_forward(const std::string& what, pg::nn::Block& block, const pg::Tensor& x, double tol) {
    pg::Tensor got = call_forward(block, x);
    lesson::expect_near(what, got, block.forward(x), tol, forward_diagnosis(block, x, got));
}

// x.grad() for L = sum(f(x) * r), x a fresh leaf with x's values.
inline pg::Tensor grad_of(const std::function<pg::Tensor(const pg::Tensor&)>& f, const pg::Tensor& x,
                          const pg::Tensor& r) {
    pg::Tensor leaf = x.detach();
    leaf.requires_grad_();
    pg::sum(f(leaf) * r).backward();
    return leaf.grad();
}

// What x.grad() is when a residual adds a detached stream: the first one (x.detach()) or the second (h.detach()).
inline std::string gradient_diagnosis(pg::nn::Block& b, const pg::Tensor& x, const pg::Tensor& r, const pg::Tensor& got) {
    auto detached = [&b](bool first) {
        return [&b, first](const pg::Tensor& t) {
            pg::Tensor h = (first ? t.detach() : t) + b.attn.forward(b.ln1.forward(t));
            return (first ? h : h.detach()) + b.mlp.forward(b.ln2.forward(h));
        };
    };
    return lesson::name_the_mistake(
        got,
        {{[&] { return grad_of(detached(true), x, r); },
          lesson::tr("add x itself, not x.detach(): your x.grad() is the one of h = x.detach() + attn(ln1(x)), which "
                     "loses the residual's identity path, what carries the gradient straight down (lesson 15)",
                     "加 x 本身，而不是 x.detach()：你的 x.grad() 正是 h = x.detach() + attn(ln1(x)) 的梯度，它丢掉了残差的恒等路径，"
                     "而正是这条路径把梯度直接传下去（第 15 课）")},
         {[&] { return grad_of(detached(false), x, r); },
          lesson::tr("add h itself, not h.detach(): your x.grad() is the one of y = h.detach() + mlp(ln2(h)), whose "
                     "second residual passes no gradient down to h and x",
                     "加 h 本身，而不是 h.detach()：你的 x.grad() 正是 y = h.detach() + mlp(ln2(h)) 的梯度，它的第二个残差"
                     "不把梯度传给 h 和 x")}},
        1e-4,
        lesson::tr("your values are right but x.grad() is not: a path from x to the output is cut (a .detach() or a "
                   "copy of values, in a residual or in what a module reads); build the output from x, the four modules "
                   "and + alone",
                   "你的值是对的，x.grad() 却不对：从 x 到输出的某条路径被切断了（在某个残差里，或在某个模块读入的东西里，"
                   "用了 .detach() 或值的副本）；输出只能由 x、四个模块和 + 构成"));
}

}  // namespace check17

int main() {
    using namespace check17;
    lesson::Checks checks("17", "transformer_block");
    checks.run(lesson::tr("parameter count for C = 8", "C = 8 时的参数个数"), [] { expect_count(8, 872); });
    checks.run(lesson::tr("parameter count against num_parameters() for C = 4, 12, 16, 64, 128",
                          "C = 4、12、16、64、128 时的参数个数，与 num_parameters() 对比"), [] {
        for (size_t C : {4, 12, 16, 64, 128}) {
            pg::Generator gen(1);
            pg::nn::Block block(C, 4, 0.f, gen);
            expect_count(C, block.num_parameters());
        }
    });
    checks.run(lesson::tr("parameter count for C = 20480 (Megatron-Turing NLG's width): 5033431040, past 2^32",
                          "C = 20480（Megatron-Turing NLG 的宽度）时的参数个数：5033431040，超过 2^32"), [] {
        expect_count(20480, 5033431040ull);
    });
    checks.run(lesson::tr("block_forward against Block::forward, (2,5,8), 2 heads",
                          "block_forward 与 Block::forward 对比，(2,5,8)，2 个头"), [] {
        pg::Generator gen(171);
        pg::nn::Block block(8, 2, 0.f, gen);
        distinguish_norms(block, gen);
        expect_forward("block_forward", block, pg::randn({2, 5, 8}, gen), 1e-5);
    });
    checks.run(lesson::tr("block_forward against Block::forward, (1,3,16), 4 heads",
                          "block_forward 与 Block::forward 对比，(1,3,16)，4 个头"), [] {
        pg::Generator gen(172);
        pg::nn::Block block(16, 4, 0.f, gen);
        distinguish_norms(block, gen);
        expect_forward("block_forward", block, pg::randn({1, 3, 16}, gen) * 2.f, 1e-5);
    });
    checks.run(lesson::tr("a stream far from 0 (x = 50 + 20 randn): the norms keep the sublayers' inputs tame",
                          "远离 0 的残差流（x = 50 + 20 randn）：归一化让子层的输入保持温和"), [] {
        pg::Generator gen(174);
        pg::nn::Block block(8, 2, 0.f, gen);
        distinguish_norms(block, gen);
        expect_forward("block_forward", block, pg::randn({1, 6, 8}, gen) * 20.f + 50.f, 1e-4);
    });
    checks.run(lesson::tr("the gradient reaches x through both residual paths", "梯度经由两条残差路径到达 x"), [] {
        pg::Generator gen(173);
        pg::nn::Block block(8, 2, 0.f, gen);
        pg::Tensor r = pg::randn({1, 4, 8}, gen);
        pg::Tensor x = pg::randn({1, 4, 8}, gen, true);
        pg::Tensor y = call_forward(block, x);
        lesson::expect_near("block_forward", y, block.forward(x), 1e-5, forward_diagnosis(block, x, y));
        lesson::expect(lesson::tr("block_forward's result", "block_forward 的结果"), y.requires_grad(),
                       lesson::tr("a tensor that requires grad", "一个 requires_grad() 为真的张量"),
                       lesson::tr("no gradient history", "没有梯度历史"),
                       lesson::tr("build it from the modules and + (no pg::tensor(values), no detach)",
                                  "用这些模块和 + 来构建（不要 pg::tensor(values)，不要 detach）"));
        pg::sum(y * r).backward();
        lesson::expect_near_explained("x.grad()", x.grad(), grad_of([&](const pg::Tensor& t) { return block.forward(t); }, x, r),
                                      1e-4, [&] { return gradient_diagnosis(block, x, r, x.grad()); });
    });
    return checks.finish();
}
