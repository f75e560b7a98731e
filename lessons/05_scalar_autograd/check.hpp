// Lesson 05's checks for the backward of mul and tanh, shared by starter.cpp, solution.cpp and
// your exercise.cpp: small graphs with known gradients, then a neuron against the library.
#pragma once
#include "lesson.hpp"
#include "value.hpp"

namespace exercise {
// out = a * b, and its backward: a.grad += out.grad * b, b.grad += out.grad * a
scalar::Value mul(const scalar::Value& a, const scalar::Value& b);
// out = tanh(x), and its backward: x.grad += out.grad * (1 - out^2)
scalar::Value tanh(const scalar::Value& x);
}  // namespace exercise

int main() {
    lesson::Checks checks("05", "scalar_autograd");
    checks.run("mul's forward: 2 * -3 = -6", [] {
        lesson::expect_near("mul(2, -3).data()", exercise::mul(2.0, -3.0).data(), -6.0, 1e-12,
                            "keep the forward the starter gives: a.data() * b.data()");
    });
    checks.run("mul's backward: out = a * b at a = 2, b = -3", [] {
        scalar::Value a(2.0, "a"), b(-3.0, "b");
        exercise::mul(a, b).backward();
        lesson::expect_near("a.grad", a.grad(), -3.0, 1e-12, "d(a*b)/da = b: a.grad += out.grad * b.data");
        lesson::expect_near("b.grad", b.grad(), 2.0, 1e-12, "d(a*b)/db = a: b.grad += out.grad * a.data");
    });
    checks.run("mul's backward uses out.grad: (a * b) * 4", [] {
        scalar::Value a(2.0, "a"), b(-3.0, "b");
        (exercise::mul(a, b) * scalar::Value(4.0)).backward();
        lesson::expect_near("a.grad", a.grad(), -12.0, 1e-12,
                            "out.grad is the gradient arriving from above (here 4): multiply by it, do not assume 1");
    });
    checks.run("a node used twice: mul(a, a) at a = 3", [] {
        scalar::Value a(3.0, "a");
        exercise::mul(a, a).backward();
        lesson::expect_near("a.grad", a.grad(), 6.0, 1e-12,
                            "a is both inputs; each adds out.grad * 3, so use +=, never =: d(a*a)/da = 2a");
    });
    checks.run("tanh's backward at 0.5", [] {
        scalar::Value x(0.5, "x");
        scalar::Value o = exercise::tanh(x);
        lesson::expect_near("tanh(0.5).data()", o.data(), std::tanh(0.5), 1e-12, "keep the forward: std::tanh(x.data())");
        o.backward();
        lesson::expect_near("x.grad", x.grad(), 1 - std::tanh(0.5) * std::tanh(0.5), 1e-12,
                            "x.grad += out.grad * (1 - out.data * out.data): out.data is already tanh(x)");
    });
    checks.run("the neuron tanh(mul(x, w) + b) against the library", [] {
        scalar::Value x(0.5, "x"), w(-2.0, "w"), b(1.5, "b");
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
