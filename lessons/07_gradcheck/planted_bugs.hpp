// Lesson 07's two planted bugs: ops whose forward is right and whose backward is wrong, for the
// experiment to show and the checks to catch. Leaves out: the gradient check itself.
#pragma once
#include "lesson.hpp"

// Planted bug 1: sigmoid whose backward forgets the factor (1 - y).
inline pg::Tensor sigmoid_missing_factor(const pg::Tensor& x) {
    pg::Tensor y = pg::sigmoid(x.detach());
    return pg::make_result(y.data(), "sigmoid_missing_factor", {x}, [](const pg::BackwardContext& ctx) {
        // y = 1 / (1 + e^-x)  =>  dx = gy * y * (1 - y); the bug: dx = gy * y
        pg::Array dx = ctx.gy;
        for (size_t i = 0; i < dx.size(); ++i) dx.data()[i] *= ctx.y.data()[i];
        return std::vector<pg::Array>{dx};
    });
}

// Planted bug 2: y = 3x whose backward returns 3 everywhere, as if gy were always 1.
inline pg::Tensor triple_ignoring_gy(const pg::Tensor& x) {
    pg::Tensor y = x.detach() * 3.f;
    return pg::make_result(y.data(), "triple_ignoring_gy", {x}, [](const pg::BackwardContext& ctx) {
        // y = 3x  =>  dx = 3 gy; the bug: dx = 3
        pg::Array dx = ctx.gy;
        for (float& v : dx) v = 3.f;
        return std::vector<pg::Array>{dx};
    });
}
