// Lesson 06's checks for the backward of cube and add_bias, shared by starter.cpp, solution.cpp and
// your exercise.cpp: hand-computed gradients first, then the library's ops and pg::gradcheck.
#pragma once
#include "lesson.hpp"

namespace exercise {
// y = x^3 elementwise, x of any shape; its backward: dx = gy * 3x^2
pg::Tensor cube(const pg::Tensor& x);
// y = x + b, x (N, C), b (C) added to every row; its backward: dx = gy, db = gy summed over the N rows
pg::Tensor add_bias(const pg::Tensor& x, const pg::Tensor& b);
}  // namespace exercise

// pg::gradcheck on f(inputs) with the library's defaults; fails the check with its report.
static void expect_gradcheck(const std::string& what,
                             const std::function<pg::Tensor(const std::vector<pg::Tensor>&)>& f,
                             const std::vector<pg::Tensor>& inputs, const std::string& hint) {
    pg::GradcheckResult r = pg::gradcheck(f, inputs);
    lesson::expect(what, r.ok, "analytic gradients equal to central differences",
                   "max error " + lesson::num(r.max_abs_error, 6) + "; " + r.report, hint);
}

int main() {
    lesson::Checks checks("06", "tensor_autograd");
    checks.run("cube's forward: [1, 2, -3] -> [1, 8, -27]", [] {
        pg::Tensor y = exercise::cube(pg::tensor({1.f, 2.f, -3.f}));
        lesson::expect_near("cube(x)", y, pg::tensor({1.f, 8.f, -27.f}), 1e-6, "keep the forward the starter gives");
    });
    checks.run("cube's backward under sum: 3x^2 = [3, 12, 27]", [] {
        pg::Tensor x = pg::tensor({1.f, 2.f, -3.f}).requires_grad_();
        pg::sum(exercise::cube(x)).backward();
        lesson::expect_near("x.grad", x.grad(), pg::tensor({3.f, 12.f, 27.f}), 1e-5,
                            "dx[i] = gy[i] * 3 * x[i]^2; return one Array with x's shape");
    });
    checks.run("cube's backward uses gy: sum(cube(x) * [1, -1, 2])", [] {
        pg::Tensor x = pg::tensor({1.f, 2.f, -3.f}).requires_grad_();
        pg::sum(exercise::cube(x) * pg::tensor({1.f, -1.f, 2.f})).backward();
        lesson::expect_near("x.grad", x.grad(), pg::tensor({3.f, -12.f, 54.f}), 1e-5,
                            "gy is the gradient arriving from above (here 1, -1, 2): multiply by it, do not assume 1");
    });
    checks.run("cube agrees with x * x * x on a random (3,4)", [] {
        pg::Generator gen(6);
        pg::Tensor x = pg::randn({3, 4}, gen, true), x2 = x.detach().requires_grad_();
        pg::Tensor weights = pg::randn({3, 4}, gen);
        pg::sum(exercise::cube(x) * weights).backward();
        pg::sum(x2 * x2 * x2 * weights).backward();
        lesson::expect_near("x.grad", x.grad(), x2.grad(), 1e-4, "dx = gy * 3 * x * x, element by element");
    });
    checks.run("cube passes pg::gradcheck", [] {
        pg::Generator gen(7);
        expect_gradcheck("gradcheck(cube)", [](const std::vector<pg::Tensor>& in) { return exercise::cube(in[0]); },
                         {pg::randn({2, 3}, gen, true)}, "dx = gy * 3x^2");
    });
    checks.run("add_bias's backward: (2,3) + (3) with gy = [[1,2,3],[4,5,6]]", [] {
        pg::Tensor x = pg::zeros({2, 3}, true), b = pg::tensor({10.f, 20.f, 30.f}).requires_grad_();
        pg::Tensor gy = pg::tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
        exercise::add_bias(x, b).backward(gy);
        lesson::expect_near("x.grad", x.grad(), gy, 1e-6, "y = x + b: dx is gy itself");
        lesson::expect_near("b.grad", b.grad(), pg::tensor({5.f, 7.f, 9.f}), 1e-6,
                            "b was added to every row, so db[c] adds up gy[r][c] over the rows r: "
                            "shape (C), not (N, C)");
    });
    checks.run("add_bias agrees with pg::add on a random (4,3) + (3)", [] {
        pg::Generator gen(8);
        pg::Tensor x = pg::randn({4, 3}, gen, true), b = pg::randn({3}, gen, true);
        pg::Tensor x2 = x.detach().requires_grad_(), b2 = b.detach().requires_grad_();
        pg::Tensor weights = pg::randn({4, 3}, gen);
        pg::Tensor y = exercise::add_bias(x, b);
        lesson::expect_near("add_bias(x, b)", y, x2 + b2, 1e-6, "keep the forward the starter gives");
        pg::sum(y * weights).backward();
        pg::sum((x2 + b2) * weights).backward();
        lesson::expect_near("x.grad", x.grad(), x2.grad(), 1e-5, "dx = gy");
        lesson::expect_near("b.grad", b.grad(), b2.grad(), 1e-5, "db[c] = sum over rows r of gy[r * C + c]");
    });
    checks.run("add_bias passes pg::gradcheck", [] {
        pg::Generator gen(9);
        expect_gradcheck("gradcheck(add_bias)",
                         [](const std::vector<pg::Tensor>& in) { return exercise::add_bias(in[0], in[1]); },
                         {pg::randn({3, 2}, gen, true), pg::randn({2}, gen, true)},
                         "dx = gy, db = gy summed over rows");
    });
    return checks.finish();
}
