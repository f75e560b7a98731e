// Lesson 05's checks for the backward of mul and tanh, shared by starter.cpp, solution.cpp and
// your exercise.cpp: small graphs with known gradients (every op with an input used twice, or used
// again elsewhere), a saturated tanh, then a neuron against the library. When a gradient is wrong,
// the hint says what the number points to (= for +=, out.grad left out, a's value for b's, ...).
#pragma once
#include <cmath>
#include <typeinfo>
#include "lesson.hpp"
#include "value.hpp"

namespace exercise {
// out = a * b, and its backward: a.grad += out.grad * b, b.grad += out.grad * a
scalar::Value mul(const scalar::Value& a, const scalar::Value& b);
// out = tanh(x), and its backward: x.grad += out.grad * (1 - out^2)
scalar::Value tanh(const scalar::Value& x);
}  // namespace exercise

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
        throw lesson::CheckFailed(what, "your own backward lambda", "value.hpp's " + op,
                                  "you called value.hpp's " + op + ", which already has its backward: build the node "
                                  "with scalar::Value::make and write the backward lambda yourself");
}

// mul's share of a's gradient at out = a * b (got: a.grad minus what the rest of the graph gave a,
// other_share), with out.grad arriving: names what a wrong number points to.
static std::string mul_hint(double got, double a, double b, double out_grad, double other_share,
                            const std::string& fallback) {
    if (near(got, out_grad * b)) return fallback;
    if (other_share != 0 && near(got, out_grad * b - other_share))
        return "a.grad lost its other contributions: you wrote = where the backward must add, +=. Each use of a "
               "node adds its share to its grad";
    if (near(got, b) && !near(out_grad, 1))
        return "you left out out.grad, the gradient arriving from above: a.grad += out.grad * b.data, do not "
               "assume it is 1";
    if (near(got, out_grad * a))
        return "you gave a its own value: d(a*b)/da = b, so a.grad += out.grad * b.data (and b.grad gets a.data)";
    if (near(got, 0))
        return "a.grad got nothing from mul. Either you read b.grad, a gradient that is still 0 when mul's backward "
               "runs (the local derivative uses b.data, the value), or your backward added to a copy of the node: "
               "scalar::Node a = *out.inputs[0] copies it, scalar::Node& a refers to it";
    return fallback;
}

// tanh's share of x's gradient at out = tanh(x) (got: x.grad minus other_share, what the rest of the
// graph gave x), with out.grad = g arriving: names what a wrong number points to.
static std::string tanh_hint(double got, double x, double g, double other_share, const std::string& fallback) {
    const double t = std::tanh(x);
    if (std::isnan(got))
        return "your gradient is nan: at this x, exp(2x) overflows to inf and inf/inf is nan. The derivative is "
               "1 - tanh(x)^2, and out.data already holds tanh(x): out.grad * (1 - out.data * out.data)";
    if (other_share != 0 && near(got, g * (1 - t * t) - other_share))
        return "x.grad lost its other contribution: you wrote = where the backward must add, +=";
    if (near(got, g * (1 - x * x)))
        return "you used x instead of tanh(x): the derivative is 1 - tanh(x)^2, and tanh(x) is out.data, not "
               "x.data";
    if (near(got, g * (1 - std::tanh(t) * std::tanh(t))))
        return "you applied tanh twice: out.data is already tanh(x), so the derivative is 1 - out.data * out.data";
    if (near(got, g * (t * t - 1)))
        return "your gradient has the wrong sign: the derivative of tanh is 1 - tanh^2, positive everywhere";
    if (near(got, g * (1 - t)))
        return "you forgot the square: the derivative is 1 - tanh(x)^2, out.data * out.data";
    if (near(got, 0) && !near(g * (1 - t * t), 0))
        return "x.grad got nothing from tanh: your backward added to a copy of the node. scalar::Node x = "
               "*out.inputs[0] copies it; scalar::Node& x (or out.inputs[0]->grad) reaches the input itself";
    if (!near(g, 1) && near(got, (1 - t * t)))
        return "you left out out.grad, the gradient arriving from above: x.grad += out.grad * (1 - out^2)";
    return fallback;
}

}  // namespace check05

int main() {
    using check05::Value;
    lesson::Checks checks("05", "scalar_autograd");
    checks.run("mul's forward: 2 * -3 = -6", [] {
        lesson::expect_near("mul(2, -3).data()", exercise::mul(2.0, -3.0).data(), -6.0, 1e-12,
                            "keep the forward the starter gives: a.data() * b.data()");
    });
    checks.run("mul builds its own node", [] {
        Value a(2.0), b(-3.0);
        check05::expect_own_backward("mul(a, b)", exercise::mul(a, b), a * b, "operator*");
    });
    checks.run("mul's backward: out = a * b at a = 2, b = -3", [] {
        Value a(2.0, "a"), b(-3.0, "b");
        exercise::mul(a, b).backward();
        lesson::expect_near("a.grad", a.grad(), -3.0, 1e-12,
                            check05::mul_hint(a.grad(), 2, -3, 1, 0, "d(a*b)/da = b: a.grad += out.grad * b.data"));
        lesson::expect_near("b.grad", b.grad(), 2.0, 1e-12,
                            check05::mul_hint(b.grad(), -3, 2, 1, 0, "d(a*b)/db = a: b.grad += out.grad * a.data"));
    });
    checks.run("mul's backward uses out.grad: (a * b) * 4", [] {
        Value a(2.0, "a"), b(-3.0, "b");
        (exercise::mul(a, b) * Value(4.0)).backward();
        lesson::expect_near("a.grad", a.grad(), -12.0, 1e-12,
                            check05::mul_hint(a.grad(), 2, -3, 4, 0,
                                              "out.grad is the gradient arriving from above (here 4): multiply by "
                                              "it, do not assume 1"));
    });
    checks.run("a node used twice: mul(a, a) at a = 3", [] {
        Value a(3.0, "a");
        exercise::mul(a, a).backward();
        std::string hint = a.grad() == 3.0 ? "a.grad is 3, one use's share: a is both inputs, and the second "
                                             "= wiped out the first. Use +=, never =: d(a*a)/da = 2a"
                                           : "a is both inputs; each adds out.grad * 3, so use +=, never =: "
                                             "d(a*a)/da = 2a";
        lesson::expect_near("a.grad", a.grad(), 6.0, 1e-12, hint);
    });
    checks.run("a node used again after mul: mul(a, b) + a at a = 2, b = -3", [] {
        Value a(2.0, "a"), b(-3.0, "b");
        (exercise::mul(a, b) + a).backward();  // the + reports first: a.grad = 1, then mul adds b = -3
        lesson::expect_near("a.grad", a.grad(), -2.0, 1e-12,
                            check05::mul_hint(a.grad() - 1, 2, -3, 1, 1, "d/da (a*b + a) = b + 1: mul adds its share "
                                                                          "to what the + gave a"));
    });
    checks.run("tanh's forward and backward at 0.5", [] {
        Value x(0.5, "x");
        Value o = exercise::tanh(x);
        lesson::expect_near("tanh(0.5).data()", o.data(), std::tanh(0.5), 1e-12, "keep the forward: std::tanh(x.data())");
        check05::expect_own_backward("tanh(x)", o, scalar::tanh(x), "scalar::tanh");
        o.backward();
        lesson::expect_near("x.grad", x.grad(), 1 - std::tanh(0.5) * std::tanh(0.5), 1e-12,
                            check05::tanh_hint(x.grad(), 0.5, 1, 0,
                                               "x.grad += out.grad * (1 - out.data * out.data): out.data is already "
                                               "tanh(x)"));
    });
    checks.run("tanh's backward uses out.grad: tanh(x) * 4 at x = 0.5", [] {
        Value x(0.5, "x");
        (exercise::tanh(x) * Value(4.0)).backward();
        lesson::expect_near("x.grad", x.grad(), 4 * (1 - std::tanh(0.5) * std::tanh(0.5)), 1e-12,
                            check05::tanh_hint(x.grad(), 0.5, 4, 0,
                                               "out.grad is the gradient arriving from above (here 4): multiply by it"));
    });
    checks.run("a node used again after tanh: tanh(a) + a at a = 0.5", [] {
        Value a(0.5, "a");
        (exercise::tanh(a) + a).backward();  // the + reports first: a.grad = 1, then tanh adds 1 - tanh^2
        const double share = 1 - std::tanh(0.5) * std::tanh(0.5);
        lesson::expect_near("a.grad", a.grad(), 1 + share, 1e-12,
                            check05::tanh_hint(a.grad() - 1, 0.5, 1, 1,
                                               "d/da (tanh(a) + a) = 1 - tanh^2 + 1: tanh adds its share"));
    });
    checks.run("a saturated tanh passes almost nothing: x = 20, -20 and 400", [] {
        for (double x0 : {20.0, -20.0, 400.0}) {
            Value x(x0, "x");
            exercise::tanh(x).backward();
            const double t = std::tanh(x0), want = 1 - t * t;  // 0 in double: tanh(20) rounds to 1
            lesson::expect_near("x.grad at x = " + lesson::num(x0, 0), x.grad(), want, 1e-12,
                                check05::tanh_hint(x.grad(), x0, 1, 0,
                                                   "far from 0 tanh is flat: 1 - out.data * out.data is about 0"));
        }
    });
    checks.run("the neuron tanh(mul(x, w) + b) against the library", [] {
        Value x(0.5, "x"), w(-2.0, "w"), b(1.5, "b");
        exercise::tanh(exercise::mul(x, w) + b).backward();
        pg::Tensor tx = pg::scalar(0.5f, true), tw = pg::scalar(-2.f, true), tb = pg::scalar(1.5f, true);
        pg::tanh(tx * tw + tb).backward();
        std::string hint = "each op adds out.grad times its local derivative to its inputs' grads";
        lesson::expect_near("x.grad", x.grad(), tx.grad().item(), 1e-6, hint);
        lesson::expect_near("w.grad", w.grad(), tw.grad().item(), 1e-6, hint);
        lesson::expect_near("b.grad", b.grad(), tb.grad().item(), 1e-6, hint);
    });
    return checks.finish();
}
