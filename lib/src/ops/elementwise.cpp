// + - * / with numpy broadcasting, and their scalar forms. Each forward broadcasts with
// broadcast_binary on the kernel table's SIMD loop; each backward brings its gradient home with sum_to.
// Leaves out: in-place variants (a += b would break the graph).
#include "op_util.hpp"
#include "pg/ops.hpp"

namespace pg {

using namespace detail;

Tensor add(const Tensor& a, const Tensor& b) {
    Shape out = broadcast_shapes(a.shape(), b.shape(), "add");
    Array y = broadcast_binary(a.data(), b.data(), out, simd().add);
    return record(Op::add, std::move(y), {a, b}, [](const BackwardContext& ctx) {
        // y = a + b  =>  da = gy, db = gy (summed over broadcast dims)
        const Tensor &a = ctx.inputs[0], &b = ctx.inputs[1];
        return grads(sum_to(ctx.gy, a.shape()), sum_to(ctx.gy, b.shape()));
    });
}

Tensor sub(const Tensor& a, const Tensor& b) {
    Shape out = broadcast_shapes(a.shape(), b.shape(), "sub");
    Array y = broadcast_binary(a.data(), b.data(), out, simd().sub);
    return record(Op::sub, std::move(y), {a, b}, [](const BackwardContext& ctx) {
        // y = a - b  =>  da = gy, db = -gy
        const Tensor &a = ctx.inputs[0], &b = ctx.inputs[1];
        return grads(sum_to(ctx.gy, a.shape()), sum_to(map(ctx.gy, [](float g) { return -g; }), b.shape()));
    });
}

Tensor mul(const Tensor& a, const Tensor& b) {
    Shape out = broadcast_shapes(a.shape(), b.shape(), "mul");
    Array y = broadcast_binary(a.data(), b.data(), out, simd().mul);
    return record(Op::mul, std::move(y), {a, b}, [](const BackwardContext& ctx) {
        // y = a * b  =>  da = gy * b, db = gy * a
        const Tensor &a = ctx.inputs[0], &b = ctx.inputs[1];
        const Shape& s = ctx.gy.shape();
        std::vector<Array> g(2);
        if (a.requires_grad()) g[0] = sum_to(broadcast_binary(ctx.gy, b.data(), s, simd().mul), a.shape());
        if (b.requires_grad()) g[1] = sum_to(broadcast_binary(ctx.gy, a.data(), s, simd().mul), b.shape());
        return g;
    });
}

Tensor div(const Tensor& a, const Tensor& b) {
    Shape out = broadcast_shapes(a.shape(), b.shape(), "div");
    Array y = broadcast_binary(a.data(), b.data(), out, simd().div);
    return record(Op::div, std::move(y), {a, b}, [](const BackwardContext& ctx) {
        // y = a / b  =>  da = gy / b, db = -gy * a / b^2 = -gy * y / b
        const Tensor &a = ctx.inputs[0], &b = ctx.inputs[1];
        const Shape& s = ctx.gy.shape();
        std::vector<Array> g(2);
        if (a.requires_grad())
            g[0] = sum_to(broadcast_binary(ctx.gy, b.data(), s, simd().div), a.shape());
        if (b.requires_grad()) {
            Array gy_y = zip(ctx.gy, ctx.y, simd().neg_mul);
            g[1] = sum_to(broadcast_binary(gy_y, b.data(), s, simd().div), b.shape());
        }
        return g;
    });
}

Tensor neg(const Tensor& a) {
    return record(Op::neg, map(a.data(), [](float v) { return -v; }), {a}, [](const BackwardContext& ctx) {
        // y = -a  =>  da = -gy
        return grads(map(ctx.gy, [](float g) { return -g; }));
    });
}

Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }
Tensor operator-(const Tensor& a) { return neg(a); }
// A scalar is a 0-d tensor that broadcasts everywhere.
Tensor operator+(const Tensor& a, float s) { return add(a, scalar(s)); }
Tensor operator-(const Tensor& a, float s) { return sub(a, scalar(s)); }
Tensor operator*(const Tensor& a, float s) { return mul(a, scalar(s)); }
Tensor operator/(const Tensor& a, float s) { return div(a, scalar(s)); }
Tensor operator+(float s, const Tensor& a) { return add(scalar(s), a); }
Tensor operator-(float s, const Tensor& a) { return sub(scalar(s), a); }
Tensor operator*(float s, const Tensor& a) { return mul(scalar(s), a); }
Tensor operator/(float s, const Tensor& a) { return div(scalar(s), a); }

}  // namespace pg
