// Lesson 05's checks for the backward of mul and tanh, shared by starter.cpp, solution.cpp and
// your exercise.cpp: small graphs with known gradients (every op with an input used twice, or used
// again elsewhere), a saturated tanh, then a neuron against the library. When a gradient is wrong,
// the hint says what the number points to (= for +=, out.grad left out, a's value for b's, ...).
#include "check.hpp"
#include "check_tools.hpp"

namespace check05 {

using scalar::Value;

static bool near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

// The node a Value is (its topological order ends with itself).
static const scalar::Node& node_of(const Value& v) { return *v.topological_order().back(); }

// Fails when `mine`'s backward is the lambda of value.hpp's own op (`theirs` made by that op).
static void expect_own_backward(const std::string& what, const Value& mine, const Value& theirs,
                                const std::string& op) {
    const scalar::Node &m = node_of(mine), &t = node_of(theirs);
    if (m.backward && t.backward && m.backward.target_type() == t.backward.target_type())
        throw lesson::CheckFailed(what, lesson::tr("your own backward lambda", "你自己写的 backward lambda"),
                                  lesson::tr("value.hpp's ", "value.hpp 的 ") + op,
                                  lesson::tr("you called value.hpp's ", "你调用了 value.hpp 的 ") + op +
                                  lesson::tr(", which already has its backward: build the node "
                                  "with scalar::Value::make and write the backward lambda yourself",
                                  "，它已经自带 backward：用 scalar::Value::make 构造节点，自己写 backward lambda"));
}

// Fails when `got`, this call's value, is exactly `before`, what an earlier call with other inputs returned,
// although this call's right value `want` differs from it: a constant or a kept answer, not this call's computation.
static void expect_not_repeated(const std::string& what, double got, double want, double before,
                                const std::string& inputs, const std::string& inputs_zh) {
    if (got == before && !near(want, before))
        throw lesson::CheckFailed(what, lesson::num(want, 4),
                                  lesson::num(got, 4) + lesson::tr(", the value of an earlier call", "，先前一次调用的值"),
                                  lesson::came_back_hint({"result", "结果"}, {inputs, inputs_zh}));
}

// mul's share of one input's gradient at out = a * b, input 0 (a) or 1 (b), whose value is `self` and
// the other input's `other` (got: its grad minus what the rest of the graph gave it, other_share), with
// out.grad arriving: names what a wrong number points to.
static std::string mul_hint(size_t input, double got, double self, double other, double out_grad, double other_share,
                            const std::string& fallback) {
    const std::string n = input == 0 ? "a" : "b", o = input == 0 ? "b" : "a", i = std::to_string(input);
    if (near(got, out_grad * other)) return fallback;
    if (other_share != 0 && near(got, out_grad * other - other_share))
        return lesson::tr(n + ".grad lost its other contributions: you wrote = where the backward must add, +=. Each use "
                          "of a node adds its share to its grad",
                          n + ".grad 丢了其他来源的贡献：反向计算必须累加（+=）的地方你写了 =。节点每被用一次，就往它的 grad 上加上这一次的那一份");
    if (near(got, other) && !near(out_grad, 1))
        return lesson::tr("you left out out.grad, the gradient arriving from above: " + n + ".grad += out.grad * " + o +
                              ".data, do not assume it is 1",
                          "你漏掉了 out.grad，即从上游传来的梯度：" + n + ".grad += out.grad * " + o + ".data，不要假设它是 1");
    if (near(got, out_grad * self))
        return lesson::tr("you gave " + n + " its own value: d(a*b)/d" + n + " = " + o + ", so " + n +
                              ".grad += out.grad * " + o + ".data (and " + o + ".grad gets " + n + ".data)",
                          "你给 " + n + " 的是它自己的值：d(a*b)/d" + n + " = " + o + "，所以 " + n + ".grad += out.grad * " + o +
                              ".data（而 " + o + ".grad 得到 " + n + ".data）");
    if (near(got, 0))
        return lesson::tr(n + ".grad got nothing from mul. Either you read " + o + ".grad, a gradient that is still 0 when "
                              "mul's backward runs (the local derivative uses " + o + ".data, the value), or your backward "
                              "added to a copy of the node (scalar::Node " + n + " = *out.inputs[" + i + "] copies it, "
                              "scalar::Node& " + n + " refers to it), or no line of it adds to " + n + ".grad",
                          n + ".grad 没有从 mul 得到任何东西。要么你读的是 " + o + ".grad——mul 的 backward 运行时它还是 0（局部导数用的是值 " +
                              o + ".data）；要么你的 backward 加到了节点的副本上（scalar::Node " + n + " = *out.inputs[" + i +
                              "] 会复制它，scalar::Node& " + n + " 才指向它本身）；要么根本没有哪一行给 " + n + ".grad 加上东西");
    return fallback;
}

// tanh's share of x's gradient at out = tanh(x) (got: x.grad minus other_share, what the rest of the
// graph gave x), with out.grad = g arriving: names what a wrong number points to.
static std::string tanh_hint(double got, double x, double g, double other_share, const std::string& fallback) {
    const double t = std::tanh(x);
    if (std::isnan(got) && std::isinf(std::exp(2 * x)))
        return lesson::tr("your gradient is nan: at this x, exp(2x) overflows to inf and inf/inf is nan. The derivative is "
               "1 - tanh(x)^2, and out.data already holds tanh(x): out.grad * (1 - out.data * out.data)",
               "你的梯度是 nan：在这个 x 处，exp(2x) 溢出成 inf，而 inf/inf 是 nan。导数是 1 - tanh(x)^2，而 out.data 里已经存着 tanh(x)：out.grad * (1 - out.data * out.data)");
    if (other_share != 0 && near(got, g * (1 - t * t) - other_share))
        return lesson::tr("x.grad lost its other contribution: you wrote = where the backward must add, +=",
               "x.grad 丢了另一个来源的贡献：反向计算必须累加（+=）的地方你写了 =");
    if (near(got, g * (1 - x * x)))
        return lesson::tr("you used x instead of tanh(x): the derivative is 1 - tanh(x)^2, and tanh(x) is out.data, not "
               "x.data",
               "你用的是 x 而不是 tanh(x)：导数是 1 - tanh(x)^2，而 tanh(x) 是 out.data，不是 x.data");
    if (near(got, g * (1 - std::tanh(t) * std::tanh(t))))
        return lesson::tr("you applied tanh twice: out.data is already tanh(x), so the derivative is 1 - out.data * out.data",
               "你用了两次 tanh：out.data 已经是 tanh(x)，所以导数是 1 - out.data * out.data");
    if (near(got, g * (t * t - 1)))
        return lesson::tr("your gradient has the wrong sign: the derivative of tanh is 1 - tanh^2, positive everywhere",
               "你的梯度符号反了：tanh 的导数是 1 - tanh^2，处处为正");
    if (near(got, g * (1 - t)))
        return lesson::tr("you forgot the square: the derivative is 1 - tanh(x)^2, out.data * out.data",
               "你忘了平方：导数是 1 - tanh(x)^2，即 out.data * out.data");
    if (near(got, 0) && !near(g * (1 - t * t), 0))
        return lesson::tr("x.grad got nothing from tanh. Either your backward added to a copy of the node (scalar::Node x = "
                          "*out.inputs[0] copies it; scalar::Node& x, or out.inputs[0]->grad, reaches the input itself), or "
                          "it adds to another node's grad, or to none",
                          "x.grad 没有从 tanh 得到任何东西，可能有两种原因：你的 backward 加到了节点的副本上（scalar::Node x = "
                          "*out.inputs[0] 会复制它；scalar::Node& x 或 out.inputs[0]->grad 才能碰到输入本身）；或者它加到了别的节点的 "
                          "grad 上，或者哪里都没加");
    if (!near(g, 1) && near(got, (1 - t * t)))
        return lesson::tr("you left out out.grad, the gradient arriving from above: x.grad += out.grad * (1 - out^2)",
               "你漏掉了 out.grad，即从上游传来的梯度：x.grad += out.grad * (1 - out^2)");
    return fallback;
}

}  // namespace check05

int main() {
    using check05::Value;
    lesson::Checks checks("05", "scalar_autograd");
    checks.run(lesson::tr("mul's forward: 2 * -3 = -6, then 3 * 4 = 12", "mul 的前向计算：2 * -3 = -6，然后 3 * 4 = 12"), [] {
        const std::string hint = lesson::tr("keep the forward the starter gives: a.data() * b.data()",
                                            "保留 starter 给出的前向计算：a.data() * b.data()");
        const double first = exercise::mul(2.0, -3.0).data();
        lesson::expect_near("mul(2, -3).data()", first, -6.0, 1e-12, hint);
        const double second = exercise::mul(3.0, 4.0).data();
        check05::expect_not_repeated("mul(3, 4).data()", second, 12.0, first, "a and b", "a 和 b");
        lesson::expect_near("mul(3, 4).data()", second, 12.0, 1e-12, hint);
    });
    checks.run(lesson::tr("mul builds its own node", "mul 构造它自己的节点"), [] {
        Value a(2.0), b(-3.0);
        check05::expect_own_backward("mul(a, b)", exercise::mul(a, b), a * b, "operator*");
    });
    checks.run(lesson::tr("mul's backward: out = a * b at a = 2, b = -3",
               "mul 的反向计算：out = a * b，a = 2，b = -3"), [] {
        Value a(2.0, "a"), b(-3.0, "b");
        exercise::mul(a, b).backward();
        lesson::expect_near("a.grad", a.grad(), -3.0, 1e-12,
                            check05::mul_hint(0, a.grad(), 2, -3, 1, 0, lesson::tr("d(a*b)/da = b: a.grad += out.grad * b.data",
                                                                     "d(a*b)/da = b：a.grad += out.grad * b.data")));
        lesson::expect_near("b.grad", b.grad(), 2.0, 1e-12,
                            check05::mul_hint(1, b.grad(), -3, 2, 1, 0, lesson::tr("d(a*b)/db = a: b.grad += out.grad * a.data",
                                                                     "d(a*b)/db = a：b.grad += out.grad * a.data")));
    });
    checks.run(lesson::tr("mul's backward uses out.grad: (a * b) * 4",
               "mul 的反向计算用到 out.grad：(a * b) * 4"), [] {
        Value a(2.0, "a"), b(-3.0, "b");
        (exercise::mul(a, b) * Value(4.0)).backward();
        lesson::expect_near("a.grad", a.grad(), -12.0, 1e-12,
                            check05::mul_hint(0, a.grad(), 2, -3, 4, 0,
                                              lesson::tr("out.grad is the gradient arriving from above (here 4): multiply by "
                                              "it, do not assume 1",
                                              "out.grad 是从上游传来的梯度（这里是 4）：要乘上它，不要假设它是 1")));
    });
    checks.run(lesson::tr("a node used twice: mul(a, a) at a = 3", "一个节点用了两次：mul(a, a)，a = 3"), [] {
        Value a(3.0, "a");
        exercise::mul(a, a).backward();
        std::string hint = lesson::tr("a is both inputs; each adds out.grad * 3, so use +=, never =: d(a*a)/da = 2a",
                                      "a 同时是两个输入；每个输入都加上 out.grad * 3，所以要用 +=，不要用 =：d(a*a)/da = 2a");
        if (a.grad() == 3.0) {  // one share kept: an = that wiped out the other, or a backward that gives one input only?
            Value p(2.0), q(-3.0);
            exercise::mul(p, q).backward();
            hint = p.grad() == 0 || q.grad() == 0
                       ? lesson::tr("a.grad is 3, one use's share: a is both inputs, but your backward adds to one of its "
                                    "inputs only (after mul(2, -3), a.grad or b.grad is still 0). Each input gets its line: "
                                    "a.grad += out.grad * b.data and b.grad += out.grad * a.data",
                                    "a.grad 是 3，只是一次使用的那一份：a 同时是两个输入；你的 backward 只给其中一个输入加了梯度"
                                    "（mul(2, -3) 之后 a.grad 或 b.grad 仍是 0）。每个输入各有一行：a.grad += out.grad * b.data 和 "
                                    "b.grad += out.grad * a.data")
                       : lesson::tr("a.grad is 3, one use's share: a is both inputs, and the second = wiped out the first. "
                                    "Use +=, never =: d(a*a)/da = 2a",
                                    "a.grad 是 3，只是一次使用的那一份：a 同时是两个输入，第二次的 = 抹掉了第一次的结果。要用 +=，不要用 =：d(a*a)/da = 2a");
        }
        lesson::expect_near("a.grad", a.grad(), 6.0, 1e-12, hint);
    });
    checks.run(lesson::tr("a node used again after mul: mul(a, b) + a at a = 2, b = -3",
               "mul 之后节点又被用了一次：mul(a, b) + a，a = 2，b = -3"), [] {
        Value a(2.0, "a"), b(-3.0, "b");
        (exercise::mul(a, b) + a).backward();  // the + reports first: a.grad = 1, then mul adds b = -3
        lesson::expect_near("a.grad", a.grad(), -2.0, 1e-12,
                            check05::mul_hint(0, a.grad() - 1, 2, -3, 1, 1, lesson::tr("d/da (a*b + a) = b + 1: mul adds its share "
                                                                          "to what the + gave a",
                                                                          "d/da (a*b + a) = b + 1：mul 把它的那一份加到 + 已经给 a 的梯度上")));
    });
    checks.run(lesson::tr("tanh's forward: tanh(0.5), then tanh(-1)", "tanh 的前向计算：tanh(0.5)，然后 tanh(-1)"), [] {
        const std::string hint = lesson::tr("keep the forward: std::tanh(x.data())", "保留前向计算：std::tanh(x.data())");
        const double first = exercise::tanh(0.5).data();
        lesson::expect_near("tanh(0.5).data()", first, std::tanh(0.5), 1e-12, hint);
        const double second = exercise::tanh(-1.0).data();
        check05::expect_not_repeated("tanh(-1).data()", second, std::tanh(-1.0), first, "x", "x");
        lesson::expect_near("tanh(-1).data()", second, std::tanh(-1.0), 1e-12, hint);
    });
    checks.run(lesson::tr("tanh's forward and backward at 0.5", "tanh 在 0.5 处的前向和反向计算"), [] {
        Value x(0.5, "x");
        Value o = exercise::tanh(x);
        lesson::expect_near("tanh(0.5).data()", o.data(), std::tanh(0.5), 1e-12, lesson::tr("keep the forward: std::tanh(x.data())", "保留前向计算：std::tanh(x.data())"));
        check05::expect_own_backward("tanh(x)", o, scalar::tanh(x), "scalar::tanh");
        o.backward();
        lesson::expect_near(lesson::tr("the output's own grad after o.backward()", "o.backward() 之后输出自己的 grad"), o.grad(), 1.0, 0,
                            lesson::tr("your backward changed out.grad: backward() sets the output's grad to 1, and tanh's "
                                       "backward only reads it. Add to the input's grad, out.inputs[0]->grad",
                                       "你的 backward 改了 out.grad：backward() 把输出的 grad 设为 1，tanh 的 backward 只读它。"
                                       "要加到输入的 grad 上，即 out.inputs[0]->grad"));
        lesson::expect_near("x.grad", x.grad(), 1 - std::tanh(0.5) * std::tanh(0.5), 1e-12,
                            check05::tanh_hint(x.grad(), 0.5, 1, 0,
                                               lesson::tr("x.grad += out.grad * (1 - out.data * out.data): out.data is already "
                                               "tanh(x)",
                                               "x.grad += out.grad * (1 - out.data * out.data)：out.data 已经是 tanh(x)")));
    });
    checks.run(lesson::tr("tanh's backward uses out.grad: tanh(x) * 4 at x = 0.5",
               "tanh 的反向计算用到 out.grad：tanh(x) * 4，x = 0.5"), [] {
        Value x(0.5, "x");
        (exercise::tanh(x) * Value(4.0)).backward();
        lesson::expect_near("x.grad", x.grad(), 4 * (1 - std::tanh(0.5) * std::tanh(0.5)), 1e-12,
                            check05::tanh_hint(x.grad(), 0.5, 4, 0,
                                               lesson::tr("out.grad is the gradient arriving from above (here 4): multiply by it", "out.grad 是从上游传来的梯度（这里是 4）：要乘上它")));
    });
    checks.run(lesson::tr("a node used again after tanh: tanh(a) + a at a = 0.5",
               "tanh 之后节点又被用了一次：tanh(a) + a，a = 0.5"), [] {
        Value a(0.5, "a");
        (exercise::tanh(a) + a).backward();  // the + reports first: a.grad = 1, then tanh adds 1 - tanh^2
        const double share = 1 - std::tanh(0.5) * std::tanh(0.5);
        lesson::expect_near("a.grad", a.grad(), 1 + share, 1e-12,
                            check05::tanh_hint(a.grad() - 1, 0.5, 1, 1,
                                               lesson::tr("d/da (tanh(a) + a) = 1 - tanh^2 + 1: tanh adds its share",
                                               "d/da (tanh(a) + a) = 1 - tanh^2 + 1：tanh 加上它的那一份")));
    });
    checks.run(lesson::tr("a saturated tanh passes almost nothing: x = 20, -20 and 400",
               "饱和的 tanh 几乎什么都传不过去：x = 20、-20 和 400"), [] {
        for (double x0 : {20.0, -20.0, 400.0}) {
            Value x(x0, "x");
            exercise::tanh(x).backward();
            const double t = std::tanh(x0), want = 1 - t * t;  // 0 in double: tanh(20) rounds to 1
            lesson::expect_near(lesson::tr("x.grad at x = ", "x.grad，x = ") + lesson::num(x0, 0), x.grad(), want, 1e-12,
                                check05::tanh_hint(x.grad(), x0, 1, 0,
                                                   lesson::tr("far from 0 tanh is flat: 1 - out.data * out.data is about 0",
                                                   "远离 0 时 tanh 是平的：1 - out.data * out.data 约等于 0")));
        }
    });
    checks.run(lesson::tr("the neuron tanh(mul(x, w) + b) against the library", "神经元 tanh(mul(x, w) + b) 与库对比"), [] {
        Value x(0.5, "x"), w(-2.0, "w"), b(1.5, "b");
        exercise::tanh(exercise::mul(x, w) + b).backward();
        pg::Tensor tx = pg::scalar(0.5f, true), tw = pg::scalar(-2.f, true), tb = pg::scalar(1.5f, true);
        pg::tanh(tx * tw + tb).backward();
        std::string hint = lesson::tr("each op adds out.grad times its local derivative to its inputs' grads",
                           "每个运算把 out.grad 乘以它的局部导数，加到它的输入的 grad 上");
        lesson::expect_near("x.grad", x.grad(), tx.grad().item(), 1e-6, hint);
        lesson::expect_near("w.grad", w.grad(), tw.grad().item(), 1e-6, hint);
        lesson::expect_near("b.grad", b.grad(), tb.grad().item(), 1e-6, hint);
    });
    return checks.finish();
}
