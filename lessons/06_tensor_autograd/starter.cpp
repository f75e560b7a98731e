// Lesson 06 exercise: the backward of two ops built with pg::make_result. `./poet start 6` copies
// this file to exercise.cpp; fill in both backward lambdas there, then `./poet check 6`.
// 第 06 课练习：用 pg::make_result 搭起来的两个算子的 backward。`./poet start 6` 会把这个文件
// 复制成 exercise.cpp；在那里填好两个 backward lambda，然后运行 `./poet check 6`。
#include "check.hpp"

pg::Tensor exercise::cube(const pg::Tensor& x) {
    pg::Array y = x.data();  // a copy of x's values / 复制一份 x 的值
    float* py = y.data();
    for (size_t i = 0; i < y.size(); ++i) py[i] = py[i] * py[i] * py[i];
    pg::BackwardFn backward = [](const pg::BackwardContext& ctx) -> std::vector<pg::Array> {
        // y = x^3  =>  dx = gy * 3x^2, with gy = ctx.gy and x = ctx.inputs[0] (its .ptr() reads it).
        // Return {dx}: one Array with x's shape.
        // y = x^3  =>  dx = gy * 3x^2，其中 gy = ctx.gy，x = ctx.inputs[0]（用它的 .ptr() 读值）。
        // 返回 {dx}：一个形状与 x 相同的 Array。
        throw lesson::NotImplemented("the backward of exercise::cube");
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
    pg::BackwardFn backward = [N, C](const pg::BackwardContext& ctx) -> std::vector<pg::Array> {
        // y[r][c] = x[r][c] + b[c]  =>  dx = gy (N, C), db[c] = sum over r of gy[r][c] (C).
        // gy is ctx.gy. Return {dx, db}; pg::Array db(pg::Shape{C}) makes a (C) Array of zeros.
        // y[r][c] = x[r][c] + b[c]  =>  dx = gy (N, C)，db[c] = 对所有 r 把 gy[r][c] 加起来 (C)。
        // gy 就是 ctx.gy。返回 {dx, db}；pg::Array db(pg::Shape{C}) 会造出一个全是零的 (C) Array。
        throw lesson::NotImplemented("the backward of exercise::add_bias");
    };
    return pg::make_result(std::move(y), "add_bias", {x, b}, backward);
}
