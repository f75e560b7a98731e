// Lesson 03's checks for matmul_shape, shared by starter.cpp, solution.cpp and your exercise.cpp.
// Every expected answer is what pg::matmul itself does with tensors of those shapes. When yours
// differs, the check works out the usual wrong rules (batch axes aligned at the left, a's batch axes
// only, K never compared, ...) and names the one your answer follows.
#include "check.hpp"

namespace check03 {

// One wrong rule for the shape of a @ b, with the hint that names it.
enum class Wrong {
    a_batch_only, a_rank, left_aligned, same_rank_only, any_batch_sizes, larger_size,  // the batch axes
    k_unchecked, k_last_last, k_first_first, m_is_k, n_is_k,      // the matrices
    numpy_vectors                                                 // rank 1
};

static std::string hint_of(Wrong w) {
    switch (w) {
        case Wrong::a_batch_only:
            return lesson::tr("your batch axes are a's alone: b's batch axes count too, and a 1 stretches to the other size",
                   "你的批次轴只取了 a 的：b 的批次轴也算数，而且 1 会拉伸成另一个大小");
        case Wrong::a_rank:
            return lesson::tr("your result has as many batch axes as a: b's extra leading batch axes were dropped. It has as "
                              "many as the operand with more, a missing axis counting as 1, so (3,4) @ (5,4,2) is (5,3,2)",
                              "你的结果的批次轴和 a 一样多：b 前面多出来的批次轴被丢掉了。结果的批次轴要和批次轴较多的那个操作数一样多，"
                              "缺失的轴算作 1，所以 (3,4) @ (5,4,2) 是 (5,3,2)");
        case Wrong::left_aligned:
            return lesson::tr("you lined the batch axes up at the left: align them at the right, as in numpy, so (1,4) "
                   "meets (4) as (1,4) against (1,4), and a missing axis counts as 1",
                   "你把批次轴靠左对齐了：要像 numpy 那样靠右对齐，所以 (1,4) 遇上 (4) 时是 (1,4) 对 (1,4)，缺失的轴算作 1");
        case Wrong::same_rank_only:
            return lesson::tr("you asked for the same number of batch axes: a missing axis counts as 1, so (5) against () "
                   "gives (5)",
                   "你要求批次轴的个数相同：缺失的轴算作 1，所以 (5) 对 () 得到 (5)");
        case Wrong::any_batch_sizes:
            return lesson::tr("batch sizes that differ and are both not 1 do not broadcast: throw pg::ShapeError, do not "
                   "take the larger",
                   "批次大小不同、又都不是 1 时不能广播：要抛出 pg::ShapeError，而不是取较大的那个");
        case Wrong::larger_size:
            return lesson::tr("you took the larger of two batch sizes: a 1 stretches to the other size even when that size "
                              "is 0, so a batch axis of 0 against 1 gives 0, not 1",
                              "你取了两个批次大小中较大的那个：1 会拉伸成另一个大小，即使那个大小是 0 也一样，所以批次轴 0 对 1 "
                              "得到 0，而不是 1");
        case Wrong::k_unchecked:
            return lesson::tr("you never compared K: a's last dim must equal b's second-to-last; otherwise throw pg::ShapeError",
                   "你从没比较 K：a 的最后一维必须等于 b 的倒数第二维；否则抛出 pg::ShapeError");
        case Wrong::k_last_last:
            return lesson::tr("you compared a's last axis with b's last axis: K is a's last and b's SECOND-to-last, "
                   "(N,K) @ (K,M)",
                   "你拿 a 的最后一个轴和 b 的最后一个轴比较：K 是 a 的最后一维、b 的「倒数第二」维，(N,K) @ (K,M)");
        case Wrong::k_first_first:
            return lesson::tr("you compared a's second-to-last axis with b's: K is a's LAST axis and b's second-to-last, "
                   "(N,K) @ (K,M)",
                   "你拿 a 的倒数第二个轴和 b 的倒数第二个轴比较：K 是 a 的「最后」一维、b 的倒数第二维，(N,K) @ (K,M)");
        case Wrong::m_is_k:
            return lesson::tr("your last axis is K: the columns of the result are b's last axis, M", "你的最后一个轴是 K：结果的列是 b 的最后一个轴 M");
        case Wrong::n_is_k:
            return lesson::tr("your second-to-last axis is K: the rows of the result are a's second-to-last axis, N", "你的倒数第二个轴是 K：结果的行是 a 的倒数第二个轴 N");
        case Wrong::numpy_vectors:
            return lesson::tr("pg::matmul does not promote a vector the way numpy does: both operands need at least 2 axes; "
                   "otherwise throw pg::ShapeError",
                   "pg::matmul 不会像 numpy 那样把向量提升成矩阵：两个操作数都至少要有 2 个轴；否则抛出 pg::ShapeError");
    }
    return "";
}

// The shape under one wrong rule; nothing when that rule would throw.
static std::optional<pg::Shape> shape_wrong(pg::Shape a, pg::Shape b, Wrong w) {
    if (w == Wrong::numpy_vectors && (a.size() == 1 || b.size() == 1)) {
        bool va = a.size() == 1, vb = b.size() == 1;
        if (va) a.insert(a.begin(), 1);
        if (vb) b.push_back(1);
        std::optional<pg::Shape> s = shape_wrong(a, b, Wrong::numpy_vectors);
        if (s && va) s->erase(s->end() - 2);
        if (s && vb) s->pop_back();
        return s;
    }
    if (a.size() < 2 || b.size() < 2) return std::nullopt;
    size_t N = a[a.size() - 2], K = a.back(), Kb = b[b.size() - 2], M = b.back();
    bool k_ok = w == Wrong::k_unchecked     ? true
                : w == Wrong::k_last_last   ? K == M
                : w == Wrong::k_first_first ? N == Kb
                                            : K == Kb;
    if (!k_ok) return std::nullopt;
    pg::Shape ba(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2), out;
    if (w == Wrong::a_batch_only) {
        out = ba;
    } else if (w == Wrong::same_rank_only && ba.size() != bb.size()) {
        return std::nullopt;
    } else if (w == Wrong::left_aligned) {
        for (size_t i = 0; i < std::max(ba.size(), bb.size()); ++i) {
            size_t da = i < ba.size() ? ba[i] : 1, db = i < bb.size() ? bb[i] : 1;
            if (da != db && da != 1 && db != 1) return std::nullopt;
            out.push_back(da == 1 ? db : da);
        }
    } else {
        size_t rank = w == Wrong::a_rank ? ba.size() : std::max(ba.size(), bb.size());
        out.assign(rank, 1);
        for (size_t i = 1; i <= rank; ++i) {
            size_t da = i <= ba.size() ? ba[ba.size() - i] : 1, db = i <= bb.size() ? bb[bb.size() - i] : 1;
            if (da != db && da != 1 && db != 1 && w != Wrong::any_batch_sizes) return std::nullopt;
            const bool larger = w == Wrong::any_batch_sizes || w == Wrong::larger_size;
            out[rank - i] = larger ? std::max(da, db) : da == 1 ? db : da;
        }
    }
    out.push_back(w == Wrong::n_is_k ? K : N);
    out.push_back(w == Wrong::m_is_k ? K : M);
    return out;
}

static std::string str(const std::optional<pg::Shape>& s) {
    return s ? lesson::tr("shape ", "形状 ") + lesson::str(*s) : lesson::tr("a pg::ShapeError thrown", "抛出 pg::ShapeError");
}

// Every shape pair the checks ask about: a wrong rule that agrees with your function on all of
// them is the likeliest explanation of a wrong answer.
static const std::vector<std::pair<pg::Shape, pg::Shape>> kProbes = {
    {{2, 3}, {3, 4}},       {{3, 3}, {3, 3}},          {{3, 2}, {3, 2}},       {{2, 5}, {5, 3}},
    {{5, 2}, {5, 3}},       {{5, 2, 3}, {3, 4}},       {{3, 4}, {5, 4, 2}},    {{2, 4, 8, 16}, {2, 4, 16, 8}},
    {{2, 1, 4, 3}, {3, 3, 2}}, {{1, 4, 2, 3}, {4, 3, 2}}, {{4, 1, 2, 3}, {1, 5, 3, 2}}, {{2, 2, 3}, {3, 3, 4}},
    {{0, 3}, {3, 5}},       {{0, 2, 3}, {1, 3, 4}},    {{2, 1, 3, 1, 4, 6}, {6, 2}}, {{3}, {3, 4}},
    {{2, 3}, {3}}};

static const std::vector<Wrong> kRules = {Wrong::a_batch_only,  Wrong::a_rank,      Wrong::left_aligned,
                                          Wrong::same_rank_only, Wrong::any_batch_sizes, Wrong::larger_size,
                                          Wrong::k_unchecked,   Wrong::k_last_last, Wrong::k_first_first,
                                          Wrong::m_is_k,        Wrong::n_is_k,      Wrong::numpy_vectors};

// Your function's answers on the probes (nothing for a pg::ShapeError), once; false when it threw
// anything else on one of them.
static bool learner_on_probes(std::vector<std::optional<pg::Shape>>& out) {
    static std::vector<std::optional<pg::Shape>> answers;
    static int state = 0;  // 0 not asked, 1 asked, 2 it threw something else
    if (state == 0) {
        state = 1;
        for (const auto& [a, b] : kProbes) {
            try {
                answers.push_back(exercise::matmul_shape(a, b));
            } catch (const pg::ShapeError&) {
                answers.push_back(std::nullopt);
            } catch (...) {
                state = 2;
                break;
            }
        }
    }
    out = answers;
    return state == 1;
}

// Every wrong rule that gives `got` where the library gives `want`, "; or: " between them; the ones
// that also agree with your function on every probe first, alone when there are any.
static std::string diagnose(const pg::Shape& a, const pg::Shape& b, const std::optional<pg::Shape>& want,
                            const std::optional<pg::Shape>& got) {
    std::vector<Wrong> here, everywhere;
    std::vector<std::optional<pg::Shape>> answers;
    bool probed = learner_on_probes(answers);
    for (Wrong w : kRules) {
        std::optional<pg::Shape> s = shape_wrong(a, b, w);
        if (s == want || s != got) continue;
        here.push_back(w);
        bool all = probed;
        for (size_t i = 0; all && i < kProbes.size(); ++i)
            all = shape_wrong(kProbes[i].first, kProbes[i].second, w) == answers[i];
        if (all) everywhere.push_back(w);
    }
    std::string hint;
    for (Wrong w : everywhere.empty() ? here : everywhere)
        hint += (hint.empty() ? std::string() : lesson::tr("; or: ", "；或者：")) + hint_of(w);
    return hint;
}

// The message pg::matmul's own ShapeError gives for these shapes ("" when it does not throw).
static std::string library_message(const pg::Shape& a, const pg::Shape& b) {
    try {
        pg::matmul(pg::zeros(a), pg::zeros(b));
    } catch (const pg::ShapeError& e) {
        return e.what();
    }
    return "";
}

// What pg::broadcast_shapes's ShapeError says after its op name for a's and b's batch axes ("" when they
// broadcast): ": (2) and (3) do not broadcast: size 2 against 3 at dim 0".
static std::string broadcast_message_tail(const pg::Shape& a, const pg::Shape& b) {
    if (a.size() < 2 || b.size() < 2) return "";
    try {
        pg::broadcast_shapes(pg::Shape(a.begin(), a.end() - 2), pg::Shape(b.begin(), b.end() - 2), "");
    } catch (const pg::ShapeError& e) {
        return e.what();
    }
    return "";
}

// Compares matmul_shape(a, b) with what pg::matmul does on zero tensors of those shapes.
static void check_shape(const pg::Shape& a, const pg::Shape& b, const std::string& fallback) {
    std::optional<pg::Shape> want;
    try {
        want = pg::matmul(pg::zeros(a), pg::zeros(b)).shape();
    } catch (const pg::ShapeError&) {
    }
    const std::string call = "matmul_shape(" + lesson::str(a) + ", " + lesson::str(b) + ")";
    std::optional<pg::Shape> got;
    std::string message;
    try {
        got = exercise::matmul_shape(a, b);
    } catch (const pg::ShapeError& e) {
        message = e.what();
    } catch (const lesson::NotImplemented&) {
        throw;
    } catch (const std::exception& e) {
        throw lesson::CheckFailed(call, str(want), lesson::tr("another error: ", "另一种错误：") + e.what(),
                                  lesson::tr("throw pg::ShapeError (it is declared in <pg/shape.hpp>), not another exception: "
                                  "the callers of matmul catch pg::ShapeError",
                                  "抛出 pg::ShapeError（它声明在 <pg/shape.hpp> 里），不要抛别的异常：调用 matmul 的代码捕获的是 pg::ShapeError"));
    }
    // what earlier checks got: the same shape again where the right answers differ looks like a constant
    static std::vector<std::pair<std::string, std::pair<std::optional<pg::Shape>, std::optional<pg::Shape>>>> earlier;
    std::string same_as;
    for (const auto& [where, answer] : earlier)
        if (got && answer.second == got && answer.first != want && same_as.empty()) same_as = where;
    earlier.push_back({call, {want, got}});
    if (!got) {  // it threw a ShapeError: was it the library's?
        if (message == library_message(a, b))
            throw lesson::CheckFailed(call, lesson::tr("your own pg::ShapeError", "你自己的 pg::ShapeError"),
                                      lesson::tr("pg::matmul's: \"", "来自 pg::matmul：\"") + message + "\"",
                                      lesson::tr("you called pg::matmul: compute the shape from the two shapes alone, "
                                      "without making tensors",
                                      "你调用了 pg::matmul：只用两个形状算出结果的形状，不要构造张量"));
        const std::string tail = broadcast_message_tail(a, b);
        if (!tail.empty() && message.size() >= tail.size() && message.compare(message.size() - tail.size(), tail.size(), tail) == 0)
            throw lesson::CheckFailed(call, lesson::tr("your own pg::ShapeError", "你自己的 pg::ShapeError"),
                                      lesson::tr("pg::broadcast_shapes's: \"", "来自 pg::broadcast_shapes：\"") + message + "\"",
                                      lesson::tr("you called pg::broadcast_shapes: write the broadcasting rule for the batch "
                                      "axes yourself (align at the right, a 1 stretches)",
                                      "你调用了 pg::broadcast_shapes：自己写出批次轴的广播规则（靠右对齐，1 会拉伸）"));
    }
    if (got == want) return;
    std::string hint = diagnose(a, b, want, got);
    if (hint.empty() && !same_as.empty())
        hint = lesson::tr("your function returned " + str(got) + " here, as it did for " + same_as +
                              ", whose answer differs: compute the shape from this call's a and b, not a constant or a "
                              "static kept from an earlier call",
                          "你的函数在这里返回了" + str(got) + "，和它对 " + same_as +
                              " 返回的一样，可那次的正确答案不同：要用这一次调用的 a 和 b 来算形状，不能用常量，"
                              "也不能用之前调用留下的 static 变量");
    if (hint.empty()) hint = fallback;
    throw lesson::CheckFailed(call, str(want), got ? str(got) : lesson::tr("a pg::ShapeError: \"", "一个 pg::ShapeError：\"") + message + "\"", hint);
}

}  // namespace check03

int main() {
    using check03::check_shape;
    lesson::Checks checks("03", "tensors_shapes");
    checks.run(lesson::tr("two matrices: (2,3) @ (3,4), and the square (3,3) @ (3,3)",
               "两个矩阵：(2,3) @ (3,4)，以及方阵 (3,3) @ (3,3)"), [] {
        check_shape({2, 3}, {3, 4}, lesson::tr("the rows of a and the columns of b: (N,K) @ (K,M) -> (N,M)",
                                    "a 的行和 b 的列：(N,K) @ (K,M) -> (N,M)"));
        check_shape({3, 3}, {3, 3}, lesson::tr("N = K = M = 3: (N,K) @ (K,M) -> (N,M) is (3,3)",
                                    "N = K = M = 3：(N,K) @ (K,M) -> (N,M) 是 (3,3)"));
    });
    checks.run(lesson::tr("inner dimensions differ: (3,2) @ (3,2)", "内侧的维度不同：(3,2) @ (3,2)"), [] {
        check_shape({3, 2}, {3, 2}, lesson::tr("a's last dim (K) must equal b's second-to-last; otherwise throw pg::ShapeError",
                                    "a 的最后一维（K）必须等于 b 的倒数第二维；否则抛出 pg::ShapeError"));
    });
    checks.run(lesson::tr("not square: (2,5) @ (5,3), and (5,2) @ (5,3) throws",
               "不是方阵：(2,5) @ (5,3)，以及 (5,2) @ (5,3) 会抛出错误"), [] {
        check_shape({2, 5}, {5, 3}, lesson::tr("(N,K) @ (K,M) -> (N,M): here N = 2, K = 5, M = 3",
                                    "(N,K) @ (K,M) -> (N,M)：这里 N = 2，K = 5，M = 3"));
        check_shape({5, 2}, {5, 3}, lesson::tr("a's last dim (2) against b's second-to-last (5): they differ, so throw",
                                    "a 的最后一维（2）对 b 的倒数第二维（5）：二者不同，所以抛出错误"));
    });
    checks.run(lesson::tr("a batch against one matrix: (5,2,3) @ (3,4)", "一批矩阵对一个矩阵：(5,2,3) @ (3,4)"), [] {
        check_shape({5, 2, 3}, {3, 4}, lesson::tr("the batch axes are all but the last two; a missing axis counts as 1", "批次轴是除最后两个以外的所有轴；缺失的轴算作 1"));
    });
    checks.run(lesson::tr("one matrix against a batch: (3,4) @ (5,4,2)", "一个矩阵对一批矩阵：(3,4) @ (5,4,2)"), [] {
        check_shape({3, 4}, {5, 4, 2}, lesson::tr("b's batch axis (5) meets a missing axis of a, which counts as 1 -> (5)",
                                       "b 的批次轴 (5) 遇上 a 缺失的轴，缺失的轴算作 1 -> (5)"));
    });
    checks.run(lesson::tr("attention scores: (B,NH,T,HS) @ (B,NH,HS,T) = (2,4,8,16) @ (2,4,16,8)",
               "注意力分数：(B,NH,T,HS) @ (B,NH,HS,T) = (2,4,8,16) @ (2,4,16,8)"), [] {
        check_shape({2, 4, 8, 16}, {2, 4, 16, 8}, lesson::tr("batch axes (2,4) and (2,4) agree; the matrices give (8,8)",
                                                  "批次轴 (2,4) 和 (2,4) 一致；矩阵部分得到 (8,8)"));
    });
    checks.run(lesson::tr("broadcast batch axes: (2,1,4,3) @ (3,3,2)", "广播批次轴：(2,1,4,3) @ (3,3,2)"), [] {
        check_shape({2, 1, 4, 3}, {3, 3, 2},
                    lesson::tr("align the batch axes (2,1) and (3) at the right: a 1 stretches to the other size -> (2,3)",
                    "把批次轴 (2,1) 和 (3) 靠右对齐：1 拉伸成另一个大小 -> (2,3)"));
    });
    checks.run(lesson::tr("aligned at the right: (1,4,2,3) @ (4,3,2) and (4,1,2,3) @ (1,5,3,2)",
               "靠右对齐：(1,4,2,3) @ (4,3,2) 和 (4,1,2,3) @ (1,5,3,2)"), [] {
        check_shape({1, 4, 2, 3}, {4, 3, 2}, lesson::tr("batch axes (1,4) against (4): the 4s meet, the 1 stays -> (1,4)",
                                             "批次轴 (1,4) 对 (4)：两个 4 对上，1 保持不变 -> (1,4)"));
        check_shape({4, 1, 2, 3}, {1, 5, 3, 2}, lesson::tr("batch axes (4,1) against (1,5): each 1 stretches -> (4,5)",
                                                "批次轴 (4,1) 对 (1,5)：每个 1 都拉伸 -> (4,5)"));
    });
    checks.run(lesson::tr("batch axes that do not broadcast: (2,2,3) @ (3,3,4)", "不能广播的批次轴：(2,2,3) @ (3,3,4)"), [] {
        check_shape({2, 2, 3}, {3, 3, 4}, lesson::tr("batch sizes 2 and 3: neither is 1, so throw pg::ShapeError",
                                          "批次大小 2 和 3：都不是 1，所以抛出 pg::ShapeError"));
    });
    checks.run(lesson::tr("edges: empty axes, (0,3) @ (3,5) and (0,2,3) @ (1,3,4), and six axes against two",
               "边界情况：空的轴 (0,3) @ (3,5) 和 (0,2,3) @ (1,3,4)，以及 6 个轴对 2 个轴"), [] {
        check_shape({0, 3}, {3, 5}, lesson::tr("N = 0 rows is a shape like any other: (0,5)", "N = 0 行也是和其他一样的形状：(0,5)"));
        check_shape({0, 2, 3}, {1, 3, 4}, lesson::tr("batch sizes 0 and 1: the 1 stretches to 0 -> (0)",
                                          "批次大小 0 和 1：1 拉伸成 0 -> (0)"));
        check_shape({2, 1, 3, 1, 4, 6}, {6, 2}, lesson::tr("the batch axes (2,1,3,1) stay as they are -> (2,1,3,1,4,2)",
                                                "批次轴 (2,1,3,1) 保持原样 -> (2,1,3,1,4,2)"));
    });
    checks.run(lesson::tr("a vector is not a matrix: (3) @ (3,4) and (2,3) @ (3)",
               "向量不是矩阵：(3) @ (3,4) 和 (2,3) @ (3)"), [] {
        check_shape({3}, {3, 4}, lesson::tr("both operands need at least 2 axes; otherwise throw pg::ShapeError",
                                 "两个操作数都至少要有 2 个轴；否则抛出 pg::ShapeError"));
        check_shape({2, 3}, {3}, lesson::tr("both operands need at least 2 axes; otherwise throw pg::ShapeError",
                                 "两个操作数都至少要有 2 个轴；否则抛出 pg::ShapeError"));
    });
    return checks.finish();
}
