// Small helpers shared by the op files: elementwise maps (a kernel of the table, or a plain loop
// for a float functor), the list of gradients a backward returns, the (outer, n, inner) view of a tensor around
// one dim, and reading whole-number ids out of a float tensor. Every op file ends its ops with
// record() from the op table, included here.
#pragma once
#include <cmath>
#include <sstream>
#include <string>
#include "../broadcast.hpp"
#include "../kernels/parallel.hpp"
#include "../kernels/table.hpp"
#include "op_table.hpp"
#include "pg/autograd.hpp"

namespace pg::detail {

// The kernel table this CPU runs (kernels/table.hpp): the ops' SIMD loops.
inline const kernels::KernelTable& simd() { return kernels::active(); }

// out[i] = k(x[i]) with a kernel of the table, large arrays in pieces over the threads
inline Array map(const Array& x, kernels::UnaryKernel k) {
    Array out(x.shape(), Array::uninitialized);
    kernels::parallel_pieces(x.size(), [&](size_t i0, size_t i1) { k(x.data() + i0, out.data() + i0, i1 - i0); });
    return out;
}

// out[i] = f(x[i]) for a function of floats: a plain loop, in pieces over the threads
template <class F>
Array map(const Array& x, F f) {
    Array out(x.shape(), Array::uninitialized);
    kernels::parallel_pieces(x.size(), [&](size_t i0, size_t i1) {
        for (size_t i = i0; i < i1; ++i) out.data()[i] = f(x.data()[i]);
    });
    return out;
}

// out[i] = k(a[i], b[i]) for arrays of one shape, with a kernel of the table
inline Array zip(const Array& a, const Array& b, kernels::BinaryKernel k) {
    Array out(a.shape(), Array::uninitialized);
    kernels::parallel_pieces(a.size(), [&](size_t i0, size_t i1) {
        k(a.data() + i0, 1, b.data() + i0, 1, out.data() + i0, i1 - i0);
    });
    return out;
}

// out[i] = f(a[i], b[i]) for a function of floats
template <class F>
Array zip(const Array& a, const Array& b, F f) {
    Array out(a.shape(), Array::uninitialized);
    kernels::parallel_pieces(a.size(), [&](size_t i0, size_t i1) {
        for (size_t i = i0; i < i1; ++i) out.data()[i] = f(a.data()[i], b.data()[i]);
    });
    return out;
}

// The gradients a backward returns, one per input, moved into the list (a braced list
// std::vector<Array>{g} would copy every array).
template <class... Grads>
std::vector<Array> grads(Grads&&... g) {
    std::vector<Array> list;
    list.reserve(sizeof...(g));
    (list.push_back(std::forward<Grads>(g)), ...);
    return list;
}

// A tensor seen as (outer, n, inner) around dimension d: element (o, j, i) is at
// o * n * inner + j * inner + i.
struct AroundDim {
    size_t outer = 1, n = 1, inner = 1;
    AroundDim(const Shape& s, size_t d) {
        for (size_t i = 0; i < d; ++i) outer *= s[i];
        n = s[d];
        for (size_t i = d + 1; i < s.size(); ++i) inner *= s[i];
    }
    // f(base) for each of the outer * inner lines along d; line element j is at base + j * inner.
    template <class F>
    void each_line(F f) const {
        for (size_t o = 0; o < outer; ++o)
            for (size_t i = 0; i < inner; ++i) f(o * n * inner + i);
    }
};

// The whole number stored in a float id, checked to lie in [0, limit); `pos` is its flat index.
// The one check of ids and targets: embedding, index_select and cross_entropy call it.
inline size_t read_id(float v, size_t limit, const std::string& op, const std::string& what, size_t pos) {
    if (!(v >= 0.f) || v != std::floor(v) || v >= static_cast<float>(limit)) {
        std::ostringstream value;  // prints 7, 1.5, -1, nan as written
        value << v;
        throw IdError(op + ": " + what + " " + value.str() + " at position " + std::to_string(pos) +
                          " is not a whole number in [0, " + std::to_string(limit) + ")",
                      value.str(), pos, limit);
    }
    return static_cast<size_t>(v);
}

}  // namespace pg::detail
