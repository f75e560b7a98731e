// Ops that move values without changing them: reshape, transpose/permute, slice,
// index_select, concat, chunk. Each backward moves the gradient back the same way.
// Leaves out: views; every result is a fresh contiguous copy.
#include <algorithm>
#include <numeric>
#include "op_util.hpp"
#include "pg/ops.hpp"

namespace pg {

using namespace detail;

Tensor reshape(const Tensor& x, const Shape& shape) {
    if (numel_of(shape, "reshape") != x.numel())
        throw ShapeError("reshape: cannot view " + shape_str(x.shape()) + " (" + std::to_string(x.numel()) +
                         " elements) as " + shape_str(shape) + " (" + std::to_string(numel_of(shape)) + " elements)");
    Array y(shape, Array::uninitialized);
    std::copy(x.ptr(), x.ptr() + x.numel(), y.data());
    return record(Op::reshape, std::move(y), {x}, [](const BackwardContext& ctx) {
        // y = x with a new shape  =>  dx = gy with the old one
        Array g(ctx.inputs[0].shape(), Array::uninitialized);
        std::copy(ctx.gy.begin(), ctx.gy.end(), g.data());
        return grads(std::move(g));
    });
}

Tensor reshape_infer(const Tensor& x, const std::vector<long>& shape) {
    Shape s;
    long infer = -1;
    size_t known = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1) {
            if (infer >= 0) throw ShapeError("reshape: more than one -1 in the requested shape");
            infer = static_cast<long>(i);
            s.push_back(1);
        } else if (shape[i] < 0) {
            throw ShapeError("reshape: negative size " + std::to_string(shape[i]));
        } else {
            s.push_back(static_cast<size_t>(shape[i]));
            known *= s.back();
        }
    }
    if (infer >= 0) {
        if (known == 0 || x.numel() % known != 0)
            throw ShapeError("reshape: cannot infer -1 to view " + shape_str(x.shape()) + " with the other sizes");
        s[static_cast<size_t>(infer)] = x.numel() / known;
    }
    return reshape(x, s);
}

// y[idx permuted] = x[idx]: y's dim i is x's dim perm[i].
static Array permute_array(const Array& x, const Shape& xs, const std::vector<size_t>& perm) {
    size_t r = xs.size();
    if (r == 0) return x;  // a scalar has nothing to reorder
    Shape ys(r);
    for (size_t i = 0; i < r; ++i) ys[i] = xs[perm[i]];
    std::vector<size_t> xstride(r, 1);
    for (size_t i = r; i-- > 1;) xstride[i - 1] = xstride[i] * xs[i];
    std::vector<size_t> step(r);  // moving one along y's dim i moves this far in x
    for (size_t i = 0; i < r; ++i) step[i] = xstride[perm[i]];
    Array y(ys, Array::uninitialized);
    const float* px = x.data();
    float* py = y.data();
    size_t n = y.size();
    if (n == 0) return y;
    // y is written run by run along its last dim; a run is contiguous in x too when the last dim stays
    size_t run = ys[r - 1], run_step = step[r - 1];
    std::vector<size_t> idx(r, 0);
    size_t off = 0;
    for (size_t k = 0; k < n; k += run) {
        if (run_step == 1) {
            std::copy(px + off, px + off + run, py + k);
        } else {
            for (size_t j = 0; j < run; ++j) py[k + j] = px[off + j * run_step];
        }
        for (size_t d = r - 1; d-- > 0;) {  // advance the counter over all dims but the last
            off += step[d];
            if (++idx[d] < ys[d]) break;
            off -= step[d] * ys[d];
            idx[d] = 0;
        }
    }
    return y;
}

Tensor permute(const Tensor& x, const std::vector<long>& dims) {
    Shape xs = x.shape();
    if (dims.size() != xs.size())
        throw ShapeError("permute: " + std::to_string(dims.size()) + " dims given for a tensor of shape " + shape_str(xs));
    std::vector<size_t> perm(dims.size()), inverse(dims.size());
    std::vector<bool> used(dims.size(), false);
    for (size_t i = 0; i < dims.size(); ++i) {
        perm[i] = normalize_dim(dims[i], xs.size(), "permute");
        if (used[perm[i]]) throw ShapeError("permute: dim " + std::to_string(dims[i]) + " appears twice");
        used[perm[i]] = true;
        inverse[perm[i]] = i;
    }
    Shape ys(xs.size());
    for (size_t i = 0; i < xs.size(); ++i) ys[i] = xs[perm[i]];
    return record(Op::permute, permute_array(x.data(), xs, perm), {x}, [ys, inverse](const BackwardContext& ctx) {
        // y = x with dims reordered by perm  =>  dx = gy reordered by the inverse
        return grads(permute_array(ctx.gy, ys, inverse));
    });
}

Tensor transpose(const Tensor& x, long d0, long d1) {
    size_t a = normalize_dim(d0, x.dim(), "transpose"), b = normalize_dim(d1, x.dim(), "transpose");
    std::vector<long> dims(x.dim());
    std::iota(dims.begin(), dims.end(), 0L);
    std::swap(dims[a], dims[b]);
    return permute(x, dims);
}

// Copies rows [start, start+len) of dim d between x (n_x along d) and y (n_y along d).
static void copy_block(const float* src, size_t n_src, size_t src_start, float* dst, size_t n_dst, size_t dst_start,
                       size_t len, const AroundDim& v, bool add) {
    for (size_t o = 0; o < v.outer; ++o) {
        const float* s = src + (o * n_src + src_start) * v.inner;
        float* t = dst + (o * n_dst + dst_start) * v.inner;
        if (add) for (size_t k = 0; k < len * v.inner; ++k) t[k] += s[k];
        else std::copy(s, s + len * v.inner, t);
    }
}

Tensor slice(const Tensor& x, long dim, long start, long end) {
    Shape xs = x.shape();
    size_t d = normalize_dim(dim, xs.size(), "slice");
    long n = static_cast<long>(xs[d]);
    if (start < 0) start += n;
    if (end < 0) end += n;
    if (start < 0 || end > n || start > end)
        throw ShapeError("slice: [" + std::to_string(start) + ", " + std::to_string(end) + ") is not inside dim " +
                         std::to_string(dim) + " of " + shape_str(xs));
    size_t s0 = static_cast<size_t>(start), len = static_cast<size_t>(end - start);
    Shape ys = xs;
    ys[d] = len;
    AroundDim v(xs, d);
    Array y(ys, Array::uninitialized);
    copy_block(x.ptr(), xs[d], s0, y.data(), len, 0, len, v, false);
    return record(Op::slice, std::move(y), {x}, [xs, d, s0, len, v](const BackwardContext& ctx) {
        // y = x[.., start:end, ..]  =>  dx = gy placed back at start:end, zeros elsewhere
        Array g(xs);
        copy_block(ctx.gy.data(), len, 0, g.data(), xs[d], s0, len, v, false);
        return grads(std::move(g));
    });
}

Tensor index_select(const Tensor& x, long dim, const Tensor& ids) {
    Shape xs = x.shape();
    size_t d = normalize_dim(dim, xs.size(), "index_select");
    if (ids.dim() != 1) throw ShapeError("index_select: ids must be 1-D, got " + shape_str(ids.shape()));
    std::vector<size_t> rows(ids.numel());
    for (size_t k = 0; k < rows.size(); ++k) rows[k] = read_id(ids.ptr()[k], xs[d], "index_select", "id", k);
    Shape ys = xs;
    ys[d] = rows.size();
    AroundDim v(xs, d);
    Array y(ys, Array::uninitialized);
    for (size_t k = 0; k < rows.size(); ++k)
        for (size_t o = 0; o < v.outer; ++o)
            std::copy(x.ptr() + (o * v.n + rows[k]) * v.inner, x.ptr() + (o * v.n + rows[k] + 1) * v.inner,
                      y.data() + (o * rows.size() + k) * v.inner);
    return record(Op::index_select, std::move(y), {x}, [xs, v, rows](const BackwardContext& ctx) {
        // y[.., k, ..] = x[.., rows[k], ..]  =>  dx[.., rows[k], ..] += gy[.., k, ..]
        const Array& gy = ctx.gy;
        Array g(xs);
        for (size_t k = 0; k < rows.size(); ++k)
            for (size_t o = 0; o < v.outer; ++o)
                for (size_t i = 0; i < v.inner; ++i)
                    g.data()[(o * v.n + rows[k]) * v.inner + i] += gy.data()[(o * rows.size() + k) * v.inner + i];
        return grads(std::move(g));
    });
}

Tensor concat(const std::vector<Tensor>& xs, long dim) {
    if (xs.empty()) throw ShapeError("concat: no tensors given");
    Shape first = xs[0].shape();
    size_t d = normalize_dim(dim, first.size(), "concat");
    Shape ys = first;
    ys[d] = 0;
    for (const Tensor& t : xs) {
        Shape s = t.shape();
        Shape a = s, b = first;
        if (s.size() == first.size()) a[d] = b[d] = 0;
        if (a != b)
            throw ShapeError("concat: " + shape_str(first) + " and " + shape_str(s) + " differ outside dim " +
                             std::to_string(dim));
        ys[d] += s[d];
    }
    Array y(ys, Array::uninitialized);
    std::vector<size_t> starts, lens;
    size_t at = 0;
    for (const Tensor& t : xs) {
        size_t len = t.shape()[d];
        copy_block(t.ptr(), len, 0, y.data(), ys[d], at, len, AroundDim(t.shape(), d), false);
        starts.push_back(at);
        lens.push_back(len);
        at += len;
    }
    return record(Op::concat, std::move(y), xs, [ys, d, starts, lens](const BackwardContext& ctx) {
        // y = [x0 | x1 | ...] along d  =>  each dx_i is its own block of gy
        std::vector<Array> g;
        for (size_t k = 0; k < ctx.inputs.size(); ++k) {
            const Shape& in = ctx.inputs[k].shape();
            Array gk(in, Array::uninitialized);
            copy_block(ctx.gy.data(), ys[d], starts[k], gk.data(), lens[k], 0, lens[k], AroundDim(in, d), false);
            g.push_back(std::move(gk));
        }
        return g;
    });
}

std::vector<Tensor> chunk(const Tensor& x, size_t n, long dim) {
    size_t d = normalize_dim(dim, x.dim(), "chunk");
    size_t len = x.shape()[d];
    if (n == 0 || len % n != 0)
        throw ShapeError("chunk: dim " + std::to_string(dim) + " of " + shape_str(x.shape()) + " (size " +
                         std::to_string(len) + ") does not split into " + std::to_string(n) + " equal parts");
    std::vector<Tensor> parts;
    for (size_t k = 0; k < n; ++k)
        parts.push_back(slice(x, dim, static_cast<long>(k * len / n), static_cast<long>((k + 1) * len / n)));
    return parts;
}

}  // namespace pg
