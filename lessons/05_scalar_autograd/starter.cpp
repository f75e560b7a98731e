// Lesson 05 exercise: the backward of mul and tanh in the lesson's scalar engine (value.hpp).
// `./poet start 5` copies this file to exercise.cpp; fill in both backward lambdas, then `./poet check 5`.
// 第 05 课练习：在本课的标量引擎（value.hpp）里写 mul 和 tanh 的 backward。
// `./poet start 5` 会把这个文件复制成 exercise.cpp；填好两个 backward lambda，然后运行 `./poet check 5`。
#include "check.hpp"

scalar::Value exercise::mul(const scalar::Value& a, const scalar::Value& b) {
    return scalar::Value::make(a.data() * b.data(), "*", {a, b}, [](scalar::Node& out) {
        // out = a * b, with a = *out.inputs[0] and b = *out.inputs[1].
        // Add to a.grad and b.grad: out.grad times the derivative of out with respect to each.
        // out = a * b，其中 a = *out.inputs[0]，b = *out.inputs[1]。
        // 给 a.grad 和 b.grad 各加上：out.grad 乘以 out 对它的导数。
        throw lesson::NotImplemented("the backward of exercise::mul");
    });
}

scalar::Value exercise::tanh(const scalar::Value& x) {
    return scalar::Value::make(std::tanh(x.data()), "tanh", {x}, [](scalar::Node& out) {
        // out = tanh(x), with x = *out.inputs[0]. Add to x.grad: out.grad * d tanh(x)/dx.
        // out = tanh(x)，其中 x = *out.inputs[0]。给 x.grad 加上：out.grad * d tanh(x)/dx。
        throw lesson::NotImplemented("the backward of exercise::tanh");
    });
}
