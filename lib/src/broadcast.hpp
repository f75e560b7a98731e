// Broadcasting, applied and undone: the one place in poetgrad that knows numpy's rule in loops.
// Forward ops call broadcast_binary; backward passes call sum_to to bring a gradient back to
// the shape of the input it belongs to. Leaves out: views (results are always materialised).
#pragma once
#include <algorithm>
#include <utility>
#include "kernels/parallel.hpp"
#include "kernels/simd.hpp"
#include "pg/tensor.hpp"

namespace pg::detail {

// Strides of `in` seen from a result of shape `out`: 0 where `in` is broadcast.
inline std::vector<size_t> broadcast_strides(const Shape& in, const Shape& out) {
    std::vector<size_t> st(out.size(), 0);
    size_t stride = 1, off = out.size() - in.size();
    for (size_t i = in.size(); i-- > 0;) {
        st[i + off] = in[i] == 1 ? 0 : stride;
        stride *= in[i];
    }
    return st;
}

// Calls visit(i_out, i_a, i_b) for every element of `out`, with the matching flat offsets of
// a and b under broadcasting. Iterates the last dim in an inner loop.
template <class Visit>
void for_each_broadcast(const Shape& a, const Shape& b, const Shape& out, Visit visit) {
    size_t n = numel_of(out);
    if (n == 0) return;
    std::vector<size_t> sa = broadcast_strides(a, out), sb = broadcast_strides(b, out);
    size_t rank = out.size();
    size_t inner = rank ? out[rank - 1] : 1;
    size_t ia_step = rank ? sa[rank - 1] : 0, ib_step = rank ? sb[rank - 1] : 0;
    std::vector<size_t> idx(rank, 0);
    size_t ia = 0, ib = 0;
    for (size_t o = 0; o < n; o += inner) {
        for (size_t j = 0; j < inner; ++j) visit(o + j, ia + j * ia_step, ib + j * ib_step);
        // advance the counter over all dims but the last
        for (long d = static_cast<long>(rank) - 2; d >= 0; --d) {
            ia += sa[d]; ib += sb[d];
            if (++idx[d] < out[d]) break;
            ia -= sa[d] * out[d]; ib -= sb[d] * out[d];
            idx[d] = 0;
        }
    }
}

// out = f(a, b) elementwise under broadcasting, with a fast path for equal shapes.
template <class F>
Array broadcast_binary(const Array& a, const Array& b, const Shape& out_shape, F f) {
    Array out(out_shape, Array::uninitialized);
    float* o = out.data();
    const float* pa = a.data();
    const float* pb = b.data();
    const Shape& as = a.shape();
    const Shape& bs = b.shape();
    if (as == out_shape && bs == out_shape) {
        kernels::parallel_pieces(out.size(),
                                 [&](size_t i0, size_t i1) { kernels::simd_zip(pa + i0, pb + i0, o + i0, i1 - i0, f); });
    } else if (as == out_shape && b.size() == 1) {
        float s = pb[0];
        for (size_t i = 0, n = out.size(); i < n; ++i) o[i] = f(pa[i], s);
    } else {
        for_each_broadcast(as, bs, out_shape, [&](size_t i, size_t ia, size_t ib) { o[i] = f(pa[ia], pb[ib]); });
    }
    return out;
}

// The undoing of broadcasting: sum g (shape `from`) over every dim where `to` was broadcast.
inline Array sum_to(const Array& g, const Shape& to) {
    const Shape& from = g.shape();
    if (from == to) return g;
    Array out(to);
    float* o = out.data();
    const float* pg_ = g.data();
    for_each_broadcast(from, to, from, [&](size_t i, size_t, size_t it) { o[it] += pg_[i]; });
    return out;
}

// The same for a gradient computed just for this input: when nothing was broadcast it is handed
// on, not copied.
inline Array sum_to(Array&& g, const Shape& to) {
    if (g.shape() == to) return std::move(g);
    return sum_to(static_cast<const Array&>(g), to);
}

}  // namespace pg::detail
