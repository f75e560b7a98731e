// Lesson 13's checks for split_heads and merge_heads, shared by starter.cpp, solution.cpp and your
// exercise.cpp: the lesson's example, inputs whose every value names its place (so a wrong result
// tells which numbers it moved where), round trips, the gradient, the library's layer rebuilt.
#include "check.hpp"
#include "check_tools.hpp"

namespace check13 {

// The hints that name a wrong split or merge, in the learner's language.
inline std::string split_no_transpose() {
    return lesson::tr(
        "your heads are x's memory cut in order: you reshaped straight to (B,NH,T,HS), without the transpose, so "
        "head 0 holds position 0's channels and then position 1's; reshape to (B,T,NH,HS) first, then swap dims 1 "
        "and 2 with pg::transpose",
        "你的头是把 x 的内存按顺序切开得到的：你直接 reshape 成了 (B,NH,T,HS)，没有转置，所以头 0 装的是位置 0 "
        "的通道，然后是位置 1 的；先 reshape 成 (B,T,NH,HS)，再用 pg::transpose 交换第 1 维和第 2 维");
}
inline std::string split_interleaved() {
    return lesson::tr(
        "head h got channels h, h+NH, h+2NH, ... (every NH-th channel): you reshaped to (B,T,HS,NH); head h owns the "
        "HS channels in a row, h*HS .. h*HS+HS-1: reshape to (B,T,NH,HS), then transpose(1, 2)",
        "头 h 拿到的是通道 h、h+NH、h+2NH、……（每隔 NH 个取一个通道）：你 reshape 成了 (B,T,HS,NH)；头 h 拥有的是"
        "连续的 HS 个通道，h*HS .. h*HS+HS-1：reshape 成 (B,T,NH,HS)，再 transpose(1, 2)");
}
inline std::string split_swapped() {
    return lesson::tr(
        "your result is (B,HS,T,NH): n_head and HS swapped in the reshape; reshape to (B,T,n_head,C/n_head), "
        "then transpose(1, 2)",
        "你的结果是 (B,HS,T,NH)：reshape 时把 n_head 和 HS 弄反了；reshape 成 (B,T,n_head,C/n_head)，"
        "再 transpose(1, 2)");
}
inline std::string split_starts_at_h() {
    return lesson::tr(
        "head h starts at channel h, so the heads overlap: head h's channels start at h*HS, pg::slice(x, -1, h*HS, "
        "(h+1)*HS)",
        "头 h 从通道 h 开始，于是各个头互相重叠：头 h 的通道从 h*HS 开始，pg::slice(x, -1, h*HS, "
        "(h+1)*HS)");
}
inline std::string merge_no_transpose() {
    return lesson::tr(
        "you merged without the transpose: reshape alone lays head 0's T rows side by side; swap dims 1 and 2 back "
        "to (B,T,NH,HS) with pg::transpose first, then reshape to (B,T,NH*HS)",
        "你合并时没有转置：只做 reshape 会把头 0 的 T 行并排摆在一起；先用 pg::transpose 把第 1 维和第 2 维换回 "
        "(B,T,NH,HS)，再 reshape 成 (B,T,NH*HS)");
}
inline std::string merge_interleaved() {
    return lesson::tr(
        "head h's channels landed at h, h+NH, h+2NH, ...: you put HS before NH; transpose(1, 2) gives (B,T,NH,HS), "
        "and the reshape then puts head h at channels h*HS .. h*HS+HS-1",
        "头 h 的通道落在了 h、h+NH、h+2NH、……：你把 HS 放在了 NH 前面；transpose(1, 2) 得到 (B,T,NH,HS)，"
        "随后的 reshape 就会把头 h 放到通道 h*HS .. h*HS+HS-1");
}
inline std::string merge_dims23() {
    return lesson::tr(
        "you swapped dims 2 and 3 (T and HS) instead of 1 and 2 (NH and T): merge undoes split's transpose(1, 2)",
        "你交换的是第 2 维和第 3 维（T 和 HS），而不是第 1 维和第 2 维（NH 和 T）：合并要撤销拆分的 transpose(1, 2)");
}
inline std::string merge_sizes() {
    return lesson::tr(
        "your result is (B,NH,T*HS): the sizes read as if y were (B,T,NH,HS); y is (B,NH,T,HS): NH = y.size(1), "
        "T = y.size(2), HS = y.size(3), and the result is (B,T,NH*HS)",
        "你的结果是 (B,NH,T*HS)：读尺寸时把 y 当成了 (B,T,NH,HS)；y 是 (B,NH,T,HS)：NH = y.size(1)，"
        "T = y.size(2)，HS = y.size(3)，结果是 (B,T,NH*HS)");
}

inline bool same(const pg::Tensor& a, const pg::Tensor& b) { return lesson::near(a, b, 0.0); }   // exactly

// A tensor whose every value names its place: 1000 b + 100 i + 10 j + k for (b, i, j, k) (all < 10).
inline pg::Tensor labelled(const pg::Shape& s) {
    std::vector<float> v;
    for (size_t b = 0; b < s[0]; ++b)
        for (size_t i = 0; i < s[1]; ++i)
            for (size_t j = 0; j < s[2]; ++j)
                if (s.size() == 3) {
                    v.push_back(static_cast<float>(1000 * b + 100 * i + j));
                } else {
                    for (size_t k = 0; k < s[3]; ++k) v.push_back(static_cast<float>(1000 * b + 100 * i + 10 * j + k));
                }
    return pg::tensor(v, s);
}

inline pg::Tensor split_with_ops(const pg::Tensor& x, size_t NH) {
    return pg::transpose(pg::reshape(x, {x.size(0), x.size(1), NH, x.size(2) / NH}), 1, 2);
}

inline pg::Tensor merge_with_ops(const pg::Tensor& y) {
    return pg::reshape(pg::transpose(y, 1, 2), {y.size(0), y.size(2), y.size(1) * y.size(3)});
}

// What the likely wrong splits of x give: the first one your result equals names the mistake.
inline std::string split_diagnosis(const pg::Tensor& x, size_t NH, const pg::Tensor& got) {
    size_t B = x.size(0), T = x.size(1), C = x.size(2), HS = C / NH;
    if (HS != NH && got.shape() == pg::Shape{B, HS, T, NH}) return split_swapped();
    if (got.shape() != pg::Shape{B, NH, T, HS})
        return lesson::tr("split_heads returns (B,NH,T,HS), here ", "split_heads 返回 (B,NH,T,HS)，这里是 ") +
               lesson::str(pg::Shape{B, NH, T, HS}) +
               lesson::tr(": reshape to (B,T,NH,HS), then pg::transpose(.., 1, 2)",
                          "：先 reshape 成 (B,T,NH,HS)，再 pg::transpose(.., 1, 2)");
    if (same(got, pg::reshape(x, {B, NH, T, HS}))) return split_no_transpose();
    if (same(got, pg::permute(pg::reshape(x, {B, T, HS, NH}), {0, 3, 1, 2}))) return split_interleaved();
    std::vector<pg::Tensor> heads;
    for (long h = 0; h < static_cast<long>(NH); ++h)
        heads.push_back(pg::reshape(pg::slice(x, -1, h, h + static_cast<long>(HS)), {B, 1, T, HS}));
    if (same(got, pg::concat(heads, 1))) return split_starts_at_h();
    return lesson::tr("head h of position t is channels h*HS .. h*HS+HS-1 of x[b][t] (HS = C / n_head): reshape to "
                      "(B,T,NH,HS), then swap dims 1 and 2",
                      "位置 t 的头 h 是 x[b][t] 的通道 h*HS .. h*HS+HS-1（HS = C / n_head）：先 reshape 成 "
                      "(B,T,NH,HS)，再交换第 1 维和第 2 维");
}

inline std::string merge_diagnosis(const pg::Tensor& y, const pg::Tensor& got) {
    size_t B = y.size(0), NH = y.size(1), T = y.size(2), HS = y.size(3);
    if (NH != T && got.shape() == pg::Shape{B, NH, T * HS}) return merge_sizes();
    if (got.shape() != pg::Shape{B, T, NH * HS})
        return lesson::tr("merge_heads returns (B,T,NH*HS), here ", "merge_heads 返回 (B,T,NH*HS)，这里是 ") +
               lesson::str(pg::Shape{B, T, NH * HS}) +
               lesson::tr(": pg::transpose(y, 1, 2), then reshape", "：先 pg::transpose(y, 1, 2)，再 reshape");
    if (same(got, pg::reshape(y, {B, T, NH * HS}))) return merge_no_transpose();
    if (same(got, pg::reshape(pg::permute(y, {0, 2, 3, 1}), {B, T, NH * HS}))) return merge_interleaved();
    if (same(got, pg::reshape(pg::transpose(y, 2, 3), {B, T, NH * HS}))) return merge_dims23();
    return lesson::tr("position t's channels h*HS .. h*HS+HS-1 are head h's row t: swap dims 1 and 2 back to (B,T,NH,HS), "
                      "then reshape to (B,T,NH*HS)",
                      "位置 t 的通道 h*HS .. h*HS+HS-1 就是头 h 的第 t 行：把第 1 维和第 2 维换回 (B,T,NH,HS)，"
                      "再 reshape 成 (B,T,NH*HS)");
}

// An answer repeated from an earlier call: the same as what the function returned for an earlier,
// different input (whose right answer differs from it) means a constant or a static.
inline void expect_not_repeated(const std::string& function, const pg::Tensor& got, const pg::Tensor& want,
                                std::vector<pg::Tensor>& earlier) {
    if (lesson::came_back(got, want, earlier, 1e-6, 1e-6))
        throw lesson::CheckFailed(function, lesson::tr("a result computed from this call's input", "由这一次调用的输入算出的结果"),
                                  lesson::tr("the result of an earlier call", "先前一次调用的结果"),
                                  lesson::came_back_hint({"result", "结果"}, {"tensor", "张量"}));
}

// Your split and merge, with a ShapeError on a valid input turned into a hint about the sizes.
inline pg::Tensor call_split(const pg::Tensor& x, size_t NH) {
    static std::vector<pg::Tensor> earlier;  // what split_heads returned in the checks before
    try {
        pg::Tensor got = exercise::split_heads(x, NH);
        expect_not_repeated("split_heads", got, split_with_ops(x, NH), earlier);
        return got;
    } catch (const pg::ShapeError& e) {
        throw lesson::CheckFailed("split_heads(x " + lesson::str(x.shape()) + ", " + std::to_string(NH) + ")",
                                  "(B,NH,T,HS)", lesson::tr("a ShapeError: ", "抛出了 ShapeError：") + e.what(),
                                  "C = " + std::to_string(x.size(2)) + lesson::tr(" splits into ", " 可以分成 ") +
                                      std::to_string(NH) +
                                      lesson::tr(" heads: x is (B,T,C) = (x.size(0), x.size(1), x.size(2)); reshape to "
                                                 "(B,T,n_head,C/n_head), then transpose(1, 2)",
                                                 " 个头：x 是 (B,T,C) = (x.size(0), x.size(1), x.size(2))；先 reshape 成 "
                                                 "(B,T,n_head,C/n_head)，再 transpose(1, 2)"));
    }
}

inline pg::Tensor call_merge(const pg::Tensor& y) {
    static std::vector<pg::Tensor> earlier;  // what merge_heads returned in the checks before
    try {
        pg::Tensor got = exercise::merge_heads(y);
        expect_not_repeated("merge_heads", got, merge_with_ops(y), earlier);
        return got;
    } catch (const pg::ShapeError& e) {
        throw lesson::CheckFailed("merge_heads(y " + lesson::str(y.shape()) + ")", "(B,T,NH*HS)",
                                  lesson::tr("a ShapeError: ", "抛出了 ShapeError：") + e.what(),
                                  lesson::tr("y is (B,NH,T,HS): NH = y.size(1), T = y.size(2), HS = y.size(3); transpose(1, 2) "
                                             "to (B,T,NH,HS), then reshape to (B,T,NH*HS)",
                                             "y 是 (B,NH,T,HS)：NH = y.size(1)，T = y.size(2)，HS = y.size(3)；先 transpose(1, 2) "
                                             "成 (B,T,NH,HS)，再 reshape 成 (B,T,NH*HS)"));
    }
}

inline void expect_split(const std::string& what, const pg::Tensor& x, size_t NH) {
    pg::Tensor got = call_split(x, NH);
    lesson::expect_near(what, got, split_with_ops(x, NH), 0.0, split_diagnosis(x, NH, got));
}

inline void expect_merge(const std::string& what, const pg::Tensor& y) {
    pg::Tensor got = call_merge(y);
    lesson::expect_near(what, got, merge_with_ops(y), 0.0, merge_diagnosis(y, got));
}

}  // namespace check13

int main() {
    using namespace check13;
    lesson::Checks checks("13", "multi_head");
    checks.run(lesson::tr("the lesson's q: head 0 is lesson 11's Q, head 1 the seed's Wq = I answer",
                          "本课的 q：头 0 是第 11 课的 Q，头 1 是 seed 里 Wq = I 的答案"), [] {
        pg::Tensor q = pg::tensor({{{1.f, 1.f, 1.f, 0.f}, {0.f, 1.f, 0.f, 1.f}, {1.f, 2.f, 1.f, 1.f}}});
        pg::Tensor got = call_split(q, 2);
        lesson::expect_near("split_heads(q, 2)", got,
                            pg::tensor({1.f, 1.f, 0.f, 1.f, 1.f, 2.f,    // head 0: (T, HS)
                                        1.f, 0.f, 0.f, 1.f, 1.f, 1.f},  // head 1
                                       {1, 2, 3, 2}),
                            0.0, split_diagnosis(q, 2, got));
    });
    checks.run(lesson::tr("split of a labelled x (value 1000 b + 100 t + c): (B,T,C) = (2,3,6) in 3 heads",
                          "拆分带标签的 x（值为 1000 b + 100 t + c）：(B,T,C) = (2,3,6) 分成 3 个头"), [] {
        expect_split("split_heads(x, 3)", labelled({2, 3, 6}), 3);
    });
    checks.run(lesson::tr("split against reshape + transpose: random (2,4,8) in 2 heads (HS 4), and in 4 heads",
                          "拆分与 reshape + transpose 对比：随机的 (2,4,8) 分成 2 个头（HS 4），以及分成 4 个头"), [] {
        pg::Generator gen(130);
        pg::Tensor x = pg::randn({2, 4, 8}, gen);
        expect_split("split_heads(x, 2)", x, 2);
        expect_split("split_heads(x, 4)", x, 4);
    });
    checks.run(lesson::tr("merge of a labelled y (value 1000 b + 100 h + 10 t + i): (B,NH,T,HS) = (2,3,4,2)",
                          "合并带标签的 y（值为 1000 b + 100 h + 10 t + i）：(B,NH,T,HS) = (2,3,4,2)"), [] {
        expect_merge("merge_heads(y)", labelled({2, 3, 4, 2}));
    });
    checks.run(lesson::tr("merge against transpose + reshape: random (2,2,3,4)",
                          "合并与 transpose + reshape 对比：随机的 (2,2,3,4)"), [] {
        pg::Generator gen(131);
        expect_merge("merge_heads(y)", pg::randn({2, 2, 3, 4}, gen));
    });
    checks.run(lesson::tr("one head and head size 1: labelled (2,3,4) in 1 head and in 4 heads, and (2,1,3,4), (2,4,3,1) merged",
                          "只有一个头，以及头大小为 1：带标签的 (2,3,4) 分成 1 个头和 4 个头，再合并 (2,1,3,4) 和 (2,4,3,1)"), [] {
        expect_split("split_heads(x, 1)", labelled({2, 3, 4}), 1);
        expect_split("split_heads(x, 4)", labelled({2, 3, 4}), 4);
        expect_merge("merge_heads(y (2,1,3,4))", labelled({2, 1, 3, 4}));
        expect_merge("merge_heads(y (2,4,3,1))", labelled({2, 4, 3, 1}));
    });
    checks.run(lesson::tr("merge(split(x)) is x: (2,5,8) in 4 heads", "merge(split(x)) 就是 x：(2,5,8) 分成 4 个头"), [] {
        pg::Generator gen(132);
        pg::Tensor x = pg::randn({2, 5, 8}, gen);
        lesson::expect_near("merge_heads(split_heads(x, 4))", call_merge(call_split(x, 4)), x, 0.0,
                            lesson::tr("merge undoes split: the same transpose(1, 2), the reshape the other way",
                                       "合并撤销拆分：同样的 transpose(1, 2)，reshape 则反过来"));
    });
    checks.run(lesson::tr("the gradient flows back through split and merge", "梯度能反向流过拆分和合并"), [] {
        pg::Generator gen(134);
        pg::Tensor x = pg::randn({2, 3, 6}, gen, true);
        pg::Tensor s = call_split(x, 3);
        lesson::expect(lesson::tr("split_heads' result", "split_heads 的结果"), s.requires_grad(),
                       lesson::tr("a tensor that requires grad", "一个 requires_grad() 为真的张量"),
                       lesson::tr("no gradient history", "没有梯度历史"),
                       lesson::tr("x requires grad and your heads do not: they were built outside the graph (values "
                                  "copied into pg::tensor(values), or a .detach()); build it from pg::reshape and "
                                  "pg::transpose: training must reach the qkv Linear through the heads",
                                  "x 需要梯度，你的各个头却不需要：它们是在计算图之外构建的（把值复制进了 pg::tensor(values)，"
                                  "或者用了 .detach()）；用 pg::reshape 和 pg::transpose 来构建：训练必须能穿过各个头到达 qkv 那个 Linear"));
        pg::Tensor r = pg::randn({2, 3, 3, 2}, gen);
        pg::sum(s * r).backward();
        lesson::expect_near(lesson::tr("x.grad() after split_heads", "split_heads 之后的 x.grad()"), x.grad(),
                            merge_with_ops(r), 0.0,
                            lesson::tr("the gradient of a split is the merge of the gradient: use pg ops only",
                                       "拆分的梯度就是梯度的合并：只用 pg 运算"));
        pg::Tensor y = pg::randn({2, 3, 4, 2}, gen, true);
        pg::Tensor m = call_merge(y);
        lesson::expect(lesson::tr("merge_heads' result", "merge_heads 的结果"), m.requires_grad(),
                       lesson::tr("a tensor that requires grad", "一个 requires_grad() 为真的张量"),
                       lesson::tr("no gradient history", "没有梯度历史"),
                       lesson::tr("y requires grad and your merge does not: it was built outside the graph (values "
                                  "copied into pg::tensor(values), or a .detach()); build it from pg::transpose and "
                                  "pg::reshape: training must reach the heads through the merge",
                                  "y 需要梯度，你合并的结果却不需要：它是在计算图之外构建的（把值复制进了 pg::tensor(values)，"
                                  "或者用了 .detach()）；用 pg::transpose 和 pg::reshape 来构建：训练必须能穿过合并到达各个头"));
        pg::Tensor r2 = pg::randn({2, 4, 6}, gen);
        pg::sum(m * r2).backward();
        lesson::expect_near(lesson::tr("y.grad() after merge_heads", "merge_heads 之后的 y.grad()"), y.grad(),
                            split_with_ops(r2, 3), 0.0,
                            lesson::tr("the gradient of a merge is the split of the gradient: use pg ops only",
                                       "合并的梯度就是梯度的拆分：只用 pg 运算"));
    });
    checks.run(lesson::tr("C = 5 does not split into 2 heads", "C = 5 不能分成 2 个头"), [] {
        pg::Tensor x = pg::zeros({1, 2, 5});
        lesson::expect_throws<pg::ShapeError>("split_heads(x (1,2,5), 2)", "pg::ShapeError",
                                              [&] { exercise::split_heads(x, 2); },
                                              lesson::tr("HS = 5 / 2 would drop a channel; pg::reshape to (B,T,NH,C/NH) "
                                                         "throws by itself, or check C % n_head",
                                                         "HS = 5 / 2 会丢掉一个通道；pg::reshape 成 (B,T,NH,C/NH) "
                                                         "自己就会抛出异常，或者检查 C % n_head"));
    });
    checks.run(lesson::tr("the library's 4-head attention layer rebuilt with your split and merge",
                          "用你的拆分和合并重建库里的 4 头注意力层"), [] {
        pg::Generator gen(133);
        pg::nn::CausalSelfAttention attn(8, 4, 0.f, gen);
        pg::Tensor x = pg::randn({2, 5, 8}, gen);
        std::vector<pg::Tensor> p = pg::chunk(attn.qkv.forward(x), 3, -1);  // q, k, v each (B,T,C)
        pg::Tensor heads = causal_attention(call_split(p[0], 4), call_split(p[1], 4), call_split(p[2], 4));  // (B,NH,T,HS)
        lesson::expect_near(lesson::tr("output", "输出"), attn.proj.forward(call_merge(heads)), attn.forward(x), 1e-5,
                            lesson::tr("split q, k and v the same way; merge must put head h's channels at h*HS",
                                       "用同样的方式拆分 q、k 和 v；合并必须把头 h 的通道放在 h*HS 处"));
    });
    return checks.finish();
}
