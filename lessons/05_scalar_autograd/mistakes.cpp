// mistake 1: mul's backward with = instead of += => one use's share
// mistake 2: mul's backward without out.grad => you left out out.grad
// mistake 3: mul's partials swapped, a.grad += out.grad * a => you gave a its own value
// mistake 4: mul's backward reads b.grad instead of b.data => you read b.grad, a gradient that is still 0
// mistake 5: mul written as a * b, value.hpp's operator* => you called value.hpp's operator*
// mistake 6: tanh's backward with = instead of += => x.grad lost its other contribution
// mistake 7: tanh's derivative from x, 1 - x^2 => you used x instead of tanh(x)
// mistake 8: tanh's backward without out.grad => you left out out.grad
// mistake 9: tanh applied again, 1 - tanh(out.data)^2 => you applied tanh twice
// mistake 10: tanh's derivative with the wrong sign, out^2 - 1 => the wrong sign
// mistake 11: tanh's derivative from exp, 4 e^2x / (e^2x + 1)^2, exact on paper => exp(2x) overflows to inf
// mistake 12: tanh written as scalar::tanh(x), value.hpp's own => you called value.hpp's scalar::tanh
// mistake 13: tanh's derivative without the square, 1 - out => you forgot the square
// mistake 14: mul's inputs copied, scalar::Node a = *out.inputs[0], so the grads go to the copies => added to a copy of the node
// mistake 15: tanh's input copied, scalar::Node x = *out.inputs[0] => your backward added to a copy of the node
// mistake 16: mul's first node kept in a static and returned ever after => your function returned for an earlier, different input
// mistake 17: tanh's first node kept in a static and returned ever after => your function returned for an earlier, different input
// mistake 18: mul's backward adds to a.grad only, b's line left out => b.grad got nothing from mul
// mistake 19: tanh's backward adds to out.grad instead of the input's grad => your backward changed out.grad
// Lesson 05's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// The functions are solution.cpp's, but for the lines marked.
#include "check.hpp"
using lesson::mistake;

scalar::Value exercise::mul(const scalar::Value& a, const scalar::Value& b) {
    static scalar::Value kept(0.0);  // mistake 16: the first call's node
    static bool have = false;
    if (mistake(16) && have) return kept;
    if (mistake(5)) return a * b;
    scalar::Value made = scalar::Value::make(a.data() * b.data(), "*", {a, b}, [](scalar::Node& out) {
        // out = a * b  =>  da += out.grad * b, db += out.grad * a
        scalar::Node copy_a, copy_b;  // mistake 14: scalar::Node a = *out.inputs[0], a copy
        if (mistake(14)) copy_a = *out.inputs[0], copy_b = *out.inputs[1];
        scalar::Node& a = mistake(14) ? copy_a : *out.inputs[0];
        scalar::Node& b = mistake(14) ? copy_b : *out.inputs[1];
        if (mistake(1)) {
            a.grad = out.grad * b.data;
            b.grad = out.grad * a.data;
        } else if (mistake(2)) {
            a.grad += b.data;
            b.grad += a.data;
        } else if (mistake(3)) {
            a.grad += out.grad * a.data;
            b.grad += out.grad * b.data;
        } else if (mistake(4)) {
            a.grad += out.grad * b.grad;
            b.grad += out.grad * a.grad;
        } else {
            a.grad += out.grad * b.data;
            if (!mistake(18)) b.grad += out.grad * a.data;
        }
    });
    if (mistake(16)) have = true, kept = made;
    return made;
}

scalar::Value exercise::tanh(const scalar::Value& x) {
    static scalar::Value kept(0.0);  // mistake 17: the first call's node
    static bool have = false;
    if (mistake(17) && have) return kept;
    if (mistake(12)) return scalar::tanh(x);
    scalar::Value made = scalar::Value::make(std::tanh(x.data()), "tanh", {x}, [](scalar::Node& out) {
        // out = tanh(x)  =>  dx += out.grad * (1 - out^2)
        scalar::Node copy;  // mistake 15: scalar::Node x = *out.inputs[0], a copy
        if (mistake(15)) copy = *out.inputs[0];
        scalar::Node& x = mistake(15) ? copy : *out.inputs[0];
        if (mistake(6)) {
            x.grad = out.grad * (1 - out.data * out.data);
        } else if (mistake(7)) {
            x.grad += out.grad * (1 - x.data * x.data);
        } else if (mistake(8)) {
            x.grad += 1 - out.data * out.data;
        } else if (mistake(9)) {
            x.grad += out.grad * (1 - std::tanh(out.data) * std::tanh(out.data));
        } else if (mistake(10)) {
            x.grad += out.grad * (out.data * out.data - 1);
        } else if (mistake(11)) {
            const double e = std::exp(2 * x.data);
            x.grad += out.grad * 4 * e / ((e + 1) * (e + 1));
        } else if (mistake(13)) {
            x.grad += out.grad * (1 - out.data);
        } else {
            // mistake 19 adds to the output's own grad
            (mistake(19) ? out.grad : x.grad) += out.grad * (1 - out.data * out.data);
        }
    });
    if (mistake(17)) have = true, kept = made;
    return made;
}
