// Reductions over one dim or over everything: sum, mean, max. Backward spreads gy back over
// the reduced dim (sum, mean) or sends it to the position of the maximum (max).
// Leaves out: reductions over several dims at once (chain single-dim calls instead).
#include <limits>
#include "op_util.hpp"
#include "pg/ops.hpp"

namespace pg {

using namespace detail;

static Shape reduced_shape(const Shape& s, size_t d, bool keepdim) {
    Shape out = s;
    if (keepdim) out[d] = 1;
    else out.erase(out.begin() + static_cast<long>(d));
    return out;
}

// gy over (outer, inner) spread back along dim d of `in` times `scale`
static Array spread(const Array& gy, const Shape& in, size_t d, float scale) {
    AroundDim v(in, d);
    Array g(in, Array::uninitialized);
    const float* pg_ = gy.data();
    float* po = g.data();
    for (size_t o = 0; o < v.outer; ++o)
        for (size_t j = 0; j < v.n; ++j)
            for (size_t i = 0; i < v.inner; ++i) po[(o * v.n + j) * v.inner + i] = pg_[o * v.inner + i] * scale;
    return g;
}

static Array sum_along(const Array& x, const Shape& s, size_t d, bool keepdim) {
    AroundDim v(s, d);
    Array y(reduced_shape(s, d, keepdim));
    const float* px = x.data();
    float* py = y.data();
    for (size_t o = 0; o < v.outer; ++o)
        for (size_t j = 0; j < v.n; ++j)
            for (size_t i = 0; i < v.inner; ++i) py[o * v.inner + i] += px[(o * v.n + j) * v.inner + i];
    return y;
}

Tensor sum(const Tensor& x, long dim, bool keepdim) {
    Shape s = x.shape();
    size_t d = normalize_dim(dim, s.size(), "sum");
    return record(Op::sum, sum_along(x.data(), s, d, keepdim), {x}, [s, d](const BackwardContext& ctx) {
        // y = sum_j x[.., j, ..]  =>  dx[.., j, ..] = gy[..]
        return grads(spread(ctx.gy, s, d, 1.f));
    });
}

Tensor mean(const Tensor& x, long dim, bool keepdim) {
    Shape s = x.shape();
    size_t d = normalize_dim(dim, s.size(), "mean");
    float inv = 1.f / static_cast<float>(s[d]);
    Array y = sum_along(x.data(), s, d, keepdim);
    for (float& v : y) v *= inv;
    return record(Op::mean, std::move(y), {x}, [s, d, inv](const BackwardContext& ctx) {
        // y = sum_j x[.., j, ..] / n  =>  dx[.., j, ..] = gy[..] / n
        return grads(spread(ctx.gy, s, d, inv));
    });
}

// Reducing everything: view x as (1, numel, 1) and drop every dim.
Tensor sum(const Tensor& x) {
    if (x.dim() == 0) return sum(reshape(x, {1}), 0);
    return sum(reshape(x, {x.numel()}), 0);
}
Tensor mean(const Tensor& x) {
    if (x.numel() == 0) throw ShapeError("mean: tensor of shape " + shape_str(x.shape()) + " has no elements");
    return mean(reshape(x, {x.numel()}), 0);
}

Tensor max(const Tensor& x, long dim, bool keepdim) {
    Shape s = x.shape();
    size_t d = normalize_dim(dim, s.size(), "max");
    if (s[d] == 0) throw ShapeError("max: dim " + std::to_string(dim) + " of " + shape_str(s) + " is empty");
    AroundDim v(s, d);
    Array y(reduced_shape(s, d, keepdim), Array::uninitialized);
    std::vector<size_t> argmax(v.outer * v.inner);
    const float* px = x.data().data();
    for (size_t o = 0; o < v.outer; ++o)
        for (size_t i = 0; i < v.inner; ++i) {
            size_t best = 0;
            for (size_t j = 1; j < v.n; ++j)
                if (px[(o * v.n + j) * v.inner + i] > px[(o * v.n + best) * v.inner + i]) best = j;
            argmax[o * v.inner + i] = best;
            y.data()[o * v.inner + i] = px[(o * v.n + best) * v.inner + i];
        }
    return record(Op::max, std::move(y), {x}, [s, v, argmax](const BackwardContext& ctx) {
        // y = x[.., argmax, ..]  =>  dx is gy at the (first) maximum, 0 elsewhere
        const Array& gy = ctx.gy;
        Array g(s);
        for (size_t o = 0; o < v.outer; ++o)
            for (size_t i = 0; i < v.inner; ++i)
                g.data()[(o * v.n + argmax[o * v.inner + i]) * v.inner + i] = gy.data()[o * v.inner + i];
        return grads(std::move(g));
    });
}

Tensor max(const Tensor& x) { return max(reshape(x, {x.numel()}), 0); }

}  // namespace pg
