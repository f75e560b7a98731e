// Lesson 12's checks for causal_attention, shared by starter.cpp, solution.cpp and your exercise.cpp:
// seed 002's numbers, no leak from later positions, heads and batches, scores near 1000 and -1000,
// and the library's layer. A wrong output is compared with the usual wrong versions to name it.
#include "check.hpp"

// The same with the library's ops: what your function is compared with.
static pg::Tensor causal_attention_with_ops(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v) {
    size_t T = q.size(-2);
    pg::Tensor s = pg::matmul(q, pg::transpose(k, -2, -1)) / std::sqrt(static_cast<float>(q.size(-1)));
    std::vector<float> m(T * T, 0.f);
    for (size_t i = 0; i < T; ++i)
        for (size_t j = i + 1; j < T; ++j) m[i * T + j] = 1.f;
    s = pg::masked_fill(s, pg::tensor(m, {T, T}), -std::numeric_limits<float>::infinity());
    return pg::matmul(pg::softmax(s, -1), v);
}

namespace check12 {

// The usual wrong versions of the five steps.
struct Wrong {
    float fill = -std::numeric_limits<float>::infinity();  // what hidden scores become
    int hide_from = 1;         // key j is hidden from query i when j >= i + hide_from (1: correct, 0: the diagonal too)
    bool lower = false;        // the other triangle hidden: j < i
    double divisor = 0;        // scores / divisor; 0: sqrt(HS), the right scale
    long softmax_dim = -1;
    bool mask_after = false;   // softmax over every key, then the later weights set to 0
};

static pg::Tensor wrong(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v, const Wrong& how) {
    size_t T = q.size(-2), HS = q.size(-1);
    double div = how.divisor > 0 ? how.divisor : std::sqrt(static_cast<double>(HS));
    pg::Tensor s = pg::matmul(q, pg::transpose(k, -2, -1)) / static_cast<float>(div);
    std::vector<float> m(T * T, 0.f);
    for (size_t i = 0; i < T; ++i)
        for (size_t j = 0; j < T; ++j)
            m[i * T + j] = how.lower ? (j < i) : (static_cast<long>(j) >= static_cast<long>(i) + how.hide_from);
    pg::Tensor mask = pg::tensor(m, {T, T});
    if (how.mask_after) return pg::matmul(pg::masked_fill(pg::softmax(s, -1), mask, 0.f), v);
    return pg::matmul(pg::softmax(pg::masked_fill(s, mask, how.fill), how.softmax_dim), v);
}

// What the learner's output points to.
static std::string diagnose(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v, const pg::Tensor& mine,
                            const std::string& fallback) {
    pg::Shape want = causal_attention_with_ops(q, k, v).shape();
    if (mine.shape() != want)
        return lesson::tr("the result has shape (..., T, HV) = ", "结果的形状应为 (..., T, HV) = ") + lesson::str(want) +
               lesson::tr(": weights (..., T, T) @ v", "：权重 (..., T, T) @ v");
    if (!lesson::all_finite(mine)) {
        bool small_ok = false;  // two positions with scores 0: only a hidden diagonal makes a nan there
        try {
            small_ok = lesson::all_finite(exercise::causal_attention(pg::zeros({2, 1}), pg::zeros({2, 1}), pg::ones({2, 1})));
        } catch (const std::exception&) {
        }
        if (!small_ok)
            return lesson::tr("row 0 has no key left (all -inf, so softmax gives nan): hide key j from query i only when "
                              "j > i; a query sees itself",
                              "第 0 行一个键都不剩（全是 -inf，所以 softmax 给出 nan）：只在 j > i 时对查询 i 隐藏键 j；"
                              "查询能看到它自己");
        // scores far from 0: a softmax written by hand. One position scoring 1000 on its own tells which.
        bool alone_ok = false;
        try {
            alone_ok = lesson::all_finite(exercise::causal_attention(pg::tensor({{1.f}}), pg::tensor({{1000.f}}), pg::tensor({{1.f}})));
        } catch (const std::exception&) {
        }
        if (!alone_ok)
            return lesson::tr("inf or nan for a score of 1000: a softmax by hand, exp(s) / sum exp(s), overflows (exp(1000) = inf); "
                              "subtract each row's max first, as pg::softmax does",
                              "分数为 1000 时出现 inf 或 nan：手写的 softmax，exp(s) / sum exp(s)，会溢出（exp(1000) = inf）；"
                              "先减去每一行的最大值，pg::softmax 就是这样做的");
        return lesson::tr("inf or nan where one row's scores sit near -1000 and another's near 1000: subtract each row's own "
                          "max, not one max over all the scores (the low row's exps all underflow to 0), or call pg::softmax",
                          "一行分数接近 -1000、另一行接近 1000 时出现 inf 或 nan：减去每一行各自的最大值，而不是全部分数的同一个"
                          "最大值（分数低的那一行的 exp 全部下溢为 0），或者直接调用 pg::softmax");
    }
    std::vector<lesson::Suspect> suspects;
    auto add = [&](const Wrong& how, const std::string& hint) {
        suspects.push_back({[&q, &k, &v, how] { return wrong(q, k, v, how); }, hint});
    };
    Wrong w; w.fill = 0.f;
    add(w, lesson::tr("masked with 0, which hides nothing: e^0 = 1; fill with -infinity so that hidden keys get "
                      "weight exactly 0",
                      "用 0 做掩码什么也藏不住：e^0 = 1；请用 -infinity 填充，这样被隐藏的键权重恰好为 0"));
    w = Wrong{}; w.hide_from = 2;
    add(w, lesson::tr("the mask is one off: it lets key i + 1 through (j > i + 1); hide every j > i",
                      "掩码差了一位：它放过了键 i + 1（j > i + 1）；要隐藏所有 j > i"));
    w = Wrong{}; w.lower = true;
    add(w, lesson::tr("you hid the earlier keys (j < i) and let the later ones through: the mask is 1 above the "
                      "diagonal, where j > i",
                      "你藏起了前面的键（j < i），却放过了后面的键：掩码在对角线以上为 1，即 j > i 处"));
    // the wrong scales, each named only where its divisor differs from the right one, sqrt(HS), and from the others'
    const double T = static_cast<double>(q.size(-2)), HS = static_cast<double>(q.size(-1)),
                 HV = static_cast<double>(v.size(-1));
    const std::vector<std::pair<double, std::string>> scales = {
        {1, lesson::tr("the scores are not scaled: divide q k^T by sqrt(HS), HS = q.size(-1)",
                       "分数没有缩放：把 q k^T 除以 sqrt(HS)，HS = q.size(-1)")},
        {HS, lesson::tr("scaled by 1/HS: divide by sqrt(HS), not HS", "缩放成了 1/HS：应除以 sqrt(HS)，而不是 HS")},
        {std::sqrt(T), lesson::tr("scaled by 1/sqrt(T): the scale is 1/sqrt(HS) with HS = q.size(-1), the width of a query, "
                                  "not T",
                                  "缩放成了 1/sqrt(T)：缩放因子是 1/sqrt(HS)，HS = q.size(-1)，即一个查询的宽度，而不是 T")},
        {std::sqrt(2.0), lesson::tr("scaled by 1/sqrt(2), the width in seed 002's example: use sqrt(HS) with HS = q.size(-1)",
                                    "缩放成了 1/sqrt(2)，那是源文章 002 例子里的宽度：请用 sqrt(HS)，HS = q.size(-1)")},
        {std::sqrt(HV), lesson::tr("scaled by 1/sqrt(HV) = 1/sqrt(" + std::to_string(v.size(-1)) +
                                       "), v's width: the scale is 1/sqrt(HS) with HS = q.size(-1), the width of q and k "
                                       "that the scores come from, not v.size(-1)",
                                   "缩放成了 1/sqrt(HV) = 1/sqrt(" + std::to_string(v.size(-1)) +
                                       ")，那是 v 的宽度：缩放因子是 1/sqrt(HS)，HS = q.size(-1)，即算出分数的 q 和 k "
                                       "的宽度，而不是 v.size(-1)")},
    };
    auto unique = [&](double divisor) {
        int same = std::fabs(divisor - std::sqrt(HS)) < 1e-9;
        for (const auto& other : scales) same += std::fabs(divisor - other.first) < 1e-9;
        return same == 1;
    };
    for (const auto& [divisor, hint] : scales)
        if (unique(divisor)) {
            w = Wrong{}; w.divisor = divisor;
            add(w, hint);
        }
    w = Wrong{}; w.softmax_dim = -2;
    add(w, lesson::tr("your weights sum to 1 down each column: softmax along the last dim (-1), over the keys "
                      "of one query",
                      "你的权重是沿每一列加起来为 1 的：softmax 要沿最后一维（-1），在同一个查询的所有键上做"));
    w = Wrong{}; w.mask_after = true;
    add(w, lesson::tr("the mask came after softmax: the weights left no longer sum to 1 and later keys still "
                      "leak through the sum; mask the scores with -infinity before softmax",
                      "掩码放在了 softmax 之后：剩下的权重之和不再是 1，后面的键仍会通过那个总和泄漏进来；"
                      "请在 softmax 之前用 -infinity 给分数做掩码"));
    return lesson::name_the_mistake(mine, suspects, 1e-4, fallback);
}

// The learner's function; a ShapeError from inside it is named.
static pg::Tensor call(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v) {
    static std::vector<pg::Tensor> earlier;  // what the function returned in the checks before
    try {
        pg::Tensor got = exercise::causal_attention(q, k, v), want = causal_attention_with_ops(q, k, v);
        // an answer repeated from an earlier, different input: a constant or a static, not this call's computation
        if (lesson::came_back(got, want, earlier, 1e-6, 1e-4))
            throw lesson::CheckFailed(
                "causal_attention", lesson::tr("an output computed from this call's q, k, v", "由这一次调用的 q、k、v 算出的输出"),
                lesson::tr("the output of an earlier call", "先前一次调用的输出"),
                lesson::came_back_hint({"output", "输出"}, {"q, k and v", "q、k、v"}));
        return got;
    } catch (const pg::ShapeError& e) {
        std::string what = e.what();
        // which mistake the error fits: a (B, B) mask (T read as q.size(0)), or the very error q @ k^T with k
        // transposed in dims (0, 1) gives; otherwise only what the shapes must be
        const std::string B = std::to_string(q.size(0));
        bool k_01 = false;
        try {
            (void)pg::matmul(q, pg::transpose(k, 0, 1));
        } catch (const pg::ShapeError& e01) {
            k_01 = what == e01.what();
        }
        std::string hint;
        if (what.find("masked_fill") != std::string::npos && what.find("and (" + B + "," + B + ")") != std::string::npos)
            hint = lesson::tr("the mask does not fit the scores (..., T, T): T = q.size(-2), the number of positions, not "
                              "q.size(0), which is the batch once there are leading dims",
                              "掩码与分数 (..., T, T) 对不上：T = q.size(-2)，即位置的个数，而不是 q.size(0)，"
                              "一旦有了前面的维度，它就是批次大小");
        else if (what.find("masked_fill") != std::string::npos)
            hint = lesson::tr("the mask does not fit the scores (..., T, T): build it (T, T) with T = q.size(-2), the number "
                              "of positions",
                              "掩码与分数 (..., T, T) 对不上：把它建成 (T, T)，T = q.size(-2)，即位置的个数");
        else if (k_01)
            hint = lesson::tr("transpose the last two dims of k, pg::transpose(k, -2, -1), not (0, 1): with leading dims "
                              "(B, NH, T, HS) dims 0 and 1 are the batch and the heads",
                              "转置 k 的最后两维，pg::transpose(k, -2, -1)，而不是 (0, 1)：有前面的维度 (B, NH, T, HS) 时，"
                              "第 0 维和第 1 维是批次维和头维");
        else
            hint = lesson::tr("the shapes of the five steps: q (..., T, HS) @ k^T (..., HS, T) gives scores (..., T, T), the "
                              "mask is (T, T), and the weights (..., T, T) @ v (..., T, HV) give (..., T, HV)",
                              "五步的形状：q (..., T, HS) @ k^T (..., HS, T) 得到分数 (..., T, T)，掩码是 (T, T)，"
                              "权重 (..., T, T) @ v (..., T, HV) 得到 (..., T, HV)");
        throw lesson::CheckFailed("causal_attention", lesson::tr("an output of shape (..., T, HV)", "形状为 (..., T, HV) 的输出"),
                                  "pg::ShapeError: " + what, hint);
    }
}

static void expect_output(const pg::Tensor& q, const pg::Tensor& k, const pg::Tensor& v, const pg::Tensor& mine,
                          const pg::Tensor& expected, double tol, const std::string& hint) {
    lesson::expect_near_explained(lesson::tr("output", "输出"), mine, expected, tol,
                                  [&] { return diagnose(q, k, v, mine, hint); });
}

}  // namespace check12

int main() {
    using check12::call;
    using check12::expect_output;
    lesson::Checks checks("12", "causal_mask");
    checks.run(lesson::tr("seed 002's Q, K, V", "源文章 002 的 Q、K、V"), [] {
        pg::Tensor q = pg::tensor({{1.f, 1.f}, {0.f, 1.f}, {1.f, 2.f}}), k = pg::tensor({{1.f, 0.f}, {1.f, 1.f}, {2.f, 1.f}}),
                   v = pg::tensor({{2.f, 0.f}, {0.f, 1.f}, {2.f, 1.f}});
        expect_output(q, k, v, call(q, k, v), pg::tensor({{2.f, 0.f}, {0.6605f, 0.6698f}, {1.3886f, 0.9257f}}), 1e-4,
                      lesson::tr("compare, scale by 1/sqrt(2), mask with -inf, softmax, aggregate; row 0 sees only "
                                 "itself, so it must be v_0 = [2, 0]",
                                 "比较、乘 1/sqrt(2) 缩放、用 -inf 做掩码、softmax、汇总；第 0 行只看得到它自己，"
                                 "所以它必须是 v_0 = [2, 0]"));
    });
    checks.run(lesson::tr("a later position cannot change an earlier output", "后面的位置不能改变前面的输出"), [] {
        pg::Generator gen(120);
        pg::Tensor q = pg::randn({5, 3}, gen), k = pg::randn({5, 3}, gen), v = pg::randn({5, 3}, gen);
        pg::Tensor k2 = pg::concat({pg::slice(k, 0, 0, 4), pg::randn({1, 3}, gen)}, 0);  // new key and value
        pg::Tensor v2 = pg::concat({pg::slice(v, 0, 0, 4), pg::randn({1, 3}, gen) * 10.f}, 0);  // at position 4
        pg::Tensor out = call(q, k, v), out2 = call(q, k2, v2);
        const std::string hint = lesson::tr("hide key j from query i when j > i, before softmax, with -inf (not "
                                            "0): pg::masked_fill(scores, mask, -infinity)",
                                            "在 softmax 之前，当 j > i 时对查询 i 隐藏键 j，用 -inf（不是 "
                                            "0）：pg::masked_fill(scores, mask, -infinity)");
        lesson::expect_near_explained(lesson::tr("outputs 0-3", "输出 0-3"), pg::slice(out2, 0, 0, 4), pg::slice(out, 0, 0, 4),
                                      1e-5, [&] { return check12::diagnose(q, k, v, out, hint); });
    });
    checks.run(lesson::tr("T = 3, HS = 5, HV = 4, against pg ops", "T = 3、HS = 5、HV = 4，与 pg 运算对比"), [] {
        pg::Generator gen(121);
        pg::Tensor q = pg::randn({3, 5}, gen), k = pg::randn({3, 5}, gen), v = pg::randn({3, 4}, gen);
        expect_output(q, k, v, call(q, k, v), causal_attention_with_ops(q, k, v), 1e-5,
                      lesson::tr("scale by 1/sqrt(HS) with HS = q.size(-1), the width of a query (here 5), not by "
                                 "sqrt(2), sqrt(T) or sqrt(HV)",
                                 "乘 1/sqrt(HS) 缩放，HS = q.size(-1)，即一个查询的宽度（这里是 5），而不是除以 "
                                 "sqrt(2)、sqrt(T) 或 sqrt(HV)"));
    });
    checks.run(lesson::tr("batch and heads: (B, NH, T, HS) = (2, 2, 4, 3), against pg ops",
                          "批次和头：(B, NH, T, HS) = (2, 2, 4, 3)，与 pg 运算对比"), [] {
        pg::Generator gen(122);
        pg::Tensor q = pg::randn({2, 2, 4, 3}, gen), k = pg::randn({2, 2, 4, 3}, gen), v = pg::randn({2, 2, 4, 3}, gen);
        expect_output(q, k, v, call(q, k, v), causal_attention_with_ops(q, k, v), 1e-5,
                      lesson::tr("transpose the last two dims of k (-2, -1), not (0, 1); a (T, T) mask broadcasts over "
                                 "the leading dims; T = q.size(-2)",
                                 "转置 k 的最后两维 (-2, -1)，而不是 (0, 1)；(T, T) 的掩码会在前面的维度上广播；"
                                 "T = q.size(-2)"));
    });
    checks.run(lesson::tr("scores near 1000 and -1000: q = [[0], [-1], [1]], k = [[1000], [1001], [999]]",
                          "接近 1000 和 -1000 的分数：q = [[0], [-1], [1]]，k = [[1000], [1001], [999]]"), [] {
        // HS = 1, so the scores are q_i k_j themselves: row 1 sees [-1000, -1001], row 2 [1000, 1001, 999]
        pg::Tensor q = pg::tensor({{0.f}, {-1.f}, {1.f}}), k = pg::tensor({{1000.f}, {1001.f}, {999.f}}),
                   v = pg::tensor({{1.f, 0.f, 0.f, 1.f}, {0.f, 1.f, 0.f, 1.f}, {2.f, 2.f, 1.f, 0.f}});
        expect_output(q, k, v, call(q, k, v), causal_attention_with_ops(q, k, v), 1e-5,
                      lesson::tr("row 1's weights are those of [0, -1], row 2's those of [-1, 0, -2]: only differences "
                                 "within a row matter",
                                 "第 1 行的权重就是 [0, -1] 的权重，第 2 行的就是 [-1, 0, -2] 的：只有同一行内的差值才有关系"));
    });
    checks.run(lesson::tr("the library's one-head attention layer (B = 2, T = 5, C = 4)",
                          "库里的单头注意力层（B = 2，T = 5，C = 4）"), [] {
        pg::Generator gen(123);
        pg::nn::CausalSelfAttention attn(4, 1, 0.f, gen);
        pg::Tensor x = pg::randn({2, 5, 4}, gen);
        std::vector<pg::Tensor> qkv = pg::chunk(attn.qkv.forward(x), 3, -1);  // each (B, T, C): one head
        pg::Tensor yours = attn.proj.forward(call(qkv[0], qkv[1], qkv[2]));
        lesson::expect_near(lesson::tr("output", "输出"), yours, attn.forward(x), 1e-5,
                            lesson::tr("the layer computes exactly compare, scale, mask, softmax, aggregate, then its "
                                       "output projection",
                                       "这一层做的正是比较、缩放、掩码、softmax、汇总，然后是它的输出投影"));
    });
    return checks.finish();
}
