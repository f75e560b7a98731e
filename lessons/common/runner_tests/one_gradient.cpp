// The runner's test (test_runner.sh): lesson 06 with add_bias's backward returning one gradient for
// its two inputs, which the library refuses inside the check's backward() call.
#include "../../06_tensor_autograd/check.hpp"

pg::Tensor exercise::cube(const pg::Tensor& x) {
    pg::Array y = x.data();  // a copy of x's values
    float* py = y.data();
    for (size_t i = 0; i < y.size(); ++i) py[i] = py[i] * py[i] * py[i];
    pg::BackwardFn backward = [x](const pg::Array& gy, const pg::Array&) -> std::vector<pg::Array> {
        // y = x^3  =>  dx = gy * 3x^2
        pg::Array dx = gy;
        const float* px = x.ptr();
        for (size_t i = 0; i < dx.size(); ++i) dx.data()[i] *= 3.f * px[i] * px[i];
        return {dx};
    };
    return pg::make_result(std::move(y), "cube", {x}, backward);
}

pg::Tensor exercise::add_bias(const pg::Tensor& x, const pg::Tensor& b) {
    if (x.dim() != 2 || b.shape() != pg::Shape{x.size(1)})
        throw pg::ShapeError("add_bias: x " + lesson::str(x.shape()) + " and b " + lesson::str(b.shape()) +
                             ": expected x (N, C) and b (C)");
    size_t N = x.size(0), C = x.size(1);
    pg::Array y = x.data();
    for (size_t r = 0; r < N; ++r)
        for (size_t c = 0; c < C; ++c) y.data()[r * C + c] += b.ptr()[c];
    pg::BackwardFn backward = [N, C](const pg::Array& gy, const pg::Array&) -> std::vector<pg::Array> {
        // y[r][c] = x[r][c] + b[c]  =>  dx = gy (N, C), db[c] = sum over r of gy[r][c] (C)
        pg::Array db = xt::zeros<float>(pg::Shape{C});
        for (size_t r = 0; r < N; ++r)
            for (size_t c = 0; c < C; ++c) db.data()[c] += gy.data()[r * C + c];
        return {gy};  // the planted mistake: one gradient for two inputs
    };
    return pg::make_result(std::move(y), "add_bias", {x, b}, backward);
}
