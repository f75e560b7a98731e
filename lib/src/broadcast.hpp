// Broadcasting, applied and undone: the one place in poetgrad that knows numpy's rule in loops.
// Forward ops call broadcast_binary; backward passes call sum_to to bring a gradient back to
// the shape of the input it belongs to. Leaves out: views (results are always materialised).
#pragma once
#include <algorithm>
#include <utility>
#include "kernels/parallel.hpp"
#include "kernels/table.hpp"
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

// Calls visit_row(i_out, i_a, i_b) at the start of every run of `out` along its last dim, with
// the matching flat offsets of a and b under broadcasting.
template <class VisitRow>
void for_each_broadcast_row(const Shape& a, const Shape& b, const Shape& out, VisitRow visit_row) {
    size_t n = numel_of(out);
    if (n == 0) return;
    std::vector<size_t> sa = broadcast_strides(a, out), sb = broadcast_strides(b, out);
    size_t rank = out.size();
    size_t inner = rank ? out[rank - 1] : 1;
    std::vector<size_t> idx(rank, 0);
    size_t ia = 0, ib = 0;
    for (size_t o = 0; o < n; o += inner) {
        visit_row(o, ia, ib);
        // advance the counter over all dims but the last
        for (long d = static_cast<long>(rank) - 2; d >= 0; --d) {
            ia += sa[d]; ib += sb[d];
            if (++idx[d] < out[d]) break;
            ia -= sa[d] * out[d]; ib -= sb[d] * out[d];
            idx[d] = 0;
        }
    }
}

// Calls visit(i_out, i_a, i_b) for every element of `out`, with the matching flat offsets of a and
// b under broadcasting, the last dim in an inner loop.
template <class Visit>
void for_each_broadcast(const Shape& a, const Shape& b, const Shape& out, Visit visit) {
    size_t rank = out.size();
    size_t inner = rank ? out[rank - 1] : 1;
    size_t ia_step = rank ? broadcast_strides(a, out)[rank - 1] : 0, ib_step = rank ? broadcast_strides(b, out)[rank - 1] : 0;
    for_each_broadcast_row(a, b, out, [&](size_t o, size_t ia, size_t ib) {
        for (size_t j = 0; j < inner; ++j) visit(o + j, ia + j * ia_step, ib + j * ib_step);
    });
}

// out = k(a, b) elementwise under broadcasting, with a kernel of the table (kernels/table.hpp): on
// whole arrays when the shapes are equal or one side is a single value, else run by run along the
// last dim (a side broadcast along it gives its one value to the whole run).
inline Array broadcast_binary(const Array& a, const Array& b, const Shape& out_shape, kernels::BinaryKernel k) {
    Array out(out_shape, Array::uninitialized);
    float* o = out.data();
    const float* pa = a.data();
    const float* pb = b.data();
    const Shape& as = a.shape();
    const Shape& bs = b.shape();
    if ((as == out_shape || a.size() == 1) && (bs == out_shape || b.size() == 1)) {
        size_t sa = as == out_shape ? 1 : 0, sb = bs == out_shape ? 1 : 0;
        kernels::parallel_pieces(out.size(),
                                 [&](size_t i0, size_t i1) { k(pa + i0 * sa, sa, pb + i0 * sb, sb, o + i0, i1 - i0); });
        return out;
    }
    const size_t inner = out_shape.empty() ? 1 : out_shape.back();
    const size_t a_step = !as.empty() && as.back() == inner ? 1 : 0, b_step = !bs.empty() && bs.back() == inner ? 1 : 0;
    for_each_broadcast_row(as, bs, out_shape,
                           [&](size_t i, size_t ia, size_t ib) { k(pa + ia, a_step, pb + ib, b_step, o + i, inner); });
    return out;
}

// out = f(a, b) for a function of floats, under broadcasting: a plain loop.
template <class F>
Array broadcast_binary(const Array& a, const Array& b, const Shape& out_shape, F f) {
    Array out(out_shape, Array::uninitialized);
    float* o = out.data();
    const float* pa = a.data();
    const float* pb = b.data();
    for_each_broadcast(a.shape(), b.shape(), out_shape, [&](size_t i, size_t ia, size_t ib) { o[i] = f(pa[ia], pb[ib]); });
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
