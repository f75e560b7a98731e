// Lesson 10's checks for attend_past, shared by starter.cpp, solution.cpp and your exercise.cpp.
// Equal scores must give the running mean; later positions' scores must not matter, not even when
// they are 1000; scores near 1000 and -1000 stay finite; the loops are yours, not pg::softmax.
#include "check.hpp"

// The same with pg ops, one row at a time: what your function is compared with.
static pg::Tensor attend_past_with_ops(const pg::Tensor& scores, const pg::Tensor& v) {
    std::vector<pg::Tensor> rows;
    for (long t = 0; t < static_cast<long>(scores.size(0)); ++t) {
        pg::Tensor s = pg::slice(pg::slice(scores, 0, t, t + 1), 1, 0, t + 1);     // (1, t+1)
        rows.push_back(pg::matmul(pg::softmax(s, -1), pg::slice(v, 0, 0, t + 1)));  // (1, C)
    }
    return pg::concat(rows, 0);
}

static const pg::Tensor& lesson_values() {
    static pg::Tensor v = pg::tensor({{2.f, 0.f}, {0.f, 2.f}, {1.f, 1.f}, {16.f, 0.f}, {0.f, 1.f}});
    return v;
}

namespace check10 {

// Every call of your attend_past so far, with its inputs: an answer equal to the one given for other
// inputs is a remembered answer (a static variable, a cache), not one computed from this call's.
struct Call {
    pg::Tensor scores, v, answer;
};
static std::vector<Call>& calls() {
    static std::vector<Call> all;
    return all;
}
static pg::Tensor attend(const pg::Tensor& scores, const pg::Tensor& v) {
    pg::Tensor answer = exercise::attend_past(scores, v);
    calls().push_back({scores.detach(), v.detach(), answer.detach()});
    return answer;
}
static bool same(const pg::Tensor& a, const pg::Tensor& b) { return lesson::near(a, b, 1e-6); }   // shapes too

// The usual wrong versions, computed stably in double, to name the one the learner's output matches.
struct Wrong {
    bool all_positions = false;   // softmax over the whole row, later positions too
    bool denominator_all = false; // the sum over the whole row, the numerator over 0..t
    bool without_self = false;    // j < t: position t left out of its own average
    bool v_transposed = false;    // v[j][c] read at c * T + j, as if v were (C, T)
};

static pg::Tensor wrong(const pg::Tensor& scores, const pg::Tensor& v, Wrong how) {
    size_t T = scores.size(0), C = v.size(1);
    std::vector<float> out(T * C, 0.f);
    for (size_t t = 0; t < T; ++t) {
        const float* row = scores.ptr() + t * T;
        size_t last = how.all_positions ? T : (how.without_self ? t : t + 1);  // numerator over j < last
        size_t den_last = how.denominator_all ? T : last;
        if (den_last == 0) continue;
        double m = row[0];
        for (size_t j = 0; j < den_last; ++j) m = std::max(m, static_cast<double>(row[j]));
        double total = 0;
        for (size_t j = 0; j < den_last; ++j) total += std::exp(row[j] - m);
        for (size_t j = 0; j < last; ++j) {
            double w = std::exp(row[j] - m) / total;
            for (size_t c = 0; c < C; ++c) {
                size_t at = how.v_transposed ? c * T + j : j * C + c;
                if (at < v.numel()) out[t * C + c] += static_cast<float>(w * v.ptr()[at]);
            }
        }
    }
    return pg::tensor(out, {T, C});
}

// What the learner's output points to.
static std::string diagnose(const pg::Tensor& scores, const pg::Tensor& v, const pg::Tensor& mine,
                            const std::string& fallback) {
    size_t T = scores.size(0), C = v.size(1);
    for (const Call& earlier : calls())
        if (same(earlier.answer, mine) && !(same(earlier.scores, scores) && same(earlier.v, v)))
            return lesson::tr("your output is exactly the one you returned for earlier inputs (scores ",
                              "你的输出和你对之前另一组输入（分数 ") +
                   lesson::str(earlier.scores.shape()) +
                   lesson::tr("), not computed from this call's scores and v: a static variable or a stored result "
                              "keeps an old answer; compute every call from its own inputs",
                              "）返回的完全一样，不是由这一次的 scores 和 v 算出来的：static 变量或存下来的结果留住了旧答案；每次调用都要用它自己的输入来算");
    if (mine.shape() != pg::Shape{T, C})
        return lesson::tr("the result is (T, C) = ", "结果是 (T, C) = ") + lesson::str(pg::Shape{T, C}) +
               lesson::tr(": T = scores.size(0) rows, C = v.size(1) columns; return pg::tensor(values, {T, C})",
               "：T = scores.size(0) 行，C = v.size(1) 列；return pg::tensor(values, {T, C})");
    if (!lesson::all_finite(mine)) {
        // which maxima would have been needed: a past score above 80, a later one far above the past, rows apart;
        // and whether the rows that went wrong are those whose largest past score is far above their first
        float past_hi = -1e30f, past_lo = 1e30f, later_hi = -1e30f, row_max_hi = -1e30f, row_max_lo = 1e30f;
        bool first_largest_finite = true;  // every row whose first score is its largest came out finite
        long first_far_below = -1;         // a row that did not, whose largest is far above its first score
        for (size_t t = 0; t < T; ++t) {
            float row_max = -1e30f;
            for (size_t j = 0; j < T; ++j) {
                float s = scores.ptr()[t * T + j];
                if (j <= t) past_hi = std::max(past_hi, s), past_lo = std::min(past_lo, s), row_max = std::max(row_max, s);
                else later_hi = std::max(later_hi, s);
            }
            row_max_hi = std::max(row_max_hi, row_max), row_max_lo = std::min(row_max_lo, row_max);
            const float first = scores.ptr()[t * T];
            const bool finite = lesson::all_finite(pg::slice(mine, 0, static_cast<long>(t), static_cast<long>(t) + 1));
            if (first == row_max) first_largest_finite = first_largest_finite && finite;
            else if (!finite && row_max - first > 80.f && first_far_below < 0) first_far_below = static_cast<long>(t);
        }
        bool alone_ok = false;  // one position with a score of -1000, on its own
        try {
            pg::Tensor one = exercise::attend_past(pg::full({1, 1}, -1000.f), pg::ones({1, 1}));
            alone_ok = lesson::near(one, pg::ones({1, 1}), 1e-4);
        } catch (const std::exception&) {
        }
        if (first_far_below >= 0 && first_largest_finite) {
            const std::string row = std::to_string(first_far_below);
            return lesson::tr("inf or nan in row " + row + ", whose largest score is far above its first, scores[" + row +
                                  "][0], while every row whose first score is its largest came out finite: subtract the "
                                  "largest of all t + 1 scores scores[t][0..t], not its first score (nor the largest of "
                                  "the scores before t alone)",
                              "第 " + row + " 行出现了 inf 或 nan，这一行最大的分数远高于它的第一个分数 scores[" + row +
                                  "][0]，而第一个分数就是最大值的那些行都是有限的：要减去 scores[t][0..t] 这全部 t + 1 "
                                  "个分数里最大的那个，而不是它的第一个分数（也不是只在 t 之前的分数里取的最大值）");
        }
        if (past_hi > 80.f) return lesson::tr("exp(1000) overflows float; subtract the largest of scores[t][0..t] before exp",
                                   "exp(1000) 在 float 里会溢出；在取 exp 之前减去 scores[t][0..t] 中最大的那个");
        if (later_hi - past_hi > 80.f)
            return lesson::tr("inf or nan when a later position has a huge score: the max you subtract must be taken over "
                   "scores[t][0..t] only; with a later score of 1000 in it, every exp(s - max) underflows to 0 and "
                   "you divide 0 by 0",
                   "后面的位置有很大的分数时出现了 inf 或 nan：你减去的最大值只能在 scores[t][0..t] 上取；把后面一个 1000 的分数算进去，每个 exp(s - max) 都会下溢为 0，你就是在用 0 除以 0");
        if (past_lo < -80.f && !alone_ok)
            return lesson::tr("a single score of -1000 gives inf or nan: exp(-1000) is 0 in float; subtract the row's max "
                   "before exp, so its largest term is exp(0) = 1",
                   "单单一个 -1000 的分数就得到 inf 或 nan：exp(-1000) 在 float 里是 0；在取 exp 之前减去这一行的最大值，这样最大的那一项是 exp(0) = 1");
        if (row_max_hi - row_max_lo > 80.f)
            return lesson::tr("inf or nan where one row's scores sit far below another's: subtract each row's own max, not "
                   "one max over the whole matrix",
                   "在一行的分数远低于另一行的地方出现了 inf 或 nan：要减去每一行自己的最大值，而不是整个矩阵的同一个最大值");
        return fallback;
    }
    auto suspect = [&](Wrong how, const std::string& hint) {
        return lesson::Suspect{[&scores, &v, how] { return wrong(scores, v, how); }, hint};
    };
    std::vector<lesson::Suspect> suspects = {
        suspect({true, false, false, false},
                lesson::tr("your rows average in later positions too: only scores[t][0..t] enter row t's softmax (stop the "
                           "loop over j at t, inclusive); with equal scores row t is the mean of v_0 .. v_t",
                           "你的行把后面的位置也平均进去了：只有 scores[t][0..t] 进入行 t 的 softmax（对 j 的循环在 t 处停下，包括 t）；分数都相等时，行 t 是 v_0 .. v_t 的平均")),
        suspect({false, true, false, false},
                lesson::tr("your weights in row t sum to less than 1: the denominator adds exp(s - max) over j = 0..t only, the "
                           "same positions as the numerator, not over the whole row",
                           "你在行 t 的权重加起来小于 1：分母只在 j = 0..t 上累加 exp(s - max)，和分子是同样的位置，而不是整行")),
        suspect({false, false, true, false},
                lesson::tr("position t attends to itself too: j runs over 0..t inclusive (j <= t); row 0 is v_0 itself",
                           "位置 t 也要关注它自己：j 取遍 0..t，包括 t（j <= t）；行 0 就是 v_0 本身")),
    };
    if (T != C)
        suspects.push_back(suspect({false, false, false, true},
                lesson::tr("v[j][c] is v.ptr()[j * C + c] with C = v.size(1), not c * T + j: v is (T, C), one row per position",
                           "v[j][c] 是 v.ptr()[j * C + c]，其中 C = v.size(1)，不是 c * T + j：v 是 (T, C)，每个位置一行")));
    return lesson::name_the_mistake(mine, suspects, 1e-4, fallback);
}

static void expect_output(const pg::Tensor& scores, const pg::Tensor& v, const pg::Tensor& mine,
                          const pg::Tensor& expected, double tol, const std::string& hint) {
    lesson::expect_near_explained(lesson::tr("output", "输出"), mine, expected, tol,
                                  [&] { return diagnose(scores, v, mine, hint); });
}

}  // namespace check10

int main() {
    using check10::expect_output;
    lesson::Checks checks("10", "attention_average");
    checks.run(lesson::tr("equal scores give the running mean", "分数相等时得到累计平均"), [] {
        pg::Tensor S = pg::zeros({5, 5});
        expect_output(S, lesson_values(), check10::attend(S, lesson_values()),
                      pg::tensor({{2.f, 0.f}, {1.f, 1.f}, {1.f, 1.f}, {4.75f, 0.75f}, {3.8f, 0.8f}}), 1e-5,
                      lesson::tr("with equal scores every one of positions 0..t gets weight 1/(t+1); a row that "
                      "divides by T instead averages in positions that come later",
                      "分数相等时，位置 0..t 中的每一个都得到权重 1/(t+1)；除以 T 的行会把后面的位置也平均进去"));
    });
    checks.run(lesson::tr("the experiment's scores for 晓", "实验里「晓」的分数"), [] {
        pg::Tensor S = pg::tensor({{0.0f, 9.f, 9.f, 9.f, 9.f},
                                   {1.0f, 0.0f, 9.f, 9.f, 9.f},
                                   {0.5f, -0.5f, 1.0f, 9.f, 9.f},
                                   {0.0f, 1.0f, 0.0f, 0.5f, 9.f},
                                   {2.0f, 0.5f, 1.0f, -1.0f, 1.5f}});
        expect_output(S, lesson_values(), check10::attend(S, lesson_values()),
                      attend_past_with_ops(S, lesson_values()), 1e-5,
                      lesson::tr("row t: exp(scores[t][j] - max) for j = 0..t, divided by their sum, then "
                      "sum_j w_j v_j; the 9s above the diagonal must not be read",
                      "行 t：对 j = 0..t 取 exp(scores[t][j] - max)，除以它们的和，再求 sum_j w_j v_j；对角线上方的 9 不能读"));
    });
    checks.run(lesson::tr("scores for later positions change nothing", "后面位置的分数不改变任何东西"), [] {
        pg::Generator gen(10);
        pg::Tensor S = pg::randn({6, 6}, gen), v = pg::randn({6, 3}, gen);
        std::vector<float> big = S.to_vector();
        for (size_t t = 0; t < 6; ++t)
            for (size_t j = t + 1; j < 6; ++j) big[t * 6 + j] = 50.f;  // huge scores on later positions
        pg::Tensor B = pg::tensor(big, {6, 6});
        expect_output(B, v, check10::attend(B, v), check10::attend(S, v), 1e-5,
                      lesson::tr("only scores[t][0..t] enter row t's softmax: stop the loop over j at t",
                      "只有 scores[t][0..t] 进入行 t 的 softmax：对 j 的循环在 t 处停下"));
    });
    checks.run(lesson::tr("later scores of 1000 change nothing either", "后面 1000 的分数也不改变任何东西"), [] {
        pg::Tensor S = pg::tensor({{0.f, 1000.f, 1000.f}, {1.f, 0.f, 1000.f}, {0.f, 0.f, 0.f}});
        pg::Tensor v = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {3.f, 3.f}});
        expect_output(S, v, check10::attend(S, v), attend_past_with_ops(S, v), 1e-5,
                      lesson::tr("the max, the sum and the average all run over j = 0..t only", "最大值、和以及平均都只在 j = 0..t 上计算"));
    });
    checks.run(lesson::tr("random (7,7) scores and (7,4) values, against pg ops",
               "随机的 (7,7) 分数和 (7,4) 值，与 pg 算子对比"), [] {
        pg::Generator gen(11);
        pg::Tensor S = pg::randn({7, 7}, gen) * 2.f, v = pg::randn({7, 4}, gen);
        expect_output(S, v, check10::attend(S, v), attend_past_with_ops(S, v), 1e-5,
                      lesson::tr("your output differs from pg ops' here (T = 7, C = 4) and matches none of the usual wrong "
                                 "versions: row t of scores starts at scores.ptr() + t * T, v_j at v.ptr() + j * C, and "
                                 "row t's weights are the softmax of scores[t][0..t]",
                                 "你的输出在这里（T = 7，C = 4）和 pg 运算的不一样，也不像任何一种常见的错误写法：scores 的"
                                 "第 t 行从 scores.ptr() + t * T 开始，v_j 从 v.ptr() + j * C 开始，第 t 行的权重是 "
                                 "scores[t][0..t] 的 softmax"));
    });
    checks.run(lesson::tr("one position: T = 1 returns v_0 itself", "只有一个位置：T = 1 时返回 v_0 本身"), [] {
        pg::Tensor S = pg::tensor({{-3.f}}), v = pg::tensor({{4.f, -2.f, 0.5f}});
        expect_output(S, v, check10::attend(S, v), v, 1e-6,
                      lesson::tr("with one position its one weight is exp(s - s) / exp(s - s) = 1, so the output is v_0; "
                                 "j runs over 0..t inclusive",
                                 "只有一个位置时，它唯一的权重是 exp(s - s) / exp(s - s) = 1，所以输出就是 v_0；j 取遍 0..t，包括 t"));
    });
    checks.run(lesson::tr("large scores stay finite", "很大的分数保持有限"), [] {
        pg::Tensor S = pg::tensor({{1000.f, 0.f}, {1000.f, 999.f}}), v = pg::tensor({{1.f, 0.f}, {0.f, 1.f}});
        expect_output(S, v, check10::attend(S, v), pg::tensor({{1.f, 0.f}, {0.7311f, 0.2689f}}), 1e-4,
                      lesson::tr("row 1's scores [1000, 999] have the weights of [1, 0], 0.7311 and 0.2689: subtract the "
                                 "largest of scores[t][0..t] before exp, so that exp(1000) never comes up",
                                 "第 1 行的分数 [1000, 999] 和 [1, 0] 的权重相同，是 0.7311 和 0.2689：在取 exp 之前减去 "
                                 "scores[t][0..t] 中最大的那个，这样就永远不会算 exp(1000)"));
    });
    checks.run(lesson::tr("large scores, the largest not first: rows [1000], [0, 1000], [-5, 1000, 999]",
                          "很大的分数，最大的不在最前面：各行为 [1000]、[0, 1000]、[-5, 1000, 999]"), [] {
        pg::Tensor S = pg::tensor({{1000.f, 0.f, 0.f}, {0.f, 1000.f, 0.f}, {-5.f, 1000.f, 999.f}});
        pg::Tensor v = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {2.f, 2.f}});
        expect_output(S, v, check10::attend(S, v), attend_past_with_ops(S, v), 1e-5,
                      lesson::tr("row 1's weights are those of [-1000, 0], row 2's those of [-1005, 0, -1]: the max you "
                                 "subtract is the largest of scores[t][0..t], wherever it stands",
                                 "第 1 行的权重就是 [-1000, 0] 的权重，第 2 行的就是 [-1005, 0, -1] 的：你减去的最大值是 "
                                 "scores[t][0..t] 里最大的那个，不管它排在哪里"));
    });
    checks.run(lesson::tr("rows at different levels: scores near 0 and near -1000", "高低不同的行：分数接近 0 和接近 -1000"), [] {
        pg::Tensor S = pg::tensor({{0.f, 0.f, 0.f}, {2.f, 1.f, 0.f}, {-1000.f, -1001.f, -1000.f}});
        pg::Tensor v = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {3.f, 3.f}});
        expect_output(S, v, check10::attend(S, v), attend_past_with_ops(S, v), 1e-5,
                      lesson::tr("subtract each row's own max over scores[t][0..t]; row 2's weights are those of [0, -1, 0]",
                      "减去每一行在 scores[t][0..t] 上自己的最大值；行 2 的权重就是 [0, -1, 0] 的权重"));
    });
    checks.run(lesson::tr("your own loops, not pg::softmax", "你自己的循环，不用 pg::softmax"), [] {
        pg::Tensor S = pg::tensor({{0.f, 9.f}, {1.f, 0.f}}).requires_grad_();  // a graph would name the ops
        pg::Tensor out = exercise::attend_past(S, pg::tensor({{1.f, 0.f}, {0.f, 1.f}}));
        for (const char* op : {"softmax", "log_softmax"})
            lesson::expect_not_called("attend_past", out, op,
                                      lesson::tr("write the weights yourself from exp, the max and the sum of scores[t][0..t], "
                                      "with loops over scores.ptr()",
                                      "自己用 exp、最大值以及 scores[t][0..t] 的和写出权重，用遍历 scores.ptr() 的循环"));
    });
    return checks.finish();
}
