// Elementwise loops over float arrays with xsimd batches: y[i] = f(x[i]) and y[i] = f(a[i], b[i]).
// A functor written for any type (a generic lambda using + - * / and xsimd::exp) runs on whole
// batches, the last partial batch included (through a padded scratch batch), so every element gets
// the same arithmetic wherever it lies. A functor that only takes floats runs as a plain loop.
// Leaves out: broadcasting and strides (callers pass contiguous arrays of one length).
#pragma once
#include <cstddef>
#include <type_traits>
#include <xsimd/xsimd.hpp>

// GCC 12 reports "may be used uninitialized" inside the AVX-512 rounding intrinsic that xsimd::exp
// inlines (the intrinsic starts from an undefined register on purpose); silence that one warning.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace pg::kernels {

using FloatBatch = xsimd::batch<float>;
constexpr size_t kFloatLanes = FloatBatch::size;

// y[i] = f(x[i]) for i < n; y may be x.
template <class F>
void simd_map(const float* x, float* y, size_t n, F f) {
    if constexpr (std::is_invocable_v<F, FloatBatch>) {
        size_t i = 0;
        for (; i + kFloatLanes <= n; i += kFloatLanes)
            f(FloatBatch::load_unaligned(x + i)).store_unaligned(y + i);
        if (i == n) return;
        alignas(64) float tail[kFloatLanes] = {};
        for (size_t j = i; j < n; ++j) tail[j - i] = x[j];
        f(FloatBatch::load_aligned(tail)).store_aligned(tail);
        for (size_t j = i; j < n; ++j) y[j] = tail[j - i];
    } else {
        for (size_t i = 0; i < n; ++i) y[i] = f(x[i]);
    }
}

// y[i] = f(a[i], b[i]) for i < n; y may be a or b.
template <class F>
void simd_zip(const float* a, const float* b, float* y, size_t n, F f) {
    if constexpr (std::is_invocable_v<F, FloatBatch, FloatBatch>) {
        size_t i = 0;
        for (; i + kFloatLanes <= n; i += kFloatLanes)
            f(FloatBatch::load_unaligned(a + i), FloatBatch::load_unaligned(b + i)).store_unaligned(y + i);
        if (i == n) return;
        alignas(64) float ta[kFloatLanes] = {}, tb[kFloatLanes] = {};
        for (size_t j = i; j < n; ++j) {
            ta[j - i] = a[j];
            tb[j - i] = b[j];
        }
        f(FloatBatch::load_aligned(ta), FloatBatch::load_aligned(tb)).store_aligned(ta);
        for (size_t j = i; j < n; ++j) y[j] = ta[j - i];
    } else {
        for (size_t i = 0; i < n; ++i) y[i] = f(a[i], b[i]);
    }
}

// The sum of x[0..n) as a double, batch by batch (same order at any thread count).
inline double simd_sum(const float* x, size_t n) {
    FloatBatch acc(0.f);
    size_t i = 0;
    for (; i + kFloatLanes <= n; i += kFloatLanes) acc += FloatBatch::load_unaligned(x + i);
    double total = xsimd::hadd(acc);
    for (; i < n; ++i) total += x[i];
    return total;
}

}  // namespace pg::kernels
