// mistake 1: cube's backward leaves out gy => you left out gy
// mistake 2: cube's derivative written 3x => your gradient is 3x
// mistake 3: cube's backward reads the output y as if it were x => you read the output y = x^3 as if it were x
// mistake 4: cube's derivative as 3y/x, exact on paper => at x = 0 it is 0/0 = nan
// mistake 5: cube written as x * x * x with the library's ops => you called pg::mul
// mistake 6: cube's derivative without the 3 => keep the 3
// mistake 7: db = gy, not summed over the rows => db has gy's shape (N, C)
// mistake 8: db[c] = instead of += => each row overwrote the one before
// mistake 9: db the mean of the rows => do not divide by N
// mistake 10: gy read by columns, gy[c * N + r] => you read gy as if it were stored by columns
// mistake 11: the sum kept in an int, auto s = 0 => your sum is an int
// mistake 12: add_bias written as x + b with the library's ops => you called pg::add
// mistake 13: the sum over rows starts at r = 1 => your sum missed row 0
// mistake 14: the gradients returned in the wrong order, {db, dx} => return {dx, db}, dx first
// mistake 15: dx taken as ones, not gy => dx is all ones
// mistake 16: db summed along each row, shape (N) => you summed each row (over c)
// mistake 17: db made and returned without gy added into it => db is all zeros
// mistake 18: cube's backward multiplies every element by gy's first value, gy[0] => every element took gy's first value
// mistake 19: cube's first dx kept in a static and returned ever after => your gradient is exactly the one your function returned for an earlier, different input
// Lesson 06's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// The functions are solution.cpp's, but for the lines marked.
#include "check.hpp"
using lesson::mistake;

pg::Tensor exercise::cube(const pg::Tensor& x) {
    if (mistake(5)) return x * x * x;
    pg::Array y = x.data();  // a copy of x's values
    float* py = y.data();
    for (size_t i = 0; i < y.size(); ++i) py[i] = py[i] * py[i] * py[i];
    pg::BackwardFn backward = [](const pg::BackwardContext& ctx) -> std::vector<pg::Array> {
        // y = x^3  =>  dx = gy * 3x^2
        static pg::Array kept;  // mistake 19: the first call's dx
        if (mistake(19) && kept.size()) return {kept};
        pg::Array dx = ctx.gy;
        const float* px = ctx.inputs[0].ptr();   // x
        const float* po = ctx.y.data();
        for (size_t i = 0; i < dx.size(); ++i) {
            if (mistake(1)) dx.data()[i] = 3.f * px[i] * px[i];
            else if (mistake(18)) dx.data()[i] = ctx.gy.data()[0] * 3.f * px[i] * px[i];
            else if (mistake(2)) dx.data()[i] *= 3.f * px[i];
            else if (mistake(3)) dx.data()[i] *= 3.f * po[i] * po[i];
            else if (mistake(4)) dx.data()[i] *= 3.f * po[i] / px[i];
            else if (mistake(6)) dx.data()[i] *= px[i] * px[i];
            else dx.data()[i] *= 3.f * px[i] * px[i];
        }
        if (mistake(19)) kept = dx;
        return {dx};
    };
    return pg::make_result(std::move(y), "cube", {x}, backward);
}

pg::Tensor exercise::add_bias(const pg::Tensor& x, const pg::Tensor& b) {
    if (mistake(12)) return x + b;
    if (x.dim() != 2 || b.shape() != pg::Shape{x.size(1)})
        throw pg::ShapeError("add_bias: x " + lesson::str(x.shape()) + " and b " + lesson::str(b.shape()) +
                             ": expected x (N, C) and b (C)");
    size_t N = x.size(0), C = x.size(1);
    pg::Array y = x.data();
    for (size_t r = 0; r < N; ++r)
        for (size_t c = 0; c < C; ++c) y.data()[r * C + c] += b.ptr()[c];
    pg::BackwardFn backward = [N, C](const pg::BackwardContext& ctx) -> std::vector<pg::Array> {
        // y[r][c] = x[r][c] + b[c]  =>  dx = gy (N, C), db[c] = sum over r of gy[r][c] (C)
        const pg::Array& gy = ctx.gy;
        if (mistake(7)) return {gy, gy};
        if (mistake(16)) {  // summed along each row: db (N)
            pg::Array db(pg::Shape{N});
            for (size_t r = 0; r < N; ++r)
                for (size_t c = 0; c < C; ++c) db.data()[r] += gy.data()[r * C + c];
            return {gy, db};
        }
        pg::Array db(pg::Shape{C});
        const size_t first = mistake(13) ? 1 : 0;
        for (size_t c = 0; c < C; ++c) {
            float s = 0.f;
            for (size_t r = first; r < N; ++r) {
                float g = mistake(10) ? gy.data()[c * N + r] : gy.data()[r * C + c];
                if (mistake(8)) s = g;
                else s += g;
                if (mistake(11)) s = static_cast<int>(s);  // mistake 11's auto s = 0: an int, s += g truncates
            }
            db.data()[c] = mistake(9) ? s / N : s;
        }
        if (mistake(17)) return {gy, pg::Array(pg::Shape{C})};
        if (mistake(14)) return {db, gy};
        if (mistake(15)) return {pg::Array(pg::Shape{N, C}, 1.f), db};
        return {gy, db};
    };
    return pg::make_result(std::move(y), "add_bias", {x, b}, backward);
}
