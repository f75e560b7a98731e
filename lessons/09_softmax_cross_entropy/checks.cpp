// Lesson 09's checks for cross_entropy's forward and gradient, shared by starter.cpp, solution.cpp
// and your exercise.cpp: the hand example, then pg::cross_entropy and its backward as the reference,
// logits near 1000 and -1000, rows at different levels, ignored rows, and no backward of your own.
#include "check.hpp"
#include "check_tools.hpp"

namespace check09 {

static std::string backward_hint() {
    return lesson::tr("you called backward (on pg::cross_entropy, or on a loss you built from pg ops): this exercise computes the "
                      "gradient itself, with loops: p - y per row, divided by the rows that count",
                      "你调用了 backward（在 pg::cross_entropy 上，或在你用 pg 算子搭出的损失上）：这个练习要用循环自己算梯度：每一行 p - y，再除以计入的行数");
}

// Every call of your cross_entropy so far, with its inputs: an answer equal to the one given for other
// inputs is a remembered answer (a static variable, a cache), not one computed from this call's.
struct Call {
    pg::Tensor logits, targets;
    long ignore_index;
    exercise::LossAndGrad answer;
};
static std::vector<Call>& calls() {
    static std::vector<Call> all;
    return all;
}
static bool same(const pg::Tensor& a, const pg::Tensor& b) { return lesson::near(a, b, 1e-6); }   // shapes too

// The learner's function; a backward it calls (which the checks forbid) is named.
static exercise::LossAndGrad call(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index) {
    try {
        exercise::LossAndGrad answer = exercise::cross_entropy(logits, targets, ignore_index);
        calls().push_back({logits.detach(), targets.detach(), ignore_index, {answer.loss, answer.dlogits.detach()}});
        return answer;
    } catch (const std::logic_error& e) {
        if (std::string(e.what()).find("does not require grad") == std::string::npos) throw;
        throw lesson::CheckFailed("cross_entropy", lesson::tr("no backward", "不调用 backward"),
                                  lesson::tr("error: ", "错误：") + e.what(), backward_hint());
    }
}

// The library's loss and gradient for the same inputs.
static exercise::LossAndGrad reference(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index = -100) {
    pg::Tensor l = logits.detach().requires_grad_();
    pg::Tensor loss = pg::cross_entropy(l, targets, ignore_index);
    loss.backward();
    return {loss.item(), l.grad()};
}

// |a - k b| <= tol everywhere (same shapes)
static bool is_multiple(const pg::Tensor& a, const pg::Tensor& b, float k, double tol = 1e-5) {
    if (a.shape() != b.shape()) return false;
    for (size_t i = 0; i < a.numel(); ++i)
        if (!(std::fabs(a.ptr()[i] - k * b.ptr()[i]) <= tol)) return false;
    return true;
}

// The same rows with each one's largest logit swapped to the front, the target following its logit: does the
// learner's answer come out right there? (false when every row's largest is first already)
static bool right_with_largest_first(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index) {
    const size_t N = logits.size(0), C = logits.size(1);
    std::vector<float> z = logits.to_vector(), t = targets.to_vector();
    bool moved = false;
    for (size_t r = 0; r < N; ++r) {
        float* row = z.data() + r * C;
        const float top = static_cast<float>(std::max_element(row, row + C) - row);
        if (top == 0) continue;
        moved = true;
        std::swap(row[0], row[static_cast<size_t>(top)]);
        if (static_cast<long>(t[r]) == ignore_index) continue;
        if (t[r] == 0) t[r] = top;
        else if (t[r] == top) t[r] = 0;
    }
    if (!moved) return false;
    const pg::Tensor swapped = pg::tensor(z, {N, C}), swapped_targets = pg::tensor(t, {N});
    try {
        exercise::LossAndGrad mine = exercise::cross_entropy(swapped, swapped_targets, ignore_index);
        exercise::LossAndGrad lib = reference(swapped, swapped_targets, ignore_index);
        return std::fabs(mine.loss - lib.loss) < 1e-5 && lesson::near(mine.dlogits, lib.dlogits, 1e-6);
    } catch (const std::exception&) {
        return false;
    }
}

// What the learner's numbers point to, measured against the library's for the same inputs.
static std::string diagnose(const exercise::LossAndGrad& mine, const exercise::LossAndGrad& lib,
                            const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index,
                            const std::string& fallback) {
    const size_t N = logits.size(0), C = logits.size(1);
    std::vector<int> t(N);
    size_t counted = 0;
    for (size_t r = 0; r < N; ++r) {
        t[r] = static_cast<long>(targets.ptr()[r]) == ignore_index ? -1 : static_cast<int>(targets.ptr()[r]);
        if (t[r] >= 0) ++counted;
    }
    for (const Call& earlier : calls())
        if (earlier.answer.loss == mine.loss && same(earlier.answer.dlogits, mine.dlogits) &&
            !(same(earlier.logits, logits) && same(earlier.targets, targets) && earlier.ignore_index == ignore_index))
            return lesson::tr("your loss and gradient are exactly the ones you returned for earlier inputs (logits ",
                              "你的损失和梯度和你对之前另一组输入（logits ") +
                   lesson::str(earlier.logits.shape()) +
                   lesson::tr("), not computed from this call's logits and targets: a static variable or a stored result "
                              "keeps an old answer; compute every call from its own inputs",
                              "）返回的完全一样，不是由这一次的 logits 和 targets 算出来的：static 变量或存下来的结果留住了旧答案；每次调用都要用它自己的输入来算");
    const pg::Tensor& g = mine.dlogits;
    if (g.shape() != logits.shape())
        return lesson::tr("dlogits has the logits' shape (N, C) = ",
               "dlogits 的形状和 logits 相同，(N, C) = ") + lesson::str(logits.shape()) +
               lesson::tr(": pg::tensor(grad, {N, C}) with grad N * C numbers",
               "：pg::tensor(grad, {N, C})，grad 有 N * C 个数");
    if (!std::isfinite(mine.loss) || !lesson::all_finite(g)) {
        float lo = logits.ptr()[0], hi = logits.ptr()[0];
        std::vector<float> row_max(N, -1e30f);
        for (size_t i = 0; i < logits.numel(); ++i) {
            lo = std::min(lo, logits.ptr()[i]), hi = std::max(hi, logits.ptr()[i]);
            row_max[i / C] = std::max(row_max[i / C], logits.ptr()[i]);
        }
        float lowest_max = *std::min_element(row_max.begin(), row_max.end());
        if (hi > 80.f && right_with_largest_first(logits, targets, ignore_index))
            return lesson::tr("inf or nan, yet the same logits with each row's largest swapped to the front come out right: "
                              "you subtracted each row's first logit, not its largest; subtract the max of the row's C "
                              "logits before exp, wherever it stands, so that exp(z - max) is at most 1",
                              "出现了 inf 或 nan，而把每一行最大的 logit 换到最前面之后，同样这些 logits 却算对了：你减去的是"
                              "每一行的第一个 logit，而不是最大的那个；在取 exp 之前要减去这一行 C 个 logits 里最大的那个，"
                              "不管它排在哪里，这样 exp(z - max) 才不会超过 1");
        if (hi > 80.f)
            return lesson::tr("exp(1000) is inf in float: subtract the row's max before exp (log softmax is unchanged)",
                   "exp(1000) 在 float 里是 inf：在取 exp 之前减去这一行的最大值（log softmax 不变）");
        bool low_row_alone_ok = false;  // the row far below, on its own
        try {
            exercise::LossAndGrad alone = exercise::cross_entropy(pg::full({1, 2}, lowest_max), pg::tensor({0.f}), -100);
            low_row_alone_ok = std::fabs(alone.loss - std::log(2.0)) < 1e-4 && lesson::all_finite(alone.dlogits);
        } catch (const std::exception&) {
        }
        if (lowest_max < -80.f && !low_row_alone_ok)
            return lesson::tr("a row of logits near ", "一行接近 ") + lesson::num(lowest_max, 0) +
                   lesson::tr(" gives inf or nan even on its own: exp underflows to 0 there; subtract the row's max before exp",
                   " 的 logits 单独就会得到 inf 或 nan：exp 在那里下溢为 0；在取 exp 之前减去这一行的最大值");
        if (*std::max_element(row_max.begin(), row_max.end()) - lowest_max > 80.f)
            return lesson::tr("inf or nan where one row's logits sit far below another's: subtract each row's own max, not one "
                   "max over the whole tensor (that row's exps all underflow to 0, and log 0 = -inf)",
                   "在一行的 logits 远低于另一行的地方出现了 inf 或 nan：要减去每一行自己的最大值，而不是整个张量的同一个最大值（那一行的 exp 全都下溢为 0，而 log 0 = -inf）");
        if (lo < -80.f)
            return lesson::tr("log(softmax) is log(0) = -inf here: work with log_softmax = z - max - log(sum exp(z - max))",
                   "这里 log(softmax) 是 log(0) = -inf：要用 log_softmax = z - max - log(sum exp(z - max)) 来算");
        return fallback;
    }
    if (ignore_index != -100) {  // the default compared instead of the ignore_index given
        exercise::LossAndGrad all = reference(logits, targets, -100);
        if (std::fabs(mine.loss - all.loss) < 1e-5 && is_multiple(g, all.dlogits, 1.f, 1e-6))
            return lesson::tr("no row was ignored: compare each target with the ignore_index you are given (here ",
                   "没有任何一行被忽略：要把每个 target 和给你的 ignore_index（这里是 ") +
                   std::to_string(ignore_index) + lesson::tr("), not -100", "）比较，而不是 -100");
    }
    // ignored rows
    for (size_t r = 0; r < N; ++r)
        if (t[r] < 0)
            for (size_t c = 0; c < C; ++c)
                if (g.ptr()[r * C + c] != 0.f)
                    return lesson::tr("row ", "行 ") + std::to_string(r) +
                           lesson::tr(" is ignored (its target is ignore_index ", " 被忽略了（它的 target 是 ignore_index ") +
                           std::to_string(ignore_index) +
                           lesson::tr(") and has a gradient: ignored rows get a zero gradient", "），却有梯度：被忽略的行梯度应该为零");
    if (counted < N && std::fabs(mine.loss - lib.loss * counted / N) < 1e-5)
        return lesson::tr("the loss is divided by N = ", "损失除以的是 N = ") + std::to_string(N) +
               lesson::tr(": divide by the rows that count (", "：要除以计入的行数（") +
               std::to_string(counted) + lesson::tr("), not N", "），而不是 N");
    if (counted < N && is_multiple(g, lib.dlogits, static_cast<float>(counted) / N))
        return lesson::tr("the gradient is divided by N = ", "梯度除以的是 N = ") + std::to_string(N) +
               lesson::tr(": divide by the rows that count (", "：要除以计入的行数（") +
               std::to_string(counted) + lesson::tr("), not N", "），而不是 N");
    if (counted > 1 && is_multiple(g, lib.dlogits, static_cast<float>(counted)))
        return lesson::tr("the gradient is ", "梯度是应有值的 ") + std::to_string(counted) +
               lesson::tr(" times too large: the loss is a mean over ", " 倍：损失是对 ") + std::to_string(counted) +
               lesson::tr(" rows, so every gradient entry is (p - y) / ", " 行取的平均，所以梯度的每个元素都是 (p - y) / ") +
               std::to_string(counted);
    if (is_multiple(g, lib.dlogits, -1.f))
        return lesson::tr("the gradient has the wrong sign: it is p - y (softmax minus the one-hot target), not y - p",
               "梯度的符号反了：应该是 p - y（softmax 减去 one-hot 目标），不是 y - p");
    // the one-hot forgotten: g = p / counted, so each counted row sums to 1 / counted
    bool rows_sum_to_share = true;
    for (size_t r = 0; r < N; ++r) {
        if (t[r] < 0) continue;
        double s = 0;
        for (size_t c = 0; c < C; ++c) s += g.ptr()[r * C + c];
        rows_sum_to_share = rows_sum_to_share && std::fabs(s - 1.0 / counted) < 1e-5;
    }
    if (rows_sum_to_share)
        return lesson::tr("each gradient row sums to ", "梯度的每一行加起来是 ") +
               (counted == 1 ? std::string("1") : "1/" + std::to_string(counted)) +
               lesson::tr(": that is softmax alone; subtract 1 at the target (p - y), so that each row sums to 0",
               "：那只是 softmax 本身；要在目标处减去 1（p - y），这样每一行加起来是 0");
    double mean_target_logit = 0;
    for (size_t r = 0; r < N; ++r)
        if (t[r] >= 0) mean_target_logit += logits.ptr()[r * C + t[r]] / counted;
    if (std::fabs(mine.loss - (lib.loss + mean_target_logit)) < 1e-4)
        return lesson::tr("that is the logsumexp alone: the loss is logsumexp(z) - z[target]",
               "那只是 logsumexp 本身：损失是 logsumexp(z) - z[target]");
    return fallback;
}

static void expect_like_library(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index,
                                const std::string& loss_hint, const std::string& grad_hint) {
    exercise::LossAndGrad mine = call(logits, targets, ignore_index);
    exercise::LossAndGrad lib = reference(logits, targets, ignore_index);
    lesson::expect_near("loss", mine.loss, lib.loss, 1e-5, diagnose(mine, lib, logits, targets, ignore_index, loss_hint));
    lesson::expect_near("dlogits", mine.dlogits, lib.dlogits, 1e-6,
                        diagnose(mine, lib, logits, targets, ignore_index, grad_hint));
}

}  // namespace check09

int main() {
    using check09::call;
    using check09::expect_like_library;
    lesson::Checks checks("09", "softmax_cross_entropy");
    checks.run(lesson::tr("logits [2, 1, 0.1], target 0: loss 0.4170",
               "logits [2, 1, 0.1]，target 0：损失 0.4170"), [] {
        pg::Tensor z = pg::tensor({{2.f, 1.f, 0.1f}}), t = pg::tensor({0.f});
        exercise::LossAndGrad r = call(z, t, -100);
        lesson::expect_near("loss", r.loss, 0.41703, 1e-4,
                            check09::diagnose(r, check09::reference(z, t), z, t, -100,
                                              lesson::tr("-log softmax(z)[target] = log(sum exp z) - z[target]; "
                                              "2.4170 would be the logsumexp alone",
                                              "-log softmax(z)[target] = log(sum exp z) - z[target]；2.4170 会是单独的 logsumexp")));
    });
    checks.run(lesson::tr("its gradient: p - y = [-0.3410, 0.2424, 0.0986]",
               "它的梯度：p - y = [-0.3410, 0.2424, 0.0986]"), [] {
        pg::Tensor z = pg::tensor({{2.f, 1.f, 0.1f}}), t = pg::tensor({0.f});
        exercise::LossAndGrad r = call(z, t, -100);
        lesson::expect_near("dlogits", r.dlogits, pg::tensor({{-0.34101f, 0.24243f, 0.09856f}}), 1e-4,
                            check09::diagnose(r, check09::reference(z, t), z, t, -100,
                                              lesson::tr("softmax(z) with 1 subtracted at the target; shape (N, C) = (1,3)",
                                              "softmax(z) 在目标处减去 1；形状 (N, C) = (1,3)")));
    });
    checks.run(lesson::tr("a batch of 2 rows: the mean, so each row's gradient is divided by 2", "2 行的一批：取平均，所以每一行的梯度都除以 2"), [] {
        expect_like_library(pg::tensor({{2.f, 1.f, 0.1f}, {0.5f, 2.5f, -1.f}}), pg::tensor({0.f, 2.f}), -100,
                            lesson::tr("average the rows' losses: divide the sum by N", "对各行的损失取平均：把和除以 N"),
                            lesson::tr("the loss is a mean over N rows, so every gradient entry is (p - y) / N",
                            "损失是对 N 行取的平均，所以梯度的每个元素都是 (p - y) / N"));
    });
    checks.run(lesson::tr("a random (4,5) against pg::cross_entropy and backward",
               "随机的 (4,5)，与 pg::cross_entropy 和 backward 对比"), [] {
        pg::Generator gen(9);
        expect_like_library(pg::randn({4, 5}, gen) * 3.f, pg::tensor({4.f, 0.f, 2.f, 2.f}), -100,
                            lesson::tr("row r: log(sum_c exp(z[r][c])) - z[r][target[r]], averaged",
                            "行 r：log(sum_c exp(z[r][c])) - z[r][target[r]]，再取平均"),
                            lesson::tr("row r: (softmax(z[r]) - onehot(target[r])) / N",
                            "行 r：(softmax(z[r]) - onehot(target[r])) / N"));
    });
    checks.run(lesson::tr("large logits [1000, 999, 998]: finite and right",
               "很大的 logits [1000, 999, 998]：有限而且正确"), [] {
        expect_like_library(pg::tensor({{1000.f, 999.f, 998.f}}), pg::tensor({1.f}), -100,
                            lesson::tr("exp(1000) is inf in float: subtract the row's max before exp (log softmax is unchanged)",
                            "exp(1000) 在 float 里是 inf：在取 exp 之前减去这一行的最大值（log softmax 不变）"),
                            lesson::tr("softmax with the max subtracted first: exp(z - max) / sum exp(z - max)",
                            "先减去最大值的 softmax：exp(z - max) / sum exp(z - max)"));
    });
    checks.run(lesson::tr("large logits, the largest not first: [0, 1000, 999], target 2",
                          "很大的 logits，最大的不在最前面：[0, 1000, 999]，target 2"), [] {
        expect_like_library(pg::tensor({{0.f, 1000.f, 999.f}}), pg::tensor({2.f}), -100,
                            lesson::tr("logsumexp = max + log(sum exp(z - max)) with max = 1000, the largest logit, here the "
                                       "second: the loss is 1000 + log(1 + e^-1) - 999",
                                       "logsumexp = max + log(sum exp(z - max))，max = 1000 是最大的 logit，这里排在第二："
                                       "损失是 1000 + log(1 + e^-1) - 999"),
                            lesson::tr("softmax with the largest logit subtracted first, wherever it stands: exp(z - 1000) / "
                                       "sum exp(z - 1000)",
                                       "先减去最大的 logit（不管它排在哪里）的 softmax：exp(z - 1000) / sum exp(z - 1000)"));
    });
    checks.run(lesson::tr("a very unlikely target: logits [0, -200], target 1 gives 200",
               "极不可能的目标：logits [0, -200]，target 1 得到 200"), [] {
        pg::Tensor z = pg::tensor({{0.f, -200.f}}), t = pg::tensor({1.f});
        exercise::LossAndGrad r = call(z, t, -100);
        const std::string log_hint = lesson::tr("work with log_softmax = z - max - log(sum exp(z - max)); "
                                                "log(softmax) is log(0) = -inf here",
                                                "要用 log_softmax = z - max - log(sum exp(z - max)) 来算；这里 log(softmax) 是 log(0) = -inf");
        lesson::expect_near("loss", r.loss, 200.0, 1e-3,
                            std::isfinite(r.loss) ? check09::diagnose(r, check09::reference(z, t), z, t, -100, log_hint)
                                                  : log_hint);
    });
    checks.run(lesson::tr("rows at different levels: [[0, 0], [-1000, -1000]]",
               "高低不同的行：[[0, 0], [-1000, -1000]]"), [] {
        expect_like_library(pg::tensor({{0.f, 0.f}, {-1000.f, -1000.f}}), pg::tensor({0.f, 1.f}), -100,
                            lesson::tr("both rows are a fair coin, loss log 2 each: subtract each row's own max",
                            "两行都是公平的硬币，每行损失 log 2：要减去每一行自己的最大值"),
                            lesson::tr("both rows: p = [1/2, 1/2], so (p - y) / 2 is +-1/4",
                            "两行都是：p = [1/2, 1/2]，所以 (p - y) / 2 是 +-1/4"));
    });
    checks.run(lesson::tr("ignore_index: the row with target -100 counts for nothing",
               "ignore_index：target 为 -100 的那一行不计入"), [] {
        expect_like_library(pg::tensor({{2.f, 1.f, 0.1f}, {1.f, 1.f, 1.f}, {0.5f, 2.5f, -1.f}}),
                            pg::tensor({0.f, -100.f, 1.f}), -100,
                            lesson::tr("skip rows whose target is ignore_index, and divide by the rows that count (2), not N (3)",
                            "跳过 target 等于 ignore_index 的行，并除以计入的行数（2），而不是 N（3）"),
                            lesson::tr("ignored rows get a zero gradient; the others (p - y) / (rows that count)",
                            "被忽略的行梯度为零；其他行是 (p - y) / (计入的行数)"));
    });
    checks.run(lesson::tr("another ignore_index: 3", "另一个 ignore_index：3"), [] {
        pg::Generator gen(10);
        expect_like_library(pg::randn({3, 4}, gen), pg::tensor({3.f, 1.f, 3.f}), 3,
                            lesson::tr("compare each target with the ignore_index you are given (not -100), and divide by the "
                            "rows that count",
                            "要把每个 target 和给你的 ignore_index 比较（不是 -100），并除以计入的行数"),
                            lesson::tr("rows whose target equals ignore_index get no gradient: compare each target with the "
                            "ignore_index you are given (not -100)",
                            "target 等于 ignore_index 的行没有梯度：要把每个 target 和给你的 ignore_index 比较（不是 -100）"));
    });
    checks.run(lesson::tr("your own loops: no backward, no pg::softmax",
               "你自己的循环：不用 backward，不用 pg::softmax"), [] {
        pg::Tensor z = pg::tensor({{2.f, 1.f, 0.1f}, {0.5f, 2.5f, -1.f}}), t = pg::tensor({0.f, 2.f});
        {
            pg::NoGradGuard no_grad;  // a backward inside fails here: nothing records a graph
            call(z, t, -100);
        }
        pg::Tensor l = z.detach().requires_grad_();  // a graph behind dlogits would name the ops
        exercise::LossAndGrad r = call(l, t, -100);
        lesson::expect("logits.has_grad()", !l.has_grad(), lesson::tr("false: your code computes the gradient itself", "false：你的代码自己算出梯度"),
                       lesson::tr("true: a backward filled logits.grad()",
                       "true：某次 backward 填了 logits.grad()"), check09::backward_hint());
        for (const char* op : {"cross_entropy", "log_softmax", "softmax"})
            lesson::expect_not_called("dlogits", r.dlogits, op,
                                      lesson::tr("write softmax yourself: exp(z - max) / sum, with loops over logits.ptr()",
                                      "自己写 softmax：exp(z - max) / sum，用遍历 logits.ptr() 的循环"));
    });
    return checks.finish();
}
