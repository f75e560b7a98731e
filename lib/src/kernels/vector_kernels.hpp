// The table's elementwise, row and optimizer kernels, written once for any instruction set: B is
// xsimd's batch of floats for Arch (4 floats with SSE2 and NEON, 8 with AVX2, 16 with AVX-512).
// Every loop runs whole batches and then the last partial one through a padded scratch batch, so
// every element gets the same arithmetic wherever it lies, and so the same bits at any thread count.
// Included only by the table_*.cpp files, each compiled with its instruction set's flags; all of it
// sits in an unnamed namespace so that no file's copy can stand in for another's.
// Leaves out: the matrix multiply (gemm_kernel.hpp).
#pragma once
#include <cmath>
#include <cstddef>
#include <limits>
#include <xsimd/xsimd.hpp>
#include "table.hpp"

// GCC 12 reports "may be used uninitialized" inside the AVX-512 rounding intrinsic that xsimd::exp
// inlines (the intrinsic starts from an undefined register on purpose); silence that one warning.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace pg::kernels {
namespace {

// The sum of a batch's lanes: xsimd 8 calls it hadd, xsimd 9 and later reduce_add.
template <class B>
float lanes_sum(const B& v) {
#if XSIMD_VERSION_MAJOR >= 9
    return xsimd::reduce_add(v);
#else
    return xsimd::hadd(v);
#endif
}

// gelu's s = 0.5 (1 + tanh u) = 1 / (1 + e^(-2u)), u = sqrt(2/pi) (x + 0.044715 x^3): the same number
// as 1 + tanh u, which cancels to a few correct digits for x below -3, where s does not.
constexpr float kGeluC = 0.7978845608028654f;   // sqrt(2 / pi)

template <class Arch>
struct VectorKernels {
    using B = xsimd::batch<float, Arch>;
    static constexpr size_t L = B::size;

    // y[i] = f(x[i])
    template <class F>
    static void map(const float* x, float* y, size_t n, F f) {
        size_t i = 0;
        for (; i + L <= n; i += L) f(B::load_unaligned(x + i)).store_unaligned(y + i);
        if (i == n) return;
        alignas(64) float tail[L] = {};
        for (size_t j = i; j < n; ++j) tail[j - i] = x[j];
        f(B::load_aligned(tail)).store_aligned(tail);
        for (size_t j = i; j < n; ++j) y[j] = tail[j - i];
    }

    // y[i] = f(a[i * as], b[i * bs]), each step 1 or 0 (one value broadcast)
    template <class F>
    static void zip(const float* a, size_t as, const float* b, size_t bs, float* y, size_t n, F f) {
        auto load = [](const float* p, size_t step, size_t i) { return step ? B::load_unaligned(p + i) : B(p[0]); };
        size_t i = 0;
        for (; i + L <= n; i += L) f(load(a, as, i), load(b, bs, i)).store_unaligned(y + i);
        if (i == n) return;
        alignas(64) float ta[L] = {}, tb[L] = {};
        for (size_t j = i; j < n; ++j) {
            ta[j - i] = a[j * as];
            tb[j - i] = b[j * bs];
        }
        f(B::load_aligned(ta), B::load_aligned(tb)).store_aligned(ta);
        for (size_t j = i; j < n; ++j) y[j] = ta[j - i];
    }

    static B gelu_s(B v) {
        B u = B(kGeluC) * (v + B(0.044715f) * v * v * v);
        return B(1.f) / (B(1.f) + xsimd::exp(B(-2.f) * u));
    }

    // ---- elementwise ----
    static void add(const float* a, size_t as, const float* b, size_t bs, float* y, size_t n) {
        zip(a, as, b, bs, y, n, [](B p, B q) { return p + q; });
    }
    static void sub(const float* a, size_t as, const float* b, size_t bs, float* y, size_t n) {
        zip(a, as, b, bs, y, n, [](B p, B q) { return p - q; });
    }
    static void mul(const float* a, size_t as, const float* b, size_t bs, float* y, size_t n) {
        zip(a, as, b, bs, y, n, [](B p, B q) { return p * q; });
    }
    static void div(const float* a, size_t as, const float* b, size_t bs, float* y, size_t n) {
        zip(a, as, b, bs, y, n, [](B p, B q) { return p / q; });
    }
    static void neg_mul(const float* a, size_t as, const float* b, size_t bs, float* y, size_t n) {
        zip(a, as, b, bs, y, n, [](B p, B q) { return -p * q; });
    }
    static void exp(const float* x, float* y, size_t n) {
        map(x, y, n, [](B v) { return xsimd::exp(v); });
    }
    static void sigmoid(const float* x, float* y, size_t n) {
        map(x, y, n, [](B v) { return B(1.f) / (B(1.f) + xsimd::exp(-v)); });
    }
    static void gelu(const float* x, float* y, size_t n) {
        map(x, y, n, [](B v) { return v * gelu_s(v); });
    }
    static void tanh_grad(const float* g, size_t gs, const float* y, size_t ys, float* out, size_t n) {
        zip(g, gs, y, ys, out, n, [](B gv, B v) { return gv * (B(1.f) - v * v); });
    }
    static void sigmoid_grad(const float* g, size_t gs, const float* y, size_t ys, float* out, size_t n) {
        zip(g, gs, y, ys, out, n, [](B gv, B v) { return gv * v * (B(1.f) - v); });
    }
    // d/dx of x s = s + 2 x s (1 - s) du/dx, du/dx = sqrt(2/pi) (1 + 3 * 0.044715 x^2)
    static void gelu_grad(const float* g, size_t gs, const float* x, size_t xs, float* out, size_t n) {
        zip(g, gs, x, xs, out, n, [](B gv, B v) {
            B s = gelu_s(v);
            B du = B(kGeluC) * (B(1.f) + B(3.f * 0.044715f) * v * v);
            return gv * (s + B(2.f) * v * s * (B(1.f) - s) * du);
        });
    }

    // ---- rows ----
    static double sum(const float* x, size_t n) {
        B acc(0.f);
        size_t i = 0;
        for (; i + L <= n; i += L) acc += B::load_unaligned(x + i);
        double total = lanes_sum(acc);
        for (; i < n; ++i) total += x[i];
        return total;
    }

    // the max is exact, so any order of the lanes gives the same value
    static float row_max(const float* x, size_t n) {
        B acc(-std::numeric_limits<float>::infinity());
        size_t j = 0;
        for (; j + L <= n; j += L) acc = xsimd::max(acc, B::load_unaligned(x + j));
        alignas(64) float lanes[L];
        acc.store_aligned(lanes);
        float m = -std::numeric_limits<float>::infinity();
        for (size_t k = 0; k < L; ++k) m = lanes[k] > m ? lanes[k] : m;
        for (; j < n; ++j) m = x[j] > m ? x[j] : m;
        return m;
    }

    // e^(x - shift) added as sum adds stored values: softmax_row's normaliser, without storing the exps
    static double row_sum_exp(const float* x, size_t n, float shift_value) {
        B shift(shift_value), acc(0.f);
        size_t j = 0;
        for (; j + L <= n; j += L) acc += xsimd::exp(B::load_unaligned(x + j) - shift);
        double total = lanes_sum(acc);
        if (j == n) return total;
        alignas(64) float tail[L];
        map(x + j, tail, n - j, [shift](B v) { return xsimd::exp(v - shift); });
        for (size_t k = 0; k < n - j; ++k) total += tail[k];
        return total;
    }

    // Work with x - m throughout: folding m into log z (x - (m + log z)) would round the result to
    // the precision of m, which for logits near 1000 is only 6e-5. A row that is all -inf has no
    // finite maximum and gives NaN, as in PyTorch.
    static void softmax_row(const float* x, float* y, size_t n, bool log_space) {
        const float m = row_max(x, n);
        B shift(m);
        if (log_space) {
            B logz(static_cast<float>(std::log(row_sum_exp(x, n, m))));
            map(x, y, n, [shift, logz](B v) { return (v - shift) - logz; });
            return;
        }
        map(x, y, n, [shift](B v) { return xsimd::exp(v - shift); });
        B inv_z(static_cast<float>(1.0 / sum(y, n)));
        map(y, y, n, [inv_z](B e) { return e * inv_z; });
    }

    static void softmax_scaled(const float* x, float* y, size_t n, float shift, float logz, float scale) {
        B s(shift), lz(logz), k(scale);
        map(x, y, n, [s, lz, k](B v) { return xsimd::exp((v - s) - lz) * k; });
    }

    // ---- optimizer: Adam's update, the memory-bound heart of the step ----
    static void adam_values(B& w, B g, B& m, B& v, const AdamFactors& f) {
        if (f.decoupled) w = w * f.decay;
        else g = g + f.wd * w;
        m = f.b1 * m + (1.f - f.b1) * g;
        v = f.b2 * v + (1.f - f.b2) * g * g;
        B denom = xsimd::sqrt(v) / f.sqrt_correction2 + f.eps;
        w = w - f.step_size * (m / denom);
    }

    static void adam_update(float* w, const float* grad, float* m, float* v, size_t begin, size_t end,
                            const AdamFactors& f) {
        size_t j = begin;
        for (; j + L <= end; j += L) {
            B wb = B::load_unaligned(w + j), mb = B::load_unaligned(m + j), vb = B::load_unaligned(v + j);
            adam_values(wb, B::load_unaligned(grad + j), mb, vb, f);
            wb.store_unaligned(w + j);
            mb.store_unaligned(m + j);
            vb.store_unaligned(v + j);
        }
        if (j == end) return;
        alignas(64) float tw[L] = {}, tg[L] = {}, tm[L] = {}, tv[L] = {};
        for (size_t k = j; k < end; ++k) {
            tw[k - j] = w[k];
            tg[k - j] = grad[k];
            tm[k - j] = m[k];
            tv[k - j] = v[k];
        }
        B wb = B::load_aligned(tw), mb = B::load_aligned(tm), vb = B::load_aligned(tv);
        adam_values(wb, B::load_aligned(tg), mb, vb, f);
        wb.store_aligned(tw);
        mb.store_aligned(tm);
        vb.store_aligned(tv);
        for (size_t k = j; k < end; ++k) {
            w[k] = tw[k - j];
            m[k] = tm[k - j];
            v[k] = tv[k - j];
        }
    }
};

}  // namespace
}  // namespace pg::kernels
