// Elementwise math functions. Each backward multiplies gy by the derivative, written with
// the input x or, where it is simpler, the output y.
// Leaves out: complex-valued or integer powers with special cases (pow uses std::pow).
#include <cmath>
#include "op_util.hpp"
#include "pg/ops.hpp"

namespace pg {

using namespace detail;

Tensor pow(const Tensor& x, float p) {
    Array y = map(x.data(), [p](float v) { return std::pow(v, p); });
    return make_result(std::move(y), "pow", {x}, [x, p](const Array& gy, const Array&) {
        // y = x^p  =>  dx = gy * p * x^(p-1)   (and 0 for p = 0, where x^-1 would give 0 * inf at x = 0)
        if (p == 0.f) return grads(xt::zeros<float>(shape_of(gy)));
        return grads(zip(gy, x.data(), [p](float g, float v) { return g * p * std::pow(v, p - 1.f); }));
    });
}

Tensor exp(const Tensor& x) {
    return make_result(map(x.data(), [](auto v) { return xsimd::exp(v); }), "exp", {x},
                       [](const Array& gy, const Array& y) {
                           // y = e^x  =>  dx = gy * y
                           return grads(zip(gy, y, [](auto g, auto v) { return g * v; }));
                       });
}

Tensor log(const Tensor& x) {
    return make_result(map(x.data(), [](float v) { return std::log(v); }), "log", {x},
                       [x](const Array& gy, const Array&) {
                           // y = ln x  =>  dx = gy / x
                           return grads(zip(gy, x.data(), [](auto g, auto v) { return g / v; }));
                       });
}

Tensor sqrt(const Tensor& x) {
    return make_result(map(x.data(), [](float v) { return std::sqrt(v); }), "sqrt", {x},
                       [](const Array& gy, const Array& y) {
                           // y = sqrt(x)  =>  dx = gy / (2 y)
                           return grads(zip(gy, y, [](float g, float v) { return g * 0.5f / v; }));
                       });
}

Tensor tanh(const Tensor& x) {
    return make_result(map(x.data(), [](float v) { return std::tanh(v); }), "tanh", {x},
                       [](const Array& gy, const Array& y) {
                           // y = tanh x  =>  dx = gy * (1 - y^2)
                           return grads(zip(gy, y, [](auto g, auto v) { return g * (decltype(v)(1.f) - v * v); }));
                       });
}

Tensor sigmoid(const Tensor& x) {
    Array y = map(x.data(), [](auto v) { return decltype(v)(1.f) / (decltype(v)(1.f) + xsimd::exp(-v)); });
    return make_result(std::move(y), "sigmoid", {x}, [](const Array& gy, const Array& y) {
        // y = 1 / (1 + e^-x)  =>  dx = gy * y * (1 - y)
        return grads(zip(gy, y, [](auto g, auto v) { return g * v * (decltype(v)(1.f) - v); }));
    });
}

Tensor relu(const Tensor& x) {
    return make_result(map(x.data(), [](float v) { return v > 0.f ? v : 0.f; }), "relu", {x},
                       [x](const Array& gy, const Array&) {
                           // y = max(x, 0)  =>  dx = gy where x > 0, else 0
                           return grads(zip(gy, x.data(), [](float g, float v) { return v > 0.f ? g : 0.f; }));
                       });
}

// GELU, tanh approximation: 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3).
// Computed as x * s with s = 0.5 (1 + tanh u) = 1 / (1 + e^(-2u)): the same number, but 1 + tanh u
// cancels to a few correct digits for x below -3, where s does not.
static constexpr float kGeluC = 0.7978845608028654f;  // sqrt(2 / pi)

// s for a float or an xsimd batch (map and zip run on batches)
template <class V>
static V gelu_s(V v) {
    V u = V(kGeluC) * (v + V(0.044715f) * v * v * v);
    return V(1.f) / (V(1.f) + xsimd::exp(V(-2.f) * u));
}

Tensor gelu(const Tensor& x) {
    Array y = map(x.data(), [](auto v) { return v * gelu_s(v); });
    return make_result(std::move(y), "gelu", {x}, [x](const Array& gy, const Array&) {
        // y = 0.5 x (1 + tanh u) = x s  =>  dy/dx = 0.5 (1 + tanh u) + 0.5 x (1 - tanh^2 u) du/dx
        //                                          = s + 2 x s (1 - s) du/dx,
        // du/dx = sqrt(2/pi) (1 + 3 * 0.044715 x^2)
        return grads(zip(gy, x.data(), [](auto g, auto v) {
            using V = decltype(v);
            V s = gelu_s(v);
            V du = V(kGeluC) * (V(1.f) + V(3.f * 0.044715f) * v * v);
            return g * (s + V(2.f) * v * s * (V(1.f) - s) * du);
        }));
    });
}

}  // namespace pg
