// The neural-network ops, each with a hand-written backward: softmax, log_softmax,
// masked_fill, cross_entropy (log-softmax and the loss fused), embedding, layer_norm, dropout.
// Their composed versions (exp, sum, div...) are the tests' second opinion.
#include <cmath>
#include <limits>
#include <sstream>
#include "../kernels/parallel.hpp"
#include "op_util.hpp"
#include "pg/ops.hpp"

namespace pg {

using namespace detail;

// softmax (or log_softmax) of x along dim d. Rows along the last dim are contiguous and split over
// the threads when large; other dims are walked with a stride.
static Array softmax_array(const Array& x, const Shape& s, size_t d, bool log_space) {
    AroundDim v(s, d);
    Array y(s, Array::uninitialized);
    const float* px = x.data();
    float* py = y.data();
    if (v.inner == 1) {
        kernels::parallel_rows(v.outer, v.n, [&](size_t r0, size_t r1) {
            for (size_t r = r0; r < r1; ++r) simd().softmax_row(px + r * v.n, py + r * v.n, v.n, log_space);
        });
        return y;
    }
    std::vector<float> row(v.n), out(v.n);
    v.each_line([&](size_t base) {
        for (size_t j = 0; j < v.n; ++j) row[j] = px[base + j * v.inner];
        simd().softmax_row(row.data(), out.data(), v.n, log_space);
        for (size_t j = 0; j < v.n; ++j) py[base + j * v.inner] = out[j];
    });
    return y;
}

Tensor softmax(const Tensor& x, long dim) {
    Shape s = x.shape();
    size_t d = normalize_dim(dim, s.size(), "softmax");
    return record(Op::softmax, softmax_array(x.data(), s, d, false), {x}, [s, d](const BackwardContext& ctx) {
        // y = e^x / sum e^x  =>  dx = y * (gy - sum_j gy_j y_j)
        const float *gy = ctx.gy.data(), *y = ctx.y.data();
        AroundDim v(s, d);
        Array g(s, Array::uninitialized);
        v.each_line([&](size_t base) {
            float dot = 0;
            for (size_t k = base; k < base + v.n * v.inner; k += v.inner) dot += gy[k] * y[k];
            for (size_t k = base; k < base + v.n * v.inner; k += v.inner) g.data()[k] = y[k] * (gy[k] - dot);
        });
        return grads(std::move(g));
    });
}

Tensor log_softmax(const Tensor& x, long dim) {
    Shape s = x.shape();
    size_t d = normalize_dim(dim, s.size(), "log_softmax");
    return record(Op::log_softmax, softmax_array(x.data(), s, d, true), {x}, [s, d](const BackwardContext& ctx) {
        // y = x - log sum e^x  =>  dx = gy - e^y * sum_j gy_j
        const float *gy = ctx.gy.data(), *y = ctx.y.data();
        AroundDim v(s, d);
        Array g(s, Array::uninitialized);
        v.each_line([&](size_t base) {
            float total = 0;
            for (size_t k = base; k < base + v.n * v.inner; k += v.inner) total += gy[k];
            for (size_t k = base; k < base + v.n * v.inner; k += v.inner) g.data()[k] = gy[k] - std::exp(y[k]) * total;
        });
        return grads(std::move(g));
    });
}

Tensor masked_fill(const Tensor& x, const Tensor& mask, float value) {
    Shape s = x.shape();
    if (broadcast_shapes(s, mask.shape(), "masked_fill") != s)
        throw ShapeError("masked_fill: mask " + shape_str(mask.shape()) + " does not broadcast to x " + shape_str(s));
    Array keep = broadcast_binary(Array(s), mask.data(), s, [](float, float m) { return m != 0.f ? 0.f : 1.f; });
    Array y = zip(x.data(), keep, [value](float v, float k) { return k != 0.f ? v : value; });
    return record(Op::masked_fill, std::move(y), {x}, [keep](const BackwardContext& ctx) {
        // y = value where mask, else x  =>  dx = gy where not mask, else 0
        return grads(zip(ctx.gy, keep, [](float g, float k) { return g * k; }));
    });
}

Tensor cross_entropy(const Tensor& logits, const Tensor& targets, long ignore_index) {
    Shape ls = logits.shape(), ts = targets.shape();
    if (ls.size() != 2 || ts.size() != 1 || ts[0] != ls[0])
        throw ShapeError("cross_entropy: logits " + shape_str(ls) + " and targets " + shape_str(ts) +
                         ": expected logits (N,C) and targets (N)");
    size_t N = ls[0], C = ls[1];
    std::vector<long> t(N);
    size_t count = 0;
    for (size_t r = 0; r < N; ++r) {
        float v = targets.ptr()[r];
        if (v == static_cast<float>(ignore_index)) { t[r] = -1; continue; }
        t[r] = static_cast<long>(read_id(v, C, "cross_entropy", "target", r));
        ++count;
    }
    if (count == 0)
        throw std::invalid_argument("cross_entropy: all " + std::to_string(N) + " targets equal ignore_index " +
                                    std::to_string(ignore_index) + "; the mean over no targets is undefined");
    // Per row, the max and log z of log_softmax (as the table's softmax_row computes them): the loss needs only
    // the targets' log-probabilities, and the backward recomputes the others from the logits, so
    // the (N,C) log-probabilities are never stored.
    std::vector<float> shift(N), logz(N);
    const float* x = logits.ptr();
    kernels::parallel_rows(N, C, [&](size_t r0, size_t r1) {
        for (size_t r = r0; r < r1; ++r) {
            shift[r] = simd().row_max(x + r * C, C);
            logz[r] = static_cast<float>(std::log(simd().row_sum_exp(x + r * C, C, shift[r])));
        }
    });
    double loss = 0;
    for (size_t r = 0; r < N; ++r)
        if (t[r] >= 0) loss -= (x[r * C + static_cast<size_t>(t[r])] - shift[r]) - logz[r];
    Array y({}, static_cast<float>(loss / static_cast<double>(count)));
    return record(Op::cross_entropy, std::move(y), {logits},
                  [shift = std::move(shift), logz = std::move(logz), t, N, C, count](const BackwardContext& ctx) {
                           // loss = -mean_r logp[r, t_r]  =>  dlogits[r] = (softmax[r] - onehot(t_r)) * gy / count
                           const Tensor& logits = ctx.inputs[0];
                           Array g(Shape{N, C}, Array::uninitialized);
                           float scale = ctx.gy.data()[0] / static_cast<float>(count);
                           kernels::parallel_rows(N, C, [&](size_t r0, size_t r1) {
                               for (size_t r = r0; r < r1; ++r) {
                                   float* gr = g.data() + r * C;
                                   if (t[r] < 0) {  // ignored rows get no gradient
                                       std::fill(gr, gr + C, 0.f);
                                       continue;
                                   }
                                   // softmax = exp(logp), times gy / count
                                   simd().softmax_scaled(logits.ptr() + r * C, gr, C, shift[r], logz[r], scale);
                                   gr[static_cast<size_t>(t[r])] -= scale;
                               }
                           });
                           return grads(std::move(g));
                       });
}

Tensor embedding(const Tensor& weight, const Tensor& ids) {
    Shape ws = weight.shape();
    if (ws.size() != 2) throw ShapeError("embedding: weight " + shape_str(ws) + " must be (V,C)");
    size_t V = ws[0], C = ws[1], n = ids.numel();
    std::vector<size_t> rows(n);
    for (size_t k = 0; k < n; ++k) rows[k] = read_id(ids.ptr()[k], V, "embedding", "id", k);
    Shape ys = ids.shape();
    ys.push_back(C);
    Array y(ys, Array::uninitialized);
    for (size_t k = 0; k < n; ++k) std::copy(weight.ptr() + rows[k] * C, weight.ptr() + (rows[k] + 1) * C, y.data() + k * C);
    return record(Op::embedding, std::move(y), {weight}, [ws, rows, C](const BackwardContext& ctx) {
        // y[k] = weight[ids[k]]  =>  dweight[ids[k]] += gy[k] (scatter-add: repeated ids add up)
        const Array& gy = ctx.gy;
        Array g(ws);
        for (size_t k = 0; k < rows.size(); ++k)
            for (size_t c = 0; c < C; ++c) g.data()[rows[k] * C + c] += gy.data()[k * C + c];
        return grads(std::move(g));
    });
}

Tensor layer_norm(const Tensor& x, const Tensor& weight, const Tensor& bias, float eps) {
    Shape s = x.shape();
    if (s.empty() || weight.shape() != Shape{s.back()} || bias.shape() != Shape{s.back()})
        throw ShapeError("layer_norm: x " + shape_str(s) + ", weight " + shape_str(weight.shape()) + ", bias " +
                         shape_str(bias.shape()) + ": weight and bias must be (C) with C = x's last dim");
    if (s.back() == 0) throw ShapeError("layer_norm: x " + shape_str(s) + " has an empty last dim: nothing to normalise");
    size_t C = s.back(), rows = x.numel() / C;
    Array xhat(s, Array::uninitialized), y(s, Array::uninitialized);
    std::vector<float> rstd(rows);
    const float* w = weight.ptr();
    const float* b = bias.ptr();
    kernels::parallel_rows(rows, 4 * C, [&](size_t r0, size_t r1) {
        for (size_t r = r0; r < r1; ++r) {
            const float* xr = x.ptr() + r * C;
            double mean = 0, var = 0;
            for (size_t c = 0; c < C; ++c) mean += xr[c];
            mean /= static_cast<double>(C);
            for (size_t c = 0; c < C; ++c) var += (xr[c] - mean) * (xr[c] - mean);
            var /= static_cast<double>(C);  // biased, as PyTorch
            rstd[r] = static_cast<float>(1.0 / std::sqrt(var + eps));
            for (size_t c = 0; c < C; ++c) {
                float h = static_cast<float>(xr[c] - mean) * rstd[r];
                xhat.data()[r * C + c] = h;
                y.data()[r * C + c] = h * w[c] + b[c];
            }
        }
    });
    return record(Op::layer_norm, std::move(y), {x, weight, bias},
                  [xhat, rstd, rows, C](const BackwardContext& ctx) {
                           // xhat = (x - mean) * rstd, y = xhat * w + b  =>
                           // db = sum gy, dw = sum gy * xhat,
                           // dx = rstd * (g - mean(g) - xhat * mean(g * xhat)) with g = gy * w
                           const Array& gy = ctx.gy;
                           Array gx(xhat.shape(), Array::uninitialized);
                           Array gw(Shape{C});
                           Array gb(Shape{C});
                           // One serial loop on purpose: split so that dx's rows could run on the
                           // threads, GCC fuses mean_g's multiply and add into one FMA and every
                           // gradient's last bits change.
                           std::vector<float> g(C);
                           const float* w = ctx.inputs[1].ptr();
                           for (size_t r = 0; r < rows; ++r) {
                               const float* gyr = gy.data() + r * C;
                               const float* h = xhat.data() + r * C;
                               float mean_g = 0, mean_gh = 0;
                               for (size_t c = 0; c < C; ++c) {
                                   g[c] = gyr[c] * w[c];
                                   mean_g += g[c];
                                   mean_gh += g[c] * h[c];
                                   gw.data()[c] += gyr[c] * h[c];
                                   gb.data()[c] += gyr[c];
                               }
                               mean_g /= static_cast<float>(C);
                               mean_gh /= static_cast<float>(C);
                               for (size_t c = 0; c < C; ++c)
                                   gx.data()[r * C + c] = rstd[r] * (g[c] - mean_g - h[c] * mean_gh);
                           }
                           return grads(std::move(gx), std::move(gw), std::move(gb));
                       });
}

void check_dropout_p(float p) {
    if (!(p >= 0.f && p < 1.f)) {
        std::ostringstream value;  // prints 1, 1.5, -0.1, nan as written
        value << p;
        throw std::invalid_argument("dropout: p = " + value.str() + " is not in [0, 1)");
    }
}

// The mask takes one number from gen per call, a key; element i is kept when the i-th uniform
// number of that key's stream (counter_uniform) is at least p. Every element's draw depends on the
// key and i alone, so the mask is the same at any thread count and after a resume.
Tensor dropout(const Tensor& x, float p, bool training, Generator& gen) {
    check_dropout_p(p);
    if (!training || p == 0.f) return x;
    const float scale = 1.f / (1.f - p);
    const uint64_t key = gen.next_u64();
    Array keep(x.shape(), Array::uninitialized);
    float* k = keep.data();
    kernels::parallel_pieces(keep.size(), [&](size_t i0, size_t i1) {
        for (size_t i = i0; i < i1; ++i) k[i] = counter_uniform(key, i) >= p ? scale : 0.f;
    });
    Array y = zip(x.data(), keep, [](float v, float kv) { return v * kv; });
    return record(Op::dropout, std::move(y), {x}, [keep](const BackwardContext& ctx) {
        // y = x * keep, keep = 1/(1-p) where kept and 0 where dropped  =>  dx = gy * keep
        return grads(zip(ctx.gy, keep, [](float g, float kv) { return g * kv; }));
    });
}

}  // namespace pg
