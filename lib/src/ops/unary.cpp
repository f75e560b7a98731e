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
    return record(Op::pow, std::move(y), {x}, [p](const BackwardContext& ctx) {
        // y = x^p  =>  dx = gy * p * x^(p-1)   (and 0 for p = 0, where x^-1 would give 0 * inf at x = 0)
        if (p == 0.f) return grads(Array(ctx.gy.shape()));
        return grads(zip(ctx.gy, ctx.inputs[0].data(), [p](float g, float v) { return g * p * std::pow(v, p - 1.f); }));
    });
}

Tensor exp(const Tensor& x) {
    return record(Op::exp, map(x.data(), simd().exp), {x}, [](const BackwardContext& ctx) {
        // y = e^x  =>  dx = gy * y
        return grads(zip(ctx.gy, ctx.y, simd().mul));
    });
}

Tensor log(const Tensor& x) {
    return record(Op::log, map(x.data(), [](float v) { return std::log(v); }), {x}, [](const BackwardContext& ctx) {
        // y = ln x  =>  dx = gy / x
        return grads(zip(ctx.gy, ctx.inputs[0].data(), simd().div));
    });
}

Tensor sqrt(const Tensor& x) {
    return record(Op::sqrt, map(x.data(), [](float v) { return std::sqrt(v); }), {x}, [](const BackwardContext& ctx) {
        // y = sqrt(x)  =>  dx = gy / (2 y)
        return grads(zip(ctx.gy, ctx.y, [](float g, float v) { return g * 0.5f / v; }));
    });
}

Tensor tanh(const Tensor& x) {
    return record(Op::tanh, map(x.data(), [](float v) { return std::tanh(v); }), {x}, [](const BackwardContext& ctx) {
        // y = tanh x  =>  dx = gy * (1 - y^2)
        return grads(zip(ctx.gy, ctx.y, simd().tanh_grad));
    });
}

Tensor sigmoid(const Tensor& x) {
    return record(Op::sigmoid, map(x.data(), simd().sigmoid), {x}, [](const BackwardContext& ctx) {
        // y = 1 / (1 + e^-x)  =>  dx = gy * y * (1 - y)
        return grads(zip(ctx.gy, ctx.y, simd().sigmoid_grad));
    });
}

Tensor relu(const Tensor& x) {
    return record(Op::relu, map(x.data(), [](float v) { return v > 0.f ? v : 0.f; }), {x}, [](const BackwardContext& ctx) {
        // y = max(x, 0)  =>  dx = gy where x > 0, else 0
        return grads(zip(ctx.gy, ctx.inputs[0].data(), [](float g, float v) { return v > 0.f ? g : 0.f; }));
    });
}

// GELU, tanh approximation: 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), computed as
// x * s with s = 0.5 (1 + tanh u) = 1 / (1 + e^(-2u)): the same number, but 1 + tanh u cancels to a
// few correct digits for x below -3, where s does not (kernels/vector_kernels.hpp, gelu).
Tensor gelu(const Tensor& x) {
    return record(Op::gelu, map(x.data(), simd().gelu), {x}, [](const BackwardContext& ctx) {
        // y = 0.5 x (1 + tanh u) = x s  =>  dy/dx = 0.5 (1 + tanh u) + 0.5 x (1 - tanh^2 u) du/dx
        //                                          = s + 2 x s (1 - s) du/dx,
        // du/dx = sqrt(2/pi) (1 + 3 * 0.044715 x^2)   (kernels/vector_kernels.hpp, gelu_grad)
        return grads(zip(ctx.gy, ctx.inputs[0].data(), simd().gelu_grad));
    });
}

}  // namespace pg
