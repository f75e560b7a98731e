// Lesson 06's checks for the backward of cube and add_bias, shared by starter.cpp, solution.cpp and
// your exercise.cpp: hand-computed gradients first, then the library's ops and pg::gradcheck. When a
// gradient is wrong, the check recomputes the usual wrong backwards (gy left out, 3x for 3x^2, the
// output read as the input, db not summed, = for +=, ...) and names the one your numbers match.
#include "check.hpp"
#include "check_tools.hpp"

namespace check06 {

// pg::gradcheck on f(inputs) with the library's defaults; fails the check with its report.
static void expect_gradcheck(const std::string& what,
                             const std::function<pg::Tensor(const std::vector<pg::Tensor>&)>& f,
                             const std::vector<pg::Tensor>& inputs, const std::string& hint) {
    pg::GradcheckResult r = pg::gradcheck(f, inputs);
    lesson::expect(what, r.ok, lesson::tr("analytic gradients equal to central differences", "解析梯度等于中心差分"),
                   lesson::tr("max error ", "最大误差 ") + lesson::num(r.max_abs_error, 6) + "; " +
                       lesson::gradcheck_report(r),
                   hint);
}

// y.backward(gy) (or y.backward() for a scalar), the engine's complaints about your backward's
// gradients turned into a failed check that says what to return.
static void run_backward(const std::string& what, const pg::Tensor& y, const pg::Tensor* gy, const std::string& op) {
    try {
        if (gy) y.backward(*gy);
        else y.backward();
    } catch (const lesson::NotImplemented&) {
        throw;
    } catch (const std::logic_error& e) {
        std::string m = e.what(), hint = lesson::tr("return one gradient per input, each with its input's shape", "每个输入返回一个梯度，每个梯度的形状和它的输入相同");
        const std::string tag = "gradient for input 1 has shape ";
        if (op == "add_bias" && m.find(tag) != std::string::npos) {
            size_t at = m.find(tag) + tag.size();
            const std::string db_shape = m.substr(at, m.find(' ', at) - at);  // "(2,3)"
            if (db_shape.rfind("(1,", 0) == 0)
                hint = lesson::tr("db is ", "db 是 ") + db_shape +
                       lesson::tr(", not (C): whether it is gy itself or one row kept with its axis, b "
                       "is (C), so sum gy over the rows into pg::Array db(pg::Shape{C})",
                       "，不是 (C)：不管它是 gy 本身，还是保留了轴的一行，b 都是 (C)，所以要把 gy 沿各行求和，放进 pg::Array db(pg::Shape{C})");
            else if (db_shape.find(',') != std::string::npos)
                hint = lesson::tr("db has gy's shape (N, C), but b is (C): b was added to every row, so db adds up gy over the "
                       "N rows, db[c] = sum over r of gy[r * C + c]",
                       "db 的形状是 gy 的 (N, C)，但 b 是 (C)：b 被加到了每一行上，所以 db 要把 gy 的 N 行加起来，db[c] = 对 r 求和 gy[r * C + c]");
            else if (y.dim() == 2 && y.size(0) != y.size(1) && db_shape == "(" + std::to_string(y.size(0)) + ")")
                hint = lesson::tr("db has N entries, one per row: you summed each row (over c). b is (C): sum each column, over "
                       "the rows r",
                       "db 有 N 个元素，每行一个：你把每一行（沿 c）求和了。b 是 (C)：应该把每一列沿各行 r 求和");
            else
                hint = lesson::tr("db has the wrong shape: b is (C), so db is a (C) Array, pg::Array db(pg::Shape{C})",
                       "db 的形状不对：b 是 (C)，所以 db 是一个 (C) 的 Array，pg::Array db(pg::Shape{C})");
        } else if (op == "add_bias" && m.find("gradient for input 0 has shape") != std::string::npos) {
            hint = lesson::tr("the gradients come in the order of make_result's inputs {x, b}: return {dx, db}, dx first",
                   "梯度的顺序和 make_result 的输入 {x, b} 一致：返回 {dx, db}，dx 在前");
        } else if (op == "cube" && m.find("gradient for input 0 has shape") != std::string::npos) {
            hint = lesson::tr("dx has x's shape: start from a copy of gy (pg::Array dx = ctx.gy) and change its elements",
                   "dx 的形状和 x 相同：从 gy 的副本开始（pg::Array dx = ctx.gy），再改它的元素");
        } else if (m.find(" gradients for its ") != std::string::npos) {
            hint = lesson::tr("return one gradient per input of make_result, in order: {dx} for cube, {dx, db} for add_bias",
                   "make_result 的每个输入按顺序返回一个梯度：cube 返回 {dx}，add_bias 返回 {dx, db}");
        }
        throw lesson::CheckFailed(what, lesson::tr("a backward the engine accepts", "引擎接受的 backward"), m, hint);
    }
}

// Equal within tol (relative to |b| above 1 when `relative`), a nan matching a nan.
static bool same(const std::vector<float>& a, const std::vector<float>& b, double tol, bool relative) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        bool na = std::isnan(a[i]), nb = std::isnan(b[i]);
        double scale = relative ? std::max(1.f, std::fabs(b[i])) : 1.0;
        if (na != nb || (!na && !(std::fabs(a[i] - b[i]) <= tol * scale))) return false;
    }
    return true;
}

// Compares got with want (relative to |want| above 1 when `relative`); on a mismatch the hint names
// every wrong version in `wrongs` that the numbers match, else a gradient that came back from an
// earlier check, else it is `fallback`.
static void expect_grad(const std::string& what, const pg::Tensor& got, const std::vector<float>& want,
                        const pg::Shape& shape, double tol,
                        const std::vector<std::pair<std::vector<float>, std::string>>& wrongs,
                        const std::string& fallback, bool relative = false) {
    pg::Tensor expected = pg::tensor(want, shape);
    auto right = [&](const pg::Tensor& a, const pg::Tensor& b) {
        return a.shape() == b.shape() && same(a.to_vector(), b.to_vector(), tol, relative);
    };
    static std::vector<pg::Tensor> earlier;  // the right gradients of the checks before this one
    const bool back = lesson::came_back(
        got.detach(), expected, earlier, [](const pg::Tensor& a, const pg::Tensor& b) { return lesson::near(a, b, 0); },
        [&](const pg::Tensor& a, const pg::Tensor& b) { return !right(a, b); }, lesson::Remember::right_answers);
    if (right(got, expected)) return;
    std::string hint;
    for (const auto& [values, why] : wrongs)
        if (!same(values, want, tol, relative) && got.shape() == shape &&
            same(got.to_vector(), values, std::max(tol, 1e-5), true))
            hint += (hint.empty() ? std::string() : lesson::tr("; or: ", "；或者：")) + why;
    if (hint.empty() && back)
        hint = lesson::came_back_hint({"gradient", "梯度"}, {"x and gy", "x 和 gy"});
    bool any_nan = false;
    for (float v : got.to_vector()) any_nan = any_nan || std::isnan(v);
    if (hint.empty() && any_nan)
        hint = lesson::tr("nan in your gradient: somewhere a 0/0, an inf/inf or an inf - inf; ",
                          "你的梯度里有 nan：某处出现了 0/0、inf/inf 或 inf - inf；") + fallback;
    throw lesson::CheckFailed(what,
                              lesson::str(expected, 6) + lesson::tr(" (within ", "（误差不超过 ") + lesson::num(tol, 6) +
                                  (relative ? lesson::tr(", relative to values above 1)", "，大于 1 的值按相对误差）")
                                            : lesson::tr(")", "）")),
                              lesson::str(got, 6), hint.empty() ? fallback : hint);
}

// The usual wrong backwards of cube at x with gy arriving, each with its hint.
static std::vector<std::pair<std::vector<float>, std::string>> cube_wrongs(const std::vector<float>& x,
                                                                           const std::vector<float>& gy) {
    std::vector<float> no_gy, first_gy, three_x, from_y, from_y_over_x, no_three;
    for (size_t i = 0; i < x.size(); ++i) {
        float v = x[i], y = v * v * v;
        no_gy.push_back(3.f * v * v);
        first_gy.push_back(gy[0] * 3.f * v * v);
        three_x.push_back(gy[i] * 3.f * v);
        from_y.push_back(gy[i] * 3.f * y * y);
        from_y_over_x.push_back(gy[i] * 3.f * y / v);
        no_three.push_back(gy[i] * v * v);
    }
    return {
        {no_gy, lesson::tr("you left out gy, the gradient arriving from above: dx[i] = gy[i] * 3 * x[i]^2, do not assume gy "
                "is 1",
                "你漏掉了 gy，即从上游传来的梯度：dx[i] = gy[i] * 3 * x[i]^2，不要假设 gy 是 1")},
        {first_gy, lesson::tr("every element took gy's first value, gy[0]: gy has x's shape, one value per element, "
                              "dx[i] = gy[i] * 3 * x[i]^2",
                              "每个元素用的都是 gy 的第一个值 gy[0]：gy 的形状和 x 相同，每个元素有它自己的值，"
                              "dx[i] = gy[i] * 3 * x[i]^2")},
        {three_x, lesson::tr("your gradient is 3x: the derivative of x^3 is 3x^2, 3 * px[i] * px[i]",
                  "你的梯度是 3x：x^3 的导数是 3x^2，即 3 * px[i] * px[i]")},
        {from_y, lesson::tr("you read the output y = x^3 as if it were x: ctx.y is the output's "
                 "values; read x through ctx.inputs[0].ptr()",
                 "你把输出 y = x^3 当成了 x 来读：ctx.y 是输出的值；要通过 ctx.inputs[0].ptr() 读 x")},
        {from_y_over_x, lesson::tr("3y/x is 3x^2 on paper, but at x = 0 it is 0/0 = nan: compute 3 * x * x from x itself",
                        "3y/x 在纸面上是 3x^2，但在 x = 0 处它是 0/0 = nan：要直接从 x 算 3 * x * x")},
        {no_three, lesson::tr("your gradient is x^2: the derivative of x^3 is 3x^2, keep the 3", "你的梯度是 x^2：x^3 的导数是 3x^2，别丢了 3")},
    };
}

// The usual wrong dx of add_bias for gy, each with its hint.
static std::vector<std::pair<std::vector<float>, std::string>> dx_wrongs(const std::vector<float>& gy) {
    return {{std::vector<float>(gy.size(), 1.f), lesson::tr("dx is all ones: y = x + b passes gy on unchanged, so dx is gy "
                                                 "itself, not 1",
                                                 "dx 全是 1：y = x + b 把 gy 原样传下去，所以 dx 就是 gy 本身，而不是 1")},
            {std::vector<float>(gy.size(), 0.f), lesson::tr("dx is all zeros: return gy as x's gradient, {gy, db}",
                                                 "dx 全是 0：把 gy 作为 x 的梯度返回，{gy, db}")}};
}

// The usual wrong db of add_bias for gy (N, C), each with its hint.
static std::vector<std::pair<std::vector<float>, std::string>> bias_wrongs(const std::vector<float>& gy, size_t N,
                                                                           size_t C) {
    std::vector<float> last(C), first(C), mean(C, 0.f), transposed(C, 0.f), skip_first(C, 0.f), ints(C, 0.f);
    for (size_t c = 0; c < C; ++c) {
        last[c] = gy[(N - 1) * C + c];
        first[c] = gy[c];
        for (size_t r = 0; r < N; ++r) {
            mean[c] += gy[r * C + c] / N;
            if (r > 0) skip_first[c] += gy[r * C + c];
            if (c * N + r < gy.size()) transposed[c] += gy[c * N + r];
        }
    }
    // an int accumulator as `auto s = 0; s += g` rounds after every step: s = int(s + g)
    for (size_t c = 0; c < C; ++c) {
        int s = 0;
        for (size_t r = 0; r < N; ++r) s = static_cast<int>(s + gy[r * C + c]);
        ints[c] = static_cast<float>(s);
    }
    return {
        {std::vector<float>(C, 0.f),
         lesson::tr("db is all zeros: you made pg::Array db(pg::Shape{C}) and returned it without adding gy into it; "
                    "db[c] += gy[r * C + c] for every row r",
                    "db 全是 0：你建了 pg::Array db(pg::Shape{C})，却没把 gy 加进去就返回了；要对每一行 r 做 db[c] += gy[r * C + c]")},
        {last, lesson::tr("db is gy's last row: you wrote db[c] = ... where it must add, +=, so each row overwrote the one "
               "before",
               "db 是 gy 的最后一行：该累加（+=）的地方你写了 db[c] = ...，所以每一行都覆盖了前一行")},
        {first, lesson::tr("db is gy's first row: b was added to every row, so db[c] adds up gy[r][c] over all N rows",
                "db 是 gy 的第一行：b 被加到了每一行上，所以 db[c] 要把 gy[r][c] 在全部 N 行上加起来")},
        {mean, lesson::tr("db is the mean of the rows: b was added to every row, and each use adds its share, so sum them, "
               "do not divide by N",
               "db 是各行的平均值：b 被加到了每一行上，每次使用都加上它的那一份，所以要求和，不要除以 N")},
        {transposed, lesson::tr("you read gy as if it were stored by columns: element (r, c) of a row-major (N, C) array is "
                     "gy.data()[r * C + c], not [c * N + r]",
                     "你把 gy 当成按列存储来读了：行优先的 (N, C) 数组中元素 (r, c) 是 gy.data()[r * C + c]，而不是 [c * N + r]")},
        {skip_first, lesson::tr("your sum missed row 0: the rows run r = 0 .. N-1", "你的求和漏掉了行 0：行是 r = 0 .. N-1")},
        {ints, lesson::tr("db came out in whole numbers: your sum is an int (auto s = 0 is an int; write 0.f, or "
               "float s = 0), so every fraction was cut off",
               "db 算出来都是整数：你的和是 int（auto s = 0 是 int；要写 0.f，或者 float s = 0），所以小数部分全被截掉了")},
    };
}

}  // namespace check06

int main() {
    using namespace check06;
    lesson::Checks checks("06", "tensor_autograd");
    checks.run(lesson::tr("cube's forward: [1, 2, -3] -> [1, 8, -27], one cube node",
               "cube 的前向计算：[1, 2, -3] -> [1, 8, -27]，一个 cube 节点"), [] {
        pg::Tensor x = pg::tensor({1.f, 2.f, -3.f}).requires_grad_();
        pg::Tensor y = exercise::cube(x);
        for (const char* op : {"mul", "pow"})
            lesson::expect_not_called("cube(x)", y, op,
                                      lesson::tr("build the node with pg::make_result, as the starter does, and write its "
                                      "backward yourself",
                                      "像 starter 那样用 pg::make_result 构造节点，自己写它的 backward"));
        lesson::expect_near("cube(x)", y, pg::tensor({1.f, 8.f, -27.f}), 1e-6, lesson::tr("keep the forward the starter gives", "保留 starter 给出的前向计算"));
    });
    checks.run(lesson::tr("cube's backward under sum: 3x^2 = [3, 12, 27]",
               "sum 之下 cube 的反向计算：3x^2 = [3, 12, 27]"), [] {
        pg::Tensor x = pg::tensor({1.f, 2.f, -3.f}).requires_grad_();
        run_backward("sum(cube(x)).backward()", pg::sum(exercise::cube(x)), nullptr, "cube");
        expect_grad("x.grad", x.grad(), {3.f, 12.f, 27.f}, {3}, 1e-5, cube_wrongs({1, 2, -3}, {1, 1, 1}),
                    lesson::tr("dx[i] = gy[i] * 3 * x[i]^2; return one Array with x's shape",
                    "dx[i] = gy[i] * 3 * x[i]^2；返回一个形状和 x 相同的 Array"));
    });
    checks.run(lesson::tr("cube's backward uses gy: sum(cube(x) * [1, -1, 2])",
               "cube 的反向计算用到 gy：sum(cube(x) * [1, -1, 2])"), [] {
        pg::Tensor x = pg::tensor({1.f, 2.f, -3.f}).requires_grad_();
        run_backward("sum(cube(x) * w).backward()", pg::sum(exercise::cube(x) * pg::tensor({1.f, -1.f, 2.f})), nullptr,
                     "cube");
        expect_grad("x.grad", x.grad(), {3.f, -12.f, 54.f}, {3}, 1e-5, cube_wrongs({1, 2, -3}, {1, -1, 2}),
                    lesson::tr("gy is the gradient arriving from above (here 1, -1, 2): multiply by it, do not assume 1",
                    "gy 是从上游传来的梯度（这里是 1, -1, 2）：要乘上它，不要假设它是 1"));
    });
    checks.run(lesson::tr("cube at the edges: x = [0, -0.001, 2e12]",
               "边界上的 cube：x = [0, -0.001, 2e12]"), [] {
        pg::Tensor x = pg::tensor({0.f, -1e-3f, 2e12f}).requires_grad_();
        pg::Tensor gy = pg::tensor({1.f, 1.f, 1.f});
        run_backward("cube(x).backward(gy)", exercise::cube(x), &gy, "cube");
        expect_grad("x.grad", x.grad(), {0.f, 3e-6f, 1.2e25f}, {3}, 1e-5, cube_wrongs({0.f, -1e-3f, 2e12f}, {1, 1, 1}),
                    lesson::tr("dx = gy * 3 * x * x: 0 at x = 0, and finite wherever x^2 is",
                    "dx = gy * 3 * x * x：在 x = 0 处为 0，只要 x^2 有限它就有限"), /*relative=*/true);
    });
    checks.run(lesson::tr("cube agrees with x * x * x on a random (3,4)",
               "在随机的 (3,4) 上 cube 与 x * x * x 一致"), [] {
        pg::Generator gen(6);
        pg::Tensor x = pg::randn({3, 4}, gen, true), x2 = x.detach().requires_grad_();
        pg::Tensor weights = pg::randn({3, 4}, gen);
        run_backward("sum(cube(x) * w).backward()", pg::sum(exercise::cube(x) * weights), nullptr, "cube");
        pg::sum(x2 * x2 * x2 * weights).backward();
        expect_grad("x.grad", x.grad(), x2.grad().to_vector(), {3, 4}, 1e-4,
                    cube_wrongs(x.to_vector(), weights.to_vector()), lesson::tr("dx = gy * 3 * x * x, element by element", "dx = gy * 3 * x * x，逐元素计算"));
    });
    checks.run(lesson::tr("cube passes pg::gradcheck", "cube 通过 pg::gradcheck"), [] {
        pg::Generator gen(7);
        expect_gradcheck("gradcheck(cube)", [](const std::vector<pg::Tensor>& in) { return exercise::cube(in[0]); },
                         {pg::randn({2, 3}, gen, true)}, "dx = gy * 3x^2");
    });
    checks.run(lesson::tr("add_bias builds one add_bias node", "add_bias 构造一个 add_bias 节点"), [] {
        pg::Tensor x = pg::zeros({2, 3}, true), b = pg::tensor({10.f, 20.f, 30.f}).requires_grad_();
        lesson::expect_not_called("add_bias(x, b)", exercise::add_bias(x, b), "add",
                                  lesson::tr("build the node with pg::make_result, as the starter does, and write its backward "
                                  "yourself",
                                  "像 starter 那样用 pg::make_result 构造节点，自己写它的 backward"));
    });
    checks.run(lesson::tr("add_bias's backward: (2,3) + (3) with gy = [[1,2,3],[4,5,6]]",
               "add_bias 的反向计算：(2,3) + (3)，gy = [[1,2,3],[4,5,6]]"), [] {
        pg::Tensor x = pg::zeros({2, 3}, true), b = pg::tensor({10.f, 20.f, 30.f}).requires_grad_();
        pg::Tensor gy = pg::tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
        run_backward("add_bias(x, b).backward(gy)", exercise::add_bias(x, b), &gy, "add_bias");
        expect_grad("x.grad", x.grad(), gy.to_vector(), {2, 3}, 1e-6, dx_wrongs(gy.to_vector()),
                    lesson::tr("y = x + b: dx is gy itself", "y = x + b：dx 就是 gy 本身"));
        expect_grad("b.grad", b.grad(), {5.f, 7.f, 9.f}, {3}, 1e-6, bias_wrongs(gy.to_vector(), 2, 3),
                    lesson::tr("b was added to every row, so db[c] adds up gy[r * C + c] over the rows r",
                    "b 被加到了每一行上，所以 db[c] 要把 gy[r * C + c] 在各行 r 上加起来"));
    });
    checks.run(lesson::tr("add_bias with three rows and fractions: gy (3,2)", "三行、带小数的 add_bias：gy (3,2)"), [] {
        pg::Tensor x = pg::zeros({3, 2}, true), b = pg::zeros({2}, true);
        pg::Tensor gy = pg::tensor({{0.5f, 1.25f}, {0.25f, -0.5f}, {1.5f, 0.125f}});
        run_backward("add_bias(x, b).backward(gy)", exercise::add_bias(x, b), &gy, "add_bias");
        expect_grad("b.grad", b.grad(), {2.25f, 0.875f}, {2}, 1e-6, bias_wrongs(gy.to_vector(), 3, 2),
                    lesson::tr("db[c] = gy[0][c] + gy[1][c] + gy[2][c], in float",
                    "db[c] = gy[0][c] + gy[1][c] + gy[2][c]，用 float 计算"));
    });
    checks.run(lesson::tr("add_bias with one row: gy (1,4)", "只有一行的 add_bias：gy (1,4)"), [] {
        pg::Tensor x = pg::zeros({1, 4}, true), b = pg::zeros({4}, true);
        pg::Tensor gy = pg::tensor({{1.5f, -2.f, 3.f, 0.25f}});
        run_backward("add_bias(x, b).backward(gy)", exercise::add_bias(x, b), &gy, "add_bias");
        expect_grad("b.grad", b.grad(), gy.to_vector(), {4}, 1e-6, bias_wrongs(gy.to_vector(), 1, 4),
                    lesson::tr("with one row, db is that row: the loop over r runs from 0 to N-1",
                    "只有一行时，db 就是这一行：对 r 的循环从 0 到 N-1"));
    });
    checks.run(lesson::tr("add_bias agrees with pg::add on a random (4,3) + (3)",
               "在随机的 (4,3) + (3) 上 add_bias 与 pg::add 一致"), [] {
        pg::Generator gen(8);
        pg::Tensor x = pg::randn({4, 3}, gen, true), b = pg::randn({3}, gen, true);
        pg::Tensor x2 = x.detach().requires_grad_(), b2 = b.detach().requires_grad_();
        pg::Tensor weights = pg::randn({4, 3}, gen);
        pg::Tensor y = exercise::add_bias(x, b);
        lesson::expect_near("add_bias(x, b)", y, x2 + b2, 1e-6, lesson::tr("keep the forward the starter gives", "保留 starter 给出的前向计算"));
        run_backward("sum(add_bias(x, b) * w).backward()", pg::sum(y * weights), nullptr, "add_bias");
        pg::sum((x2 + b2) * weights).backward();
        expect_grad("x.grad", x.grad(), x2.grad().to_vector(), {4, 3}, 1e-5, dx_wrongs(weights.to_vector()), "dx = gy");
        expect_grad("b.grad", b.grad(), b2.grad().to_vector(), {3}, 1e-5, bias_wrongs(weights.to_vector(), 4, 3),
                    lesson::tr("db[c] = sum over rows r of gy[r * C + c]", "db[c] = 对各行 r 求和 gy[r * C + c]"));
    });
    checks.run(lesson::tr("add_bias passes pg::gradcheck", "add_bias 通过 pg::gradcheck"), [] {
        pg::Generator gen(9);
        expect_gradcheck("gradcheck(add_bias)",
                         [](const std::vector<pg::Tensor>& in) { return exercise::add_bias(in[0], in[1]); },
                         {pg::randn({3, 2}, gen, true), pg::randn({2}, gen, true)},
                         lesson::tr("dx = gy, db = gy summed over rows", "dx = gy，db = gy 沿各行求和"));
    });
    return checks.finish();
}
