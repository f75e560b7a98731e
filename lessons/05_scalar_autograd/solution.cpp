// Lesson 05 reference solution: the backward of mul and tanh, each adding its share with +=.
#include "check.hpp"

scalar::Value exercise::mul(const scalar::Value& a, const scalar::Value& b) {
    return scalar::Value::make(a.data() * b.data(), "*", {a, b}, [](scalar::Node& out) {
        // out = a * b  =>  da += out.grad * b, db += out.grad * a
        scalar::Node& a = *out.inputs[0];
        scalar::Node& b = *out.inputs[1];
        a.grad += out.grad * b.data;
        b.grad += out.grad * a.data;
    });
}

scalar::Value exercise::tanh(const scalar::Value& x) {
    return scalar::Value::make(std::tanh(x.data()), "tanh", {x}, [](scalar::Node& out) {
        // out = tanh(x)  =>  dx += out.grad * (1 - out^2)
        out.inputs[0]->grad += out.grad * (1 - out.data * out.data);
    });
}
