// Lesson 02's checks for stable_softmax, shared by starter.cpp, solution.cpp and your exercise.cpp.
// Seed 001's scores, rows of any tensor, and inputs where a naive softmax gives nan. When your weights
// are wrong, the check recomputes the usual wrong softmaxes (no maximum, one maximum for the whole
// tensor, the wrong axis, ...) and names the one your numbers match.
#include "check.hpp"
#include "check_tools.hpp"

namespace check02 {

// One way of getting softmax wrong, recomputed on x's numbers, with the hint that names it.
enum class Wrong {
    no_max, one_max, max_from_zero, max_from_largest, max_skips_last, log_of_sum,  // overflow and underflow
    one_sum, sum_kept, first_axis, rows_from_size0, c_from_size0,  // the rows
};

static std::string hint_of(Wrong w) {
    switch (w) {
        case Wrong::no_max:
            return lesson::tr("exp(1000) overflows float to inf, and inf/inf is nan (exp(-1000) underflows to 0, and 0/0 is "
                   "nan): subtract the row's maximum first, softmax(x) = softmax(x - max x)",
                   "exp(1000) 在 float 里溢出为 inf，而 inf/inf 是 nan（exp(-1000) 下溢为 0，而 0/0 是 nan）：先减去这一行的最大值，softmax(x) = softmax(x - max x)");
        case Wrong::one_max:
            return lesson::tr("you subtracted one maximum of the whole tensor: a row far below it gets exp = 0 everywhere and "
                   "0/0 = nan. Subtract each row's own maximum",
                   "你减去的是整个张量的同一个最大值：远低于它的一行处处 exp = 0，而 0/0 = nan。每一行要减去它自己的最大值");
        case Wrong::max_from_zero:
            return lesson::tr("your maximum starts at 0, so for a row all far below 0 it stays 0 and every exp underflows "
                   "(0/0 = nan): start from the row's first number, row[0], or from -infinity",
                   "你的最大值从 0 开始，所以对全部远低于 0 的一行，它一直是 0，每个 exp 都下溢（0/0 = nan）：应该从这一行的第一个数 row[0] 开始，或者从 -infinity 开始");
        case Wrong::max_from_largest:
            return lesson::tr("every weight is nan, as when your maximum starts above every number: "
                              "std::numeric_limits<float>::max() is the largest float, so m stays there, every exp(x - m) "
                              "underflows to 0 and 0/0 is nan. Start from the row's first number, row[0], or from "
                              "std::numeric_limits<float>::lowest()",
                              "每个权重都是 nan，就像你的最大值从比所有数都大的值开始时那样：std::numeric_limits<float>::max() "
                              "是最大的 float，m 会一直停在那里，每个 exp(x - m) 都下溢为 0，而 0/0 是 nan。应该从这一行的第一个数 "
                              "row[0] 开始，或者从 std::numeric_limits<float>::lowest() 开始");
        case Wrong::max_skips_last:
            return lesson::tr("your maximum missed the row's last number: the end of a range is one past the last, "
                   "std::max_element(row, row + C), and a loop runs j < C",
                   "你的最大值漏掉了这一行的最后一个数：区间的结尾是最后一个元素的下一个位置，std::max_element(row, row + C)，循环条件是 j < C");
        case Wrong::log_of_sum:
            return lesson::tr("exp(x - log(sum of exp)) is softmax on paper, but the sum of exps overflows to inf first and "
                   "every weight becomes exp(-inf) = 0: subtract the row's maximum before any exp",
                   "exp(x - log(sum of exp)) 在纸面上就是 softmax，但 exp 的和会先溢出成 inf，于是每个权重都变成 exp(-inf) = 0：在任何 exp 之前先减去这一行的最大值");
        case Wrong::one_sum:
            return lesson::tr("the whole tensor sums to 1, not each row: you divided by one sum over every row. Each row is "
                   "divided by its own sum",
                   "是整个张量加起来为 1，而不是每一行：你用同一个跨所有行的和去除。每一行要除以它自己的和");
        case Wrong::sum_kept:
            return lesson::tr("your rows after the first do not sum to 1: the sum is never set back to 0, so each row is "
                   "divided by the exps of every row so far. Start total at 0 for each row",
                   "你第一行之后的各行加起来不等于 1：和从来没有重新设回 0，所以每一行都被到目前为止所有行的 exp 一起除了。每一行开始时都要把 total 设为 0");
        case Wrong::first_axis:
            return lesson::tr("your weights sum to 1 down each column: softmax over the wrong axis. A row is C = x.size(-1) "
                   "neighbours in memory, x.ptr()[r * C + j] for j = 0 .. C-1",
                   "你的权重沿每一列加起来为 1：softmax 用错了轴。一行是内存里相邻的 C = x.size(-1) 个数，x.ptr()[r * C + j]，j = 0 .. C-1");
        case Wrong::rows_from_size0:
            return lesson::tr("only the first x.size(0) rows were computed: the number of rows is x.numel() / C, every axis "
                   "but the last",
                   "只算了前 x.size(0) 行：行数是 x.numel() / C，即除最后一维以外所有维的乘积");
        case Wrong::c_from_size0:
            return lesson::tr("you took C from the first axis: C = x.size(-1), the last axis (x.size(0) is the first)",
                   "你从第一维取了 C：C = x.size(-1)，是最后一维（x.size(0) 是第一维）");
    }
    return "";
}

// softmax of `rows` rows of C numbers, done right (ok) or the `w` way; 0 where no row was computed.
static std::vector<float> rows_softmax(const std::vector<float>& x, size_t C, size_t rows, Wrong w, bool ok) {
    std::vector<float> y(x.size(), 0.f);
    float all_max = -std::numeric_limits<float>::infinity();
    for (float v : x) all_max = std::max(all_max, v);
    double all_sum = 0;
    if (!ok && w == Wrong::one_sum)
        for (float v : x) all_sum += std::exp(v - all_max);
    float kept = 0.f;  // Wrong::sum_kept: one total for all the rows
    for (size_t r = 0; r < rows && (r + 1) * C <= x.size(); ++r) {
        const float* row = x.data() + r * C;
        float m = *std::max_element(row, row + C);
        if (!ok) {
            if (w == Wrong::no_max || w == Wrong::log_of_sum) m = 0.f;
            if (w == Wrong::one_max || w == Wrong::one_sum) m = all_max;
            if (w == Wrong::max_from_zero) m = std::max(m, 0.f);
            if (w == Wrong::max_from_largest) m = std::numeric_limits<float>::max();
            if (w == Wrong::max_skips_last) m = C > 1 ? *std::max_element(row, row + C - 1) : 0.f;
        }
        float fresh = 0.f;
        float& total = !ok && w == Wrong::sum_kept ? kept : fresh;
        for (size_t j = 0; j < C; ++j) total += std::exp(row[j] - m);
        for (size_t j = 0; j < C; ++j) {
            float e = std::exp(row[j] - m);
            if (!ok && w == Wrong::log_of_sum) y[r * C + j] = std::exp(row[j] - std::log(total));
            else if (!ok && w == Wrong::one_sum) y[r * C + j] = static_cast<float>(e / all_sum);
            else y[r * C + j] = e / total;
        }
    }
    return y;
}

static std::vector<float> softmax_wrong(const pg::Tensor& x, Wrong w) {
    std::vector<float> v = x.to_vector();
    size_t C = x.size(-1), rows = x.numel() / C;
    switch (w) {
        case Wrong::first_axis:
            return x.dim() < 2 ? std::vector<float>{} : pg::softmax(x.detach(), 0).to_vector();
        case Wrong::rows_from_size0:
            return x.dim() < 2 ? std::vector<float>{} : rows_softmax(v, C, x.size(0), w, true);
        case Wrong::c_from_size0:
            return x.dim() < 2 ? std::vector<float>{} : rows_softmax(v, x.size(0), x.numel() / x.size(0), w, true);
        default:
            return rows_softmax(v, C, rows, w, false);
    }
}

// Equal within tol, a nan matching a nan.
static bool same(const std::vector<float>& a, const std::vector<float>& b, double tol) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        bool na = std::isnan(a[i]), nb = std::isnan(b[i]);
        if (na != nb || (!na && !(std::fabs(a[i] - b[i]) <= tol))) return false;
    }
    return true;
}

// Runs your stable_softmax on x (x requires grad, so a call to pg::softmax shows in the result's
// graph) and compares with `expected`; on a mismatch the hint names every wrong softmax the numbers
// match, else it is `fallback`.
static void expect_softmax(pg::Tensor x, const pg::Tensor& expected, double tol, const std::string& fallback) {
    x = x.detach().requires_grad_();
    pg::Tensor y = exercise::stable_softmax(x);
    for (const char* op : {"softmax", "log_softmax"})
        lesson::expect_not_called("stable_softmax(x)", y, op,
                                  lesson::tr("write it from loops over x.ptr(): the row's maximum, exp, and the row's sum",
                                  "用遍历 x.ptr() 的循环自己写：这一行的最大值、exp，以及这一行的和"));
    if (y.shape() != x.shape())
        throw lesson::CheckFailed(lesson::tr("stable_softmax(x)'s shape", "stable_softmax(x) 的形状"), lesson::str(x.shape()), lesson::str(y.shape()),
                                  lesson::tr("softmax keeps the shape: return pg::tensor(values, x.shape())",
                                  "softmax 不改变形状：return pg::tensor(values, x.shape())"));
    std::vector<float> got = y.to_vector(), want = expected.to_vector();
    static std::vector<std::vector<float>> earlier;  // the right weights of the checks before this one
    using Weights = std::vector<float>;
    const bool repeated = lesson::came_back(
        got, want, earlier, [](const Weights& a, const Weights& b) { return same(a, b, 1e-6); },
        [&](const Weights& a, const Weights& b) { return !same(a, b, tol); }, lesson::Remember::right_answers);
    if (same(got, want, tol)) return;
    if (repeated)
        throw lesson::CheckFailed(lesson::tr("weights", "权重"), lesson::str(expected), lesson::str(y),
                                  lesson::tr("your weights are exactly the ones your function returned for an earlier, "
                                             "different x: compute them from this call's x, not from a constant or a "
                                             "static kept from a call before",
                                             "你的权重和你的函数在前面一个检查里、对另一个 x 返回的一模一样：要用这一次调用的 x 来算，"
                                             "不能用常量，也不能用上一次调用留下的 static 变量"));
    std::string hint;
    for (Wrong w : {Wrong::no_max, Wrong::one_max, Wrong::max_from_zero, Wrong::max_from_largest, Wrong::max_skips_last,
                    Wrong::log_of_sum, Wrong::one_sum, Wrong::sum_kept, Wrong::first_axis, Wrong::rows_from_size0,
                    Wrong::c_from_size0}) {
        std::vector<float> wrong = softmax_wrong(x, w);
        if (!same(wrong, want, tol) && same(got, wrong, std::max(tol, 1e-5)))
            hint += (hint.empty() ? std::string() : lesson::tr("; or: ", "；或者：")) + hint_of(w);
    }
    if (hint.empty()) {
        bool any_nan = false;
        for (float v : got) any_nan = any_nan || std::isnan(v);
        const size_t C = x.size(-1);
        std::string off_row;  // the first row of your weights whose sum is not 1
        for (size_t r = 0; r * C < got.size() && off_row.empty(); ++r) {
            double row_sum = 0;
            for (size_t j = 0; j < C; ++j) row_sum += got[r * C + j];
            if (std::isfinite(row_sum) && std::fabs(row_sum - 1) > 1e-3)
                off_row = lesson::tr("row ", "你的权重第 ") + std::to_string(r) + lesson::tr(" of your weights sums to ", " 行的和是 ") + lesson::num(row_sum) +
                          lesson::tr(", not 1: each row of C = x.size(-1) numbers is divided by its own sum; ",
                          "，不是 1：每一行的 C = x.size(-1) 个数都要除以它自己的和；");
        }
        if (any_nan)
            hint = lesson::tr("nan in your weights: an exp overflowed (inf/inf) or a whole row underflowed (0/0). "
                   "Subtract each row's own maximum before exp; ",
                   "你的权重里有 nan：某个 exp 溢出了（inf/inf），或者整行都下溢了（0/0）。在取 exp 之前，每一行减去它自己的最大值；") + fallback;
        else
            hint = off_row + fallback;
    }
    throw lesson::CheckFailed(lesson::tr("weights", "权重"),
                              lesson::str(expected) + lesson::tr(" (within ", "（误差不超过 ") + lesson::num(tol, 6) +
                                  lesson::tr(")", "）"),
                              lesson::str(y), hint);
}

}  // namespace check02

int main() {
    lesson::Checks checks("02", "dot_softmax");
    checks.run(lesson::tr("seed 001: fruit's scores [2.08, 1.92, -0.62]",
               "源文章 001：查询 fruit 的分数 [2.08, 1.92, -0.62]"), [] {
        check02::expect_softmax(pg::tensor({2.08f, 1.92f, -0.62f}), pg::tensor({0.5210f, 0.4440f, 0.0350f}), 1e-4,
                                lesson::tr("exp each score, then divide by the sum of the three exps (the article's "
                                "0.520 / 0.439 / 0.041 are not the softmax of these scores)",
                                "对每个分数取 exp，再除以三个 exp 的和（文章里的 0.520 / 0.439 / 0.041 并不是这些分数的 softmax）"));
    });
    checks.run(lesson::tr("seed 001's two queries: fruit's and furniture's scores, a (2,3) input",
               "源文章 001 的两个查询：fruit 和 furniture 的分数，(2,3) 的输入"), [] {
        check02::expect_softmax(pg::tensor({{2.08f, 1.92f, -0.62f}, {-0.57f, -0.78f, 0.98f}}),
                                pg::tensor({{0.5210f, 0.4440f, 0.0350f}, {0.1533f, 0.1243f, 0.7224f}}), 1e-4,
                                lesson::tr("each query's row of scores on its own: furniture's row [-0.57, -0.78, 0.98] gives "
                                           "[0.1533, 0.1243, 0.7224]",
                                           "每个查询的那一行分数各算各的：furniture 那一行 [-0.57, -0.78, 0.98] 得到 "
                                           "[0.1533, 0.1243, 0.7224]"));
    });
    checks.run(lesson::tr("[1000, 999, 998] stays finite", "[1000, 999, 998] 保持有限"), [] {
        check02::expect_softmax(pg::tensor({1000.f, 999.f, 998.f}), pg::tensor({0.6652f, 0.2447f, 0.0900f}), 1e-4,
                                lesson::tr("exp(1000) overflows float to inf, and inf/inf is nan; subtract the row's "
                                "maximum first: softmax(x) = softmax(x - max x)",
                                "exp(1000) 在 float 里溢出为 inf，而 inf/inf 是 nan；先减去这一行的最大值：softmax(x) = softmax(x - max x)"));
    });
    checks.run(lesson::tr("[-1000, -1000] gives [0.5, 0.5]", "[-1000, -1000] 得到 [0.5, 0.5]"), [] {
        check02::expect_softmax(pg::tensor({-1000.f, -1000.f}), pg::tensor({0.5f, 0.5f}), 1e-6,
                                lesson::tr("exp(-1000) underflows to 0, and 0/0 is nan; after subtracting the maximum "
                                "the largest exp is exactly 1",
                                "exp(-1000) 下溢为 0，而 0/0 是 nan；减去最大值以后，最大的 exp 正好是 1"));
    });
    checks.run(lesson::tr("the maximum last: [-1000, 0] gives [0, 1]", "最大值在最后：[-1000, 0] 得到 [0, 1]"), [] {
        check02::expect_softmax(pg::tensor({-1000.f, 0.f}), pg::tensor({0.f, 1.f}), 1e-6,
                                lesson::tr("the row's maximum is its last number here: look at all C of them", "这里这一行的最大值是它的最后一个数：要看全部 C 个数"));
    });
    checks.run(lesson::tr("rows of one number: (3,1) gives 1 in every row", "每行只有一个数：(3,1) 的每一行都得到 1"), [] {
        check02::expect_softmax(pg::tensor({{-5.f}, {0.f}, {700.f}}), pg::tensor({{1.f}, {1.f}, {1.f}}), 1e-6,
                                lesson::tr("a row of one number has one weight, exp(0) / exp(0) = 1, whatever the number",
                                "只有一个数的一行只有一个权重，不管这个数是多少，都是 exp(0) / exp(0) = 1"));
    });
    checks.run(lesson::tr("each row its own maximum: [[0, 0], [-1000, -1000]]",
               "每一行用自己的最大值：[[0, 0], [-1000, -1000]]"), [] {
        check02::expect_softmax(pg::tensor({{0.f, 0.f}, {-1000.f, -1000.f}}), pg::tensor({{0.5f, 0.5f}, {0.5f, 0.5f}}),
                                1e-6, lesson::tr("each row is a softmax of its own: its own maximum, its own sum", "每一行是它自己的 softmax：它自己的最大值，它自己的和"));
    });
    checks.run(lesson::tr("a (4,5) input: each row on its own, against pg::softmax",
               "(4,5) 的输入：每一行各算各的，与 pg::softmax 对比"), [] {
        pg::Generator gen(2);
        pg::Tensor x = pg::randn({4, 5}, gen) * 3.f;
        check02::expect_softmax(x, pg::softmax(x, -1), 1e-5,
                                lesson::tr("softmax runs along the last dim: row r is x.ptr()[r*C .. r*C + C-1], with its "
                                "own maximum and its own sum; return pg::tensor(values, x.shape())",
                                "softmax 沿最后一维进行：第 r 行是 x.ptr()[r*C .. r*C + C-1]，有它自己的最大值和它自己的和；return pg::tensor(values, x.shape())"));
    });
    checks.run(lesson::tr("a (2,3,4) input: rows are the last dim whatever the rank", "(2,3,4) 的输入：不管有几维，行都是最后一维"), [] {
        pg::Generator gen(3);
        pg::Tensor x = pg::randn({2, 3, 4}, gen);
        check02::expect_softmax(x, pg::softmax(x, -1), 1e-5, lesson::tr("C = x.size(-1) and the number of rows is x.numel() / C",
                                                             "C = x.size(-1)，行数是 x.numel() / C"));
    });
    return checks.finish();
}
