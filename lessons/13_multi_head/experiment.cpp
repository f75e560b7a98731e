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
    lesson::section("q, k, v for B = 1, T = 3, C = 4: channels 0-1 are lesson 11's Q, K, V");
    pg::Tensor q = pg::tensor({{{1.f, 1.f, 1.f, 0.f}, {0.f, 1.f, 0.f, 1.f}, {1.f, 2.f, 1.f, 1.f}}});  // (B,T,C)
    pg::Tensor k = pg::tensor({{{1.f, 0.f, 0.f, 1.f}, {1.f, 1.f, 1.f, 0.f}, {2.f, 1.f, 1.f, 1.f}}});
    pg::Tensor v = pg::tensor({{{2.f, 0.f, 1.f, 0.f}, {0.f, 1.f, 0.f, 1.f}, {2.f, 1.f, 1.f, 1.f}}});
    lesson::show("q", q, 0);
    lesson::show("k", k, 0);
    lesson::show("v", v, 0);

    lesson::section("split: (B,T,C) -> reshape (B,T,NH,HS) -> transpose(1, 2) -> (B,NH,T,HS)");
    pg::Tensor q4 = pg::reshape(q, {1, 3, NH, 2});
    lesson::show("reshape(q, (1,3,2,2)): each position's 4 channels as 2 heads of 2", q4, 0);
    pg::Tensor qh = split_heads(q, NH), kh = split_heads(k, NH), vh = split_heads(v, NH);
    lesson::show("transpose(.., 1, 2): q per head", qh, 0);
    lesson::confirm("q's head 0", pg::slice(qh, 1, 0, 1), pg::tensor({1.f, 1.f, 0.f, 1.f, 1.f, 2.f}, {1, 1, 3, 2}), 0.0,
                    "lesson 11's Q");
    lesson::show("k per head", kh, 0);
    lesson::show("v per head", vh, 0);

    lesson::section("attend: every head at once, scale 1/sqrt(HS) = 1/sqrt(2)");
    pg::Tensor scores = pg::matmul(qh, pg::transpose(kh, -2, -1)) * (1.f / std::sqrt(2.f));  // (B,NH,T,T)
    lesson::show("scores per head", scores);
    pg::Tensor later = pg::tensor({{0.f, 1.f, 1.f}, {0.f, 0.f, 1.f}, {0.f, 0.f, 0.f}});  // (T,T), for every head
    pg::Tensor weights = pg::softmax(pg::masked_fill(scores, later, -std::numeric_limits<float>::infinity()), -1);
    lesson::show("weights per head: two patterns", weights);
    pg::Tensor yh = pg::matmul(weights, vh);  // (B,NH,T,HS)
    lesson::show("output per head", yh);
    lesson::confirm("head 0", pg::slice(yh, 1, 0, 1),
                    pg::tensor({2.f, 0.f, 0.6605f, 0.6698f, 1.3886f, 0.9257f}, {1, 1, 3, 2}), 5e-5, "lesson 12's output");

    lesson::section("merge: transpose(1, 2) -> (B,T,NH,HS) -> reshape (B,T,C)");
    pg::Tensor y = merge_heads(yh);
    lesson::show("y", y);
    lesson::confirm("merge(split(q))", merge_heads(qh), q, 0.0, "q itself");

    lesson::section("the same as a loop over heads");
    pg::Tensor y_loop = loop_over_heads(q, k, v, NH);
    lesson::show("concat of head 0 on channels 0-1 and head 1 on channels 2-3", y_loop);
    float d_small = max_abs_diff(y, y_loop);
    std::cout << "  max |heads at once - loop| = " << lesson::num(d_small, 6) << "\n";
    lesson::confirm("the example, heads at once against the loop", d_small, 0.0, 1e-6, "the loop over heads");
    pg::Generator gen(13);
    pg::Tensor Q = pg::randn({2, 5, 8}, gen), K = pg::randn({2, 5, 8}, gen), V = pg::randn({2, 5, 8}, gen);
    pg::Tensor Y = merge_heads(causal_attention(split_heads(Q, 4), split_heads(K, 4), split_heads(V, 4)));
    float d_random = max_abs_diff(Y, loop_over_heads(Q, K, V, 4));
    std::cout << "  random (B,T,C) = (2,5,8) in 4 heads: max |heads at once - loop| = " << lesson::num(d_random, 6)
              << "\n";
    lesson::confirm("heads at once against the loop", d_random, 0.0, 1e-6, "the loop over heads");

    lesson::section("wrong: reshape straight to (B,NH,T,HS), no transpose");
    pg::Tensor wrong = pg::reshape(q, {1, NH, 3, 2});
    lesson::show("reshape(q, (1,2,3,2))", wrong, 0);
    std::cout << "  its head 0 holds position 0's channels 0-1, position 0's channels 2-3, position 1's channels 0-1:\n"
                 "  positions and heads mixed, and no error\n";
    pg::Tensor y_wrong = pg::reshape(
        causal_attention(wrong, pg::reshape(k, {1, NH, 3, 2}), pg::reshape(v, {1, NH, 3, 2})), {1, 3, 4});
    std::cout << "  max |wrong - right| = " << lesson::num(max_abs_diff(y_wrong, y)) << "\n";

    lesson::section("the library's layer: qkv, chunk, split, attend, merge, proj");
    pg::nn::CausalSelfAttention attn(8, 4, 0.f, gen);  // C = 8, NH = 4, HS = 2
    pg::Tensor x = pg::randn({2, 5, 8}, gen);
    std::vector<pg::Tensor> parts = pg::chunk(attn.qkv.forward(x), 3, -1);  // q, k, v each (B,T,C)
    pg::Tensor by_hand = attn.proj.forward(
        merge_heads(causal_attention(split_heads(parts[0], 4), split_heads(parts[1], 4), split_heads(parts[2], 4))));
    float d_layer = max_abs_diff(by_hand, attn.forward(x));
    std::cout << "  max |by hand - attn.forward(x)| = " << lesson::num(d_layer, 6) << "\n";
    lesson::confirm("the layer rebuilt", d_layer, 0.0, 1e-6, "attn.forward(x)");
    std::cout << "  attn.last_attention has shape " << lesson::str(attn.last_attention.shape())
              << ": one (T,T) pattern per batch row and head\n";

    lesson::section("heads cost no parameters: the same Linear C -> 3C whatever NH");
    for (size_t nh : {1, 2, 4, 8}) {
        pg::nn::CausalSelfAttention layer(8, nh, 0.f, gen);
        std::cout << "  C = 8, NH = " << nh << ", HS = " << 8 / nh << ": " << layer.num_parameters()
                  << " parameters, scale 1/sqrt(" << 8 / nh << ") = " << lesson::num(1.0 / std::sqrt(8.0 / nh)) << "\n";
    }
}

int main() { return lesson::run_experiment(run); }
