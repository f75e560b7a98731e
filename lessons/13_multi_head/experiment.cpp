// Lesson 13 experiment: two heads side by side. q, k, v (B,T,C) split into (B,NH,T,HS), each head
// attending on its own, merged back to (B,T,C); equal to a loop over heads; the library's layer rebuilt.
#include <cmath>
#include <iostream>
#include "causal.hpp"
#include "lesson.hpp"

static float max_abs_diff(const pg::Tensor& a, const pg::Tensor& b) {
    float d = 0.f;
    for (size_t i = 0; i < a.numel(); ++i) d = std::max(d, std::fabs(a.ptr()[i] - b.ptr()[i]));
    return d;
}

// (B,T,C) -> (B,NH,T,HS): cut each position's C channels into NH groups, then put the heads in front.
static pg::Tensor split_heads(const pg::Tensor& x, size_t NH) {
    size_t B = x.size(0), T = x.size(1), C = x.size(2);
    return pg::transpose(pg::reshape(x, {B, T, NH, C / NH}), 1, 2);
}

// (B,NH,T,HS) -> (B,T,C): the heads' outputs side by side again.
static pg::Tensor merge_heads(const pg::Tensor& y) {
    size_t B = y.size(0), NH = y.size(1), T = y.size(2), HS = y.size(3);
    return pg::reshape(pg::transpose(y, 1, 2), {B, T, NH * HS});
}

// The same attention one head at a time: head h is channels [h*HS, (h+1)*HS) of q, k and v.
static pg::Tensor loop_over_heads(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v, size_t NH) {
    long HS = static_cast<long>(q.size(-1) / NH);
    std::vector<pg::Tensor> outs;
    for (long h = 0; h < static_cast<long>(NH); ++h)
        outs.push_back(causal_attention(pg::slice(q, -1, h * HS, (h + 1) * HS), pg::slice(k, -1, h * HS, (h + 1) * HS),
                                        pg::slice(v, -1, h * HS, (h + 1) * HS)));  // (B,T,HS)
    return pg::concat(outs, -1);                                                    // (B,T,C)
}

static void run() {
    const size_t NH = 2;
    lesson::section(lesson::tr("q, k, v for B = 1, T = 3, C = 4: channels 0-1 are lesson 11's Q, K, V", "B = 1、T = 3、C = 4 的 q、k、v：通道 0-1 是第 11 课的 Q、K、V"));
    pg::Tensor q = pg::tensor({{{1.f, 1.f, 1.f, 0.f}, {0.f, 1.f, 0.f, 1.f}, {1.f, 2.f, 1.f, 1.f}}});  // (B,T,C)
    pg::Tensor k = pg::tensor({{{1.f, 0.f, 0.f, 1.f}, {1.f, 1.f, 1.f, 0.f}, {2.f, 1.f, 1.f, 1.f}}});
    pg::Tensor v = pg::tensor({{{2.f, 0.f, 1.f, 0.f}, {0.f, 1.f, 0.f, 1.f}, {2.f, 1.f, 1.f, 1.f}}});
    lesson::show("q", q, 0);
    lesson::show("k", k, 0);
    lesson::show("v", v, 0);

    lesson::section(lesson::tr("split: (B,T,C) -> reshape (B,T,NH,HS) -> transpose(1, 2) -> (B,NH,T,HS)", "拆分：(B,T,C) -> reshape (B,T,NH,HS) -> transpose(1, 2) -> (B,NH,T,HS)"));
    pg::Tensor q4 = pg::reshape(q, {1, 3, NH, 2});
    lesson::show(lesson::tr("reshape(q, (1,3,2,2)): each position's 4 channels as 2 heads of 2", "reshape(q, (1,3,2,2))：每个位置的 4 个通道分成 2 个头、每头 2 个"), q4, 0);
    pg::Tensor qh = split_heads(q, NH), kh = split_heads(k, NH), vh = split_heads(v, NH);
    lesson::show(lesson::tr("transpose(.., 1, 2): q per head", "transpose(.., 1, 2)：每个头的 q"), qh, 0);
    lesson::confirm(lesson::tr("q's head 0", "q 的头 0"), pg::slice(qh, 1, 0, 1), pg::tensor({1.f, 1.f, 0.f, 1.f, 1.f, 2.f}, {1, 1, 3, 2}), 0.0,
                    lesson::tr("lesson 11's Q", "第 11 课的 Q"));
    lesson::show(lesson::tr("k per head", "每个头的 k"), kh, 0);
    lesson::show(lesson::tr("v per head", "每个头的 v"), vh, 0);

    lesson::section(lesson::tr("attend: every head at once, scale 1/sqrt(HS) = 1/sqrt(2)", "注意力：所有头一次算完，缩放 1/sqrt(HS) = 1/sqrt(2)"));
    pg::Tensor scores = pg::matmul(qh, pg::transpose(kh, -2, -1)) * (1.f / std::sqrt(2.f));  // (B,NH,T,T)
    lesson::show(lesson::tr("scores per head", "每个头的分数"), scores);
    pg::Tensor later = pg::tensor({{0.f, 1.f, 1.f}, {0.f, 0.f, 1.f}, {0.f, 0.f, 0.f}});  // (T,T), for every head
    pg::Tensor weights = pg::softmax(pg::masked_fill(scores, later, -std::numeric_limits<float>::infinity()), -1);
    lesson::show(lesson::tr("weights per head: two patterns", "每个头的权重：两种模式"), weights);
    pg::Tensor yh = pg::matmul(weights, vh);  // (B,NH,T,HS)
    lesson::show(lesson::tr("output per head", "每个头的输出"), yh);
    lesson::confirm(lesson::tr("head 0", "头 0"), pg::slice(yh, 1, 0, 1),
                    pg::tensor({2.f, 0.f, 0.6605f, 0.6698f, 1.3886f, 0.9257f}, {1, 1, 3, 2}), 5e-5, lesson::tr("lesson 12's output", "第 12 课的输出"));

    lesson::section(lesson::tr("merge: transpose(1, 2) -> (B,T,NH,HS) -> reshape (B,T,C)", "合并：transpose(1, 2) -> (B,T,NH,HS) -> reshape (B,T,C)"));
    pg::Tensor y = merge_heads(yh);
    lesson::show("y", y);
    lesson::confirm("merge(split(q))", merge_heads(qh), q, 0.0, lesson::tr("q itself", "q 本身"));

    lesson::section(lesson::tr("the same as a loop over heads", "与对头做循环相同"));
    pg::Tensor y_loop = loop_over_heads(q, k, v, NH);
    lesson::show(lesson::tr("concat of head 0 on channels 0-1 and head 1 on channels 2-3", "拼接：头 0 放在通道 0-1，头 1 放在通道 2-3"), y_loop);
    float d_small = max_abs_diff(y, y_loop);
    std::cout << lesson::tr("  max |heads at once - loop| = ", "  最大 |一次算完 - 循环| = ") << lesson::num(d_small, 6) << "\n";
    lesson::confirm(lesson::tr("the example, heads at once against the loop", "例子：所有头一次算完与循环对比"), d_small, 0.0, 1e-6, lesson::tr("the loop over heads", "对头的循环"));
    pg::Generator gen(13);
    pg::Tensor Q = pg::randn({2, 5, 8}, gen), K = pg::randn({2, 5, 8}, gen), V = pg::randn({2, 5, 8}, gen);
    pg::Tensor Y = merge_heads(causal_attention(split_heads(Q, 4), split_heads(K, 4), split_heads(V, 4)));
    float d_random = max_abs_diff(Y, loop_over_heads(Q, K, V, 4));
    std::cout << lesson::tr("  random (B,T,C) = (2,5,8) in 4 heads: max |heads at once - loop| = ",
                             "  随机的 (B,T,C) = (2,5,8) 分成 4 个头：最大 |一次算完 - 循环| = ") << lesson::num(d_random, 6)
              << "\n";
    lesson::confirm(lesson::tr("heads at once against the loop", "所有头一次算完与循环对比"), d_random, 0.0, 1e-6, lesson::tr("the loop over heads", "对头的循环"));

    lesson::section(lesson::tr("wrong: reshape straight to (B,NH,T,HS), no transpose", "错误：直接 reshape 成 (B,NH,T,HS)，不转置"));
    pg::Tensor wrong = pg::reshape(q, {1, NH, 3, 2});
    lesson::show("reshape(q, (1,2,3,2))", wrong, 0);
    std::cout << lesson::tr("  its head 0 holds position 0's channels 0-1, position 0's channels 2-3, position 1's channels 0-1:\n"
                 "  positions and heads mixed, and no error\n",
                 "  它的头 0 装的是位置 0 的通道 0-1、位置 0 的通道 2-3、位置 1 的通道 0-1：\n"
                 "  位置和头混在一起，而且不报错\n");
    pg::Tensor y_wrong = pg::reshape(
        causal_attention(wrong, pg::reshape(k, {1, NH, 3, 2}), pg::reshape(v, {1, NH, 3, 2})), {1, 3, 4});
    std::cout << lesson::tr("  max |wrong - right| = ", "  最大 |错误 - 正确| = ") << lesson::num(max_abs_diff(y_wrong, y)) << "\n";

    lesson::section(lesson::tr("the library's layer: qkv, chunk, split, attend, merge, proj", "库里的注意力层：qkv、chunk、拆分、注意力、合并、proj"));
    pg::nn::CausalSelfAttention attn(8, 4, 0.f, gen);  // C = 8, NH = 4, HS = 2
    pg::Tensor x = pg::randn({2, 5, 8}, gen);
    std::vector<pg::Tensor> parts = pg::chunk(attn.qkv.forward(x), 3, -1);  // q, k, v each (B,T,C)
    pg::Tensor by_hand = attn.proj.forward(
        merge_heads(causal_attention(split_heads(parts[0], 4), split_heads(parts[1], 4), split_heads(parts[2], 4))));
    float d_layer = max_abs_diff(by_hand, attn.forward(x));
    std::cout << lesson::tr("  max |by hand - attn.forward(x)| = ", "  最大 |手搭 - attn.forward(x)| = ") << lesson::num(d_layer, 6) << "\n";
    lesson::confirm(lesson::tr("the layer rebuilt", "重建的注意力层"), d_layer, 0.0, 1e-6, "attn.forward(x)");
    std::cout << lesson::tr("  attn.last_attention has shape ", "  attn.last_attention 的形状是 ") << lesson::str(attn.last_attention.shape())
              << lesson::tr(": one (T,T) pattern per batch row and head\n", "：每个批次行、每个头一张 (T,T) 模式\n");

    lesson::section(lesson::tr("heads cost no parameters: the same Linear C -> 3C whatever NH", "多头不增加参数：无论 NH 多少，都是同一个 Linear C -> 3C"));
    for (size_t nh : {1, 2, 4, 8}) {
        pg::nn::CausalSelfAttention layer(8, nh, 0.f, gen);
        std::cout << "  C = 8, NH = " << nh << ", HS = " << 8 / nh << ": " << layer.num_parameters()
                  << lesson::tr(" parameters, scale 1/sqrt(", " 个参数，缩放 1/sqrt(") << 8 / nh << ") = " << lesson::num(1.0 / std::sqrt(8.0 / nh)) << "\n";
    }
}

int main() { return lesson::run_experiment(run); }
