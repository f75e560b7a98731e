// Matrix products: batched matmul with broadcasting over leading dims, and linear (x @ w^T + b),
// both on top of kernels::gemm, whose transpose flags spare the backward any transposed copy.
// Leaves out: 1-D operands (reshape a vector to (1,K) or (K,1) first).
#include "../kernels/gemm.hpp"
#include "op_util.hpp"
#include "pg/ops.hpp"

namespace pg {

using namespace detail;

Tensor matmul(const Tensor& a, const Tensor& b) {
    Shape as = a.shape(), bs = b.shape();
    std::string both = shape_str(as) + " @ " + shape_str(bs);
    if (as.size() < 2 || bs.size() < 2)
        throw ShapeError("matmul: " + both + ": both operands need at least 2 dims (reshape a vector to (1,n))");
    size_t N = as[as.size() - 2], K = as.back(), M = bs.back();
    if (bs[bs.size() - 2] != K)
        throw ShapeError("matmul: " + both + ": inner dimensions " + std::to_string(K) + " and " +
                         std::to_string(bs[bs.size() - 2]) + " differ");
    Shape a_batch(as.begin(), as.end() - 2), b_batch(bs.begin(), bs.end() - 2);
    Shape batch = broadcast_shapes(a_batch, b_batch, "matmul: " + both + ": batch dims");
    Shape ys = batch;
    ys.push_back(N);
    ys.push_back(M);
    Array y(ys, Array::uninitialized);
    const bool same_batch = a_batch == batch && b_batch == batch;   // nothing broadcast
    const size_t nbatch = numel_of(batch);
    const float* pa = a.ptr();
    const float* pb = b.ptr();
    float* py = y.data();
    // y[i] = a[ia] @ b[ib] for every batch index i (ia, ib: the broadcast matrices it reads)
    if (same_batch) {   // attention's (B,NH,T,HS) @ (B,NH,HS,T): many small products, spread over threads
        kernels::gemm_batched(nbatch, false, false, N, M, K, pa, K, N * K, pb, M, K * M, py, M, N * M, false);
    } else {
        for_each_broadcast(a_batch, b_batch, batch, [&](size_t i, size_t ia, size_t ib) {
            kernels::gemm(false, false, N, M, K, pa + ia * N * K, K, pb + ib * K * M, M, py + i * N * M, M, false);
        });
    }
    return record(Op::matmul, std::move(y), {a, b},
                  [a_batch, b_batch, batch, same_batch, nbatch, N, K, M](const BackwardContext& ctx) {
                           // y = a @ b  =>  da = gy @ b^T, db = a^T @ gy (summed over broadcast batch dims)
                           const Tensor &a = ctx.inputs[0], &b = ctx.inputs[1];
                           std::vector<Array> g(2);
                           const float* pgy = ctx.gy.data();
                           if (a.requires_grad()) {
                               g[0] = Array(a.shape());
                               float* pga = g[0].data();
                               if (same_batch)
                                   kernels::gemm_batched(nbatch, false, true, N, K, M, pgy, M, N * M, b.ptr(), M,
                                                         K * M, pga, K, N * K, true);
                               else
                                   for_each_broadcast(a_batch, b_batch, batch, [&](size_t i, size_t ia, size_t ib) {
                                       kernels::gemm(false, true, N, K, M, pgy + i * N * M, M, b.ptr() + ib * K * M,
                                                     M, pga + ia * N * K, K, true);
                                   });
                           }
                           if (b.requires_grad()) {
                               g[1] = Array(b.shape());
                               float* pgb = g[1].data();
                               if (same_batch)
                                   kernels::gemm_batched(nbatch, true, false, K, M, N, a.ptr(), K, N * K, pgy, M,
                                                         N * M, pgb, M, K * M, true);
                               else
                                   for_each_broadcast(a_batch, b_batch, batch, [&](size_t i, size_t ia, size_t ib) {
                                       kernels::gemm(true, false, K, M, N, a.ptr() + ia * N * K, K, pgy + i * N * M,
                                                     M, pgb + ib * K * M, M, true);
                                   });
                           }
                           return g;
                       });
}

Tensor linear(const Tensor& x, const Tensor& w, const Tensor& b) {
    Shape xs = x.shape(), ws = w.shape();
    bool has_bias = b.numel() > 0;
    if (ws.size() != 2 || xs.empty() || xs.back() != ws[1])
        throw ShapeError("linear: x " + shape_str(xs) + " and weight " + shape_str(ws) +
                         ": weight must be (out, in) with in equal to x's last dim");
    size_t in = ws[1], out = ws[0], rows = numel_of(Shape(xs.begin(), xs.end() - 1));
    if (has_bias && b.shape() != Shape{out})
        throw ShapeError("linear: bias " + shape_str(b.shape()) + " does not match weight " + shape_str(ws) +
                         " (expected (" + std::to_string(out) + "))");
    Shape ys = xs;
    ys.back() = out;
    Array y(ys, Array::uninitialized);
    // y (rows, out) = x (rows, in) @ w^T (in, out) + b
    kernels::gemm(false, true, rows, out, in, x.ptr(), in, w.ptr(), in, y.data(), out, false);
    if (has_bias) {
        const float* pb = b.ptr();
        for (size_t r = 0; r < rows; ++r) {
            float* yr = y.data() + r * out;
            simd().add(yr, 1, pb, 1, yr, out);
        }
    }
    std::vector<Tensor> inputs{x, w};
    if (has_bias) inputs.push_back(b);
    return record(Op::linear, std::move(y), inputs, [has_bias, rows, in, out](const BackwardContext& ctx) {
        // y = x @ w^T + b  =>  dx = gy @ w, dw = gy^T @ x, db = sum of gy over rows
        const Tensor &x = ctx.inputs[0], &w = ctx.inputs[1];
        const Array& gy = ctx.gy;
        std::vector<Array> g(has_bias ? 3 : 2);
        if (x.requires_grad()) {
            g[0] = Array(x.shape(), Array::uninitialized);
            kernels::gemm(false, false, rows, in, out, gy.data(), out, w.ptr(), in, g[0].data(), in, false);
        }
        if (w.requires_grad()) {
            g[1] = Array(w.shape(), Array::uninitialized);
            kernels::gemm(true, false, out, in, rows, gy.data(), out, x.ptr(), in, g[1].data(), in, false);
        }
        if (has_bias) {
            g[2] = Array(Shape{out});
            float* gb = g[2].data();
            for (size_t r = 0; r < rows; ++r)
                simd().add(gb, 1, gy.data() + r * out, 1, gb, out);
        }
        return g;
    });
}

}  // namespace pg
