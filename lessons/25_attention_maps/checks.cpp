// Lesson 25's checks for head_attention, shared by starter.cpp, solution.cpp and your exercise.cpp:
// one head's weights pulled out of a block sum to 1 along each row, are 0 above the diagonal, and all
// heads recombined (att @ v, side by side, proj) give the block's own attention output. A wrong
// answer is named by the likely mistake it equals. Leaves out: dropout (the blocks here have none).
#include "check.hpp"

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

constexpr double kTol = 1e-5;   // how closely a right answer matches the reference, and a mistake its variant

// w[b, t, s] of a (B,T,T) tensor
inline float at(const pg::Tensor& w, size_t b, size_t t, size_t s) {
    const size_t T = w.size(1);
    return w.ptr()[(b * T + t) * T + s];
}

// What the learner's weights `got` for head h equal, in words: the hint of a failed check.
inline std::string diagnosis(const pg::nn::Block& block, const pg::Tensor& x, size_t h, const pg::Tensor& got) {
    const size_t B = x.size(0), T = x.size(1), NH = block.attn.n_head, HS = x.size(2) / NH;
    if (!got.requires_grad())
        return lesson::tr("these weights have no gradient history, so they were not computed here: block.attn.last_attention "
                          "is the library's record of its last forward; compute them yourself from block.ln1 and block.attn.qkv",
                          "这些权重没有梯度历史，所以它们不是在这里算出来的：block.attn.last_attention 是库对它上一次前向计算的记录；请用 block.ln1 和 block.attn.qkv 自己算");
    if (got.shape() != pg::Shape{B, T, T})
        return lesson::tr("one head's weights are (B,T,T): a row per query t, a column per key s; if you split every head "
                          "to (B,NH,T,T), take head h and reshape to (B,T,T)",
                          "一个头的权重是 (B,T,T)：每个查询 t 一行，每个键 s 一列；如果你把所有头拆成了 (B,NH,T,T)，就取出头 h 并 reshape 成 (B,T,T)");
    bool nan_first_row = false, nan_later = false;
    for (size_t b = 0; b < B; ++b)
        for (size_t t = 0; t < T; ++t)
            for (size_t s = 0; s < T; ++s)
                if (std::isnan(at(got, b, t, s))) (t == 0 ? nan_first_row : nan_later) = true;
    if (nan_first_row && !nan_later)
        return lesson::tr("NaN in row 0 only: your mask hides the diagonal too, so position 0 sees no key at all (softmax of "
                          "nothing but -inf); hide s > t only, each position reads itself",
                          "只有第 0 行是 NaN：你的掩码把对角线也藏起来了，所以位置 0 一个键都看不到（对全是 -inf 的一行做 softmax）；只隐藏 s > t，每个位置都读它自己");
    if (nan_first_row || nan_later)
        return lesson::tr("NaN: scores in the hundreds overflow exp (exp(89) is inf in float, inf / inf is NaN); subtract each "
                          "row's max before exp, or call pg::softmax, which does",
                          "NaN：几百的分数会让 exp 溢出（在 float 里 exp(89) 是 inf，inf / inf 是 NaN）；在 exp 之前减去每一行的最大值，或者调用 pg::softmax，它会这样做");
    std::vector<lesson::Suspect> suspects;
    auto add = [&](auto change, const std::string& hint) {
        Variant v;
        change(v);
        suspects.push_back({[&block, &x, h, v] { return variant_attention(block, x, h, v); }, hint});
    };
    add([](Variant& v) { v.mask = Variant::NoMask; },
        lesson::tr("the causal mask is missing: row t gives weight to later positions s > t, the future the model must not "
                   "see; fill the scores above the diagonal with -inf before the softmax",
                   "缺了因果掩码：第 t 行把权重给了后面的位置 s > t，那是模型不能看的未来；在 softmax 之前把对角线以上的分数填成 -inf"));
    add([](Variant& v) { v.softmax_dim = -2; },
        lesson::tr("softmax over the wrong axis: your columns sum to 1, not your rows; each query's row is a distribution "
                   "over the keys, softmax(scores, -1)",
                   "softmax 沿错了轴：你的列加起来为 1，而不是行；每个查询的那一行是键上的一个分布，softmax(scores, -1)"));
    add([](Variant& v) { v.mask = Variant::AfterSoftmax; },
        lesson::tr("masked after the softmax: zeroing the future afterwards leaves rows that sum to less than 1; fill the "
                   "scores with -inf before the softmax, which then shares all the weight among s <= t",
                   "掩码放在了 softmax 之后：事后把未来清零，留下的各行之和小于 1；在 softmax 之前把分数填成 -inf，softmax 就会把全部权重分给 s <= t"));
    add([](Variant& v) { v.scale = Variant::ByC; },
        lesson::tr("scaled by 1/sqrt(C): a head's dot products run over its HS = C / NH numbers, so divide by sqrt(HS)",
                   "缩放成了 1/sqrt(C)：一个头的点积只对它的 HS = C / NH 个数求和，所以要除以 sqrt(HS)"));
    add([](Variant& v) { v.scale = Variant::Unscaled; },
        lesson::tr("the scores are not scaled: divide q k^T by sqrt(HS) before the mask and the softmax",
                   "分数没有缩放：在掩码和 softmax 之前把 q k^T 除以 sqrt(HS)"));
    add([](Variant& v) { v.swap_qk = true; },
        lesson::tr("q and k swapped: the score of query t for key s is q_t . k_s, so softmax(q @ k^T); k @ q^T is the "
                   "transposed attention",
                   "q 和 k 弄反了：查询 t 对键 s 的分数是 q_t . k_s，所以是 softmax(q @ k^T)；k @ q^T 是转置后的注意力"));
    add([](Variant& v) { v.slice = Variant::PerHeadQKV; },
        lesson::tr("qkv's 3C outputs are q for every head, then k, then v (chunk(3) splits them): head h's q is columns "
                   "[h*HS, (h+1)*HS), its k the same columns of the second third, C + h*HS on",
                   "qkv 的 3C 个输出依次是所有头的 q、然后 k、然后 v（chunk(3) 把它们分开）：头 h 的 q 是第 [h*HS, (h+1)*HS) 列，它的 k 是第二个三分之一里同样的列，从 C + h*HS 开始"));
    add([](Variant& v) { v.slice = Variant::ReshapeOnly; },
        lesson::tr("reshape (B,T,C) to (B,T,NH,HS) and then transpose to (B,NH,T,HS): reshaping straight to (B,NH,T,HS) mixes "
                   "positions of one head with those of another",
                   "先把 (B,T,C) reshape 成 (B,T,NH,HS)，再转置成 (B,NH,T,HS)：直接 reshape 成 (B,NH,T,HS) 会把一个头的位置和另一个头的混在一起"));
    add([](Variant& v) { v.ln1 = false; },
        lesson::tr("ln1 is missing: attention reads the normalised stream, block.ln1.forward(x), and so do q and k",
                   "缺了 ln1：注意力读的是归一化后的残差流 block.ln1.forward(x)，q 和 k 也是"));
    for (size_t other = 0; other < NH; ++other)
        if (other != h)
            suspects.push_back({[&block, &x, other] { return reference(block, x, other); },
                             lesson::tr("that is head ", "那是头 ") + std::to_string(other) +
                                 lesson::tr("'s matrix, not head ", " 的矩阵，不是头 ") + std::to_string(h) +
                                 lesson::tr("'s: head h is columns [h*HS, (h+1)*HS) of q and of k, here [",
                                            " 的：头 h 是 q 和 k 的第 [h*HS, (h+1)*HS) 列，这里是 [") +
                                 std::to_string(h * HS) + ", " + std::to_string((h + 1) * HS) + ")"});
    const std::string steps = lesson::tr(
        "ln1(x) -> attn.qkv -> head h's q and k (columns h*HS.. of the first and second third) -> q k^T / sqrt(HS) "
        "-> the future (s > t) set to -inf -> softmax over the last axis",
        "ln1(x) -> attn.qkv -> 头 h 的 q 和 k（第一个和第二个三分之一里从 h*HS 起的列）-> q k^T / sqrt(HS) -> 把未来（s > t）设为 -inf -> 沿最后一个轴做 softmax");
    return lesson::name_the_mistake(got, suspects, kTol, steps);
}

// A block whose LayerNorm has weights of its own, so that leaving ln1 out shows.
inline void distinguish_ln1(pg::nn::Block& block, pg::Generator& gen) {
    block.ln1.weight.copy_(pg::randn(block.ln1.weight.shape(), gen) * 0.5f + 1.f);
    block.ln1.bias.copy_(pg::randn(block.ln1.bias.shape(), gen) * 0.5f);
}

inline std::string name(size_t h) { return "head_attention(block, x, " + std::to_string(h) + ")"; }

// The learner's weights for head h, with their origin and shape checked, and checked against every
// earlier call's answer: the same weights for another input are a saved (static) answer come back.
inline pg::Tensor weights(const pg::nn::Block& block, const pg::Tensor& x, size_t h) {
    static std::vector<pg::Tensor> earlier;   // the answers of earlier calls, copied
    pg::Tensor got = exercise::head_attention(block, x, h);
    const pg::Shape want{x.size(0), x.size(1), x.size(1)};
    if (lesson::came_back(got, reference(block, x, h), earlier, 0.0, kTol))
        throw lesson::CheckFailed(name(h),
                                  lesson::tr("head " + std::to_string(h) + "'s weights for this block and this x, " +
                                                 lesson::str(want),
                                             "这个块、这个 x 上头 " + std::to_string(h) + " 的权重，" + lesson::str(want)),
                                  lesson::tr("exactly the weights an earlier call returned for another input, ",
                                             "和之前一次用别的输入调用时返回的权重一模一样，") +
                                      lesson::str(got.shape()),
                                  lesson::tr("the answer of an earlier call came back: a static or saved result is returned "
                                             "again; compute the weights on every call from this block and this x",
                                             "之前一次调用的答案又被返回了：返回的是一个 static 或保存下来的结果；每次调用都要用这一次的 block 和 x 重新算权重"));
    if (!got.requires_grad())
        throw lesson::CheckFailed(name(h),
                                  lesson::tr("weights computed from the block's modules (with gradient history)",
                                             "用块的模块算出的权重（带梯度历史）"),
                                  lesson::tr("a tensor without gradient history", "一个没有梯度历史的张量"),
                                  diagnosis(block, x, h, got));
    if (got.shape() != want)
        throw lesson::CheckFailed(name(h) + lesson::tr("'s shape", " 的形状"), lesson::str(want), lesson::str(got.shape()),
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
                throw lesson::CheckFailed(lesson::tr(name(h) + ", row " + std::to_string(t) + " of batch " + std::to_string(b),
                                                     name(h) + "，第 " + std::to_string(b) + " 批的第 " + std::to_string(t) + " 行"),
                                          lesson::tr("weights summing to 1", "加起来为 1 的权重"),
                                          lesson::tr("they sum to ", "它们加起来是 ") + lesson::num(sum, 6),
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
                                                  std::to_string(s) + "]: " +
                                                  lesson::tr("query " + std::to_string(t) + " reading key " + std::to_string(s),
                                                             "查询 " + std::to_string(t) + " 读取键 " + std::to_string(s)),
                                              lesson::tr("0 (a later position)", "0（后面的位置）"), lesson::num(at(got, b, t, s), 6),
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
    if (lesson::near(y, want, kTol)) return;
    size_t wrong = 0;
    while (wrong + 1 < NH && lesson::near(got[wrong], reference(block, x, wrong), kTol)) ++wrong;
    throw lesson::CheckFailed(lesson::tr("proj(concat over heads of head_attention(block, x, h) @ v_h)",
                                         "proj(对各个头拼接 head_attention(block, x, h) @ v_h)"),
                              "block.attn.forward(block.ln1.forward(x))" + lesson::tr(", shape ", "，形状 ") +
                                  lesson::str(pg::Shape{B, T, C}),
                              lesson::tr("max |difference| ", "最大 |差值| ") + lesson::num(lesson::max_abs_diff(y, want), 4) +
                                  lesson::tr(" (head ", "（头 ") + std::to_string(wrong) +
                                  lesson::tr("'s weights are the first that differ)", " 的权重是第一个不同的）"),
                              diagnosis(block, x, wrong, got[wrong]));
}

}  // namespace check25

int main() {
    using namespace check25;
    lesson::Checks checks("25", "attention_maps");
    checks.run(lesson::tr("head 0 of a (1,4,8) stream, 2 heads: shape (B,T,T), computed from the block's modules",
                          "(1,4,8) 残差流的头 0，共 2 个头：形状 (B,T,T)，用块的模块算出"), [] {
        pg::Generator gen(251);
        pg::nn::Block block(8, 2, 0.f, gen);
        weights(block, pg::randn({1, 4, 8}, gen), 0);
    });
    checks.run(lesson::tr("every row sums to 1: (2,6,8), 2 heads, each head", "每一行加起来为 1：(2,6,8)，2 个头，每个头都查"), [] {
        pg::Generator gen(252);
        pg::nn::Block block(8, 2, 0.f, gen);
        distinguish_ln1(block, gen);
        pg::Tensor x = pg::randn({2, 6, 8}, gen);
        for (size_t h = 0; h < 2; ++h) expect_rows_sum_to_one(block, x, h);
    });
    checks.run(lesson::tr("zeros above the diagonal: no position reads a later one", "对角线以上全是 0：没有位置读取它后面的位置"), [] {
        pg::Generator gen(253);
        pg::nn::Block block(8, 2, 0.f, gen);
        distinguish_ln1(block, gen);
        pg::Tensor x = pg::randn({2, 6, 8}, gen);
        for (size_t h = 0; h < 2; ++h) expect_nothing_above_diagonal(block, x, h);
    });
    checks.run(lesson::tr("all 4 heads recombined give the block's attention output: (1,7,16)",
                          "4 个头重新组合后给出块的注意力输出：(1,7,16)"), [] {
        pg::Generator gen(254);
        pg::nn::Block block(16, 4, 0.f, gen);
        distinguish_ln1(block, gen);
        expect_recombined(block, pg::randn({1, 7, 16}, gen));
    });
    checks.run(lesson::tr("recombined again: (3,5,12), 3 heads of HS = 4", "再组合一次：(3,5,12)，3 个 HS = 4 的头"), [] {
        pg::Generator gen(255);
        pg::nn::Block block(12, 3, 0.f, gen);
        distinguish_ln1(block, gen);
        expect_recombined(block, pg::randn({3, 5, 12}, gen) * 2.f);
    });
    checks.run(lesson::tr("one position (T = 1): its only weight, on itself, is 1",
                          "只有一个位置（T = 1）：它唯一的权重，放在它自己身上，是 1"), [] {
        pg::Generator gen(256);
        pg::nn::Block block(8, 2, 0.f, gen);
        pg::Tensor got = weights(block, pg::randn({2, 1, 8}, gen), 1);
        lesson::expect_near(name(1), got, pg::ones({2, 1, 1}), 1e-6,
                            lesson::tr("a single position sees only itself: the mask hides s > t, never s = t",
                                       "单独一个位置只看得到它自己：掩码隐藏的是 s > t，从不隐藏 s = t"));
    });
    checks.run(lesson::tr("sharp attention: qkv's weights times 40, scores in the hundreds",
                          "尖锐的注意力：qkv 的权重乘以 40，分数达到几百"), [] {
        pg::Generator gen(257);
        pg::nn::Block block(8, 2, 0.f, gen);
        block.attn.qkv.weight.copy_(block.attn.qkv.weight * 40.f);
        pg::Tensor x = pg::randn({1, 6, 8}, gen);
        for (size_t h = 0; h < 2; ++h) {
            pg::Tensor got = weights(block, x, h), want = reference(block, x, h);
            if (!lesson::near(got, want, kTol))
                throw lesson::CheckFailed(name(h) + lesson::tr(" against the block's own weights", " 与块自己的权重对比"),
                                          lesson::tr("equal within 1e-5", "在 1e-5 以内相等"),
                                          lesson::tr("max |difference| ", "最大 |差值| ") + lesson::num(lesson::max_abs_diff(got, want), 4),
                                          diagnosis(block, x, h, got));
        }
    });
    return checks.finish();
}
