// The kernel table as plain loops: what every instruction set's table must compute (the tests hold
// each one to it), in the order a reader would write it. Never chosen by default; PG_KERNELS=reference
// runs a program on it. Leaves out: speed.
#include <cmath>
#include <limits>
#include "gemm.hpp"
#include "table.hpp"

namespace pg::kernels {

namespace {

template <class F>
void each(const float* a, size_t as, const float* b, size_t bs, float* y, size_t n, F f) {
    for (size_t i = 0; i < n; ++i) y[i] = f(a[i * as], b[i * bs]);
}

float gelu_s(float x) {
    float u = 0.7978845608028654f * (x + 0.044715f * x * x * x);
    return 1.f / (1.f + std::exp(-2.f * u));
}

double sum(const float* x, size_t n) {
    double total = 0;
    for (size_t i = 0; i < n; ++i) total += x[i];
    return total;
}

float row_max(const float* x, size_t n) {
    float m = -std::numeric_limits<float>::infinity();
    for (size_t i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
    return m;
}

double row_sum_exp(const float* x, size_t n, float shift) {
    double total = 0;
    for (size_t i = 0; i < n; ++i) total += std::exp(x[i] - shift);
    return total;
}

void softmax_row(const float* x, float* y, size_t n, bool log_space) {
    float m = row_max(x, n);
    if (log_space) {
        float logz = static_cast<float>(std::log(row_sum_exp(x, n, m)));
        for (size_t i = 0; i < n; ++i) y[i] = (x[i] - m) - logz;
        return;
    }
    for (size_t i = 0; i < n; ++i) y[i] = std::exp(x[i] - m);
    float inv_z = static_cast<float>(1.0 / sum(y, n));
    for (size_t i = 0; i < n; ++i) y[i] *= inv_z;
}

void softmax_scaled(const float* x, float* y, size_t n, float shift, float logz, float scale) {
    for (size_t i = 0; i < n; ++i) y[i] = std::exp((x[i] - shift) - logz) * scale;
}

void adam_update(float* w, const float* grad, float* m, float* v, size_t begin, size_t end, const AdamFactors& f) {
    for (size_t j = begin; j < end; ++j) {
        float g = grad[j];
        if (f.decoupled) w[j] *= f.decay;
        else g += f.wd * w[j];
        m[j] = f.b1 * m[j] + (1.f - f.b1) * g;
        v[j] = f.b2 * v[j] + (1.f - f.b2) * g * g;
        w[j] -= f.step_size * (m[j] / (std::sqrt(v[j]) / f.sqrt_correction2 + f.eps));
    }
}

const KernelTable kReference{
    "reference",
    1,
    [](const float* a, size_t as, const float* b, size_t bs, float* y, size_t n) {
        each(a, as, b, bs, y, n, [](float p, float q) { return p + q; });
    },
    [](const float* a, size_t as, const float* b, size_t bs, float* y, size_t n) {
        each(a, as, b, bs, y, n, [](float p, float q) { return p - q; });
    },
    [](const float* a, size_t as, const float* b, size_t bs, float* y, size_t n) {
        each(a, as, b, bs, y, n, [](float p, float q) { return p * q; });
    },
    [](const float* a, size_t as, const float* b, size_t bs, float* y, size_t n) {
        each(a, as, b, bs, y, n, [](float p, float q) { return p / q; });
    },
    [](const float* a, size_t as, const float* b, size_t bs, float* y, size_t n) {
        each(a, as, b, bs, y, n, [](float p, float q) { return -p * q; });
    },
    [](const float* x, float* y, size_t n) {
        for (size_t i = 0; i < n; ++i) y[i] = std::exp(x[i]);
    },
    [](const float* x, float* y, size_t n) {
        for (size_t i = 0; i < n; ++i) y[i] = 1.f / (1.f + std::exp(-x[i]));
    },
    [](const float* x, float* y, size_t n) {
        for (size_t i = 0; i < n; ++i) y[i] = x[i] * gelu_s(x[i]);
    },
    [](const float* g, size_t gs, const float* y, size_t ys, float* out, size_t n) {
        each(g, gs, y, ys, out, n, [](float gv, float v) { return gv * (1.f - v * v); });
    },
    [](const float* g, size_t gs, const float* y, size_t ys, float* out, size_t n) {
        each(g, gs, y, ys, out, n, [](float gv, float v) { return gv * v * (1.f - v); });
    },
    [](const float* g, size_t gs, const float* x, size_t xs, float* out, size_t n) {
        each(g, gs, x, xs, out, n, [](float gv, float v) {
            float s = gelu_s(v), du = 0.7978845608028654f * (1.f + 3.f * 0.044715f * v * v);
            return gv * (s + 2.f * v * s * (1.f - s) * du);
        });
    },
    sum,
    row_max,
    row_sum_exp,
    softmax_row,
    softmax_scaled,
    adam_update,
    gemm_reference,
};

}  // namespace

const KernelTable& reference_table() { return kReference; }

}  // namespace pg::kernels
