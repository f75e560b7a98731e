// Lesson 02's checks for stable_softmax, shared by starter.cpp, solution.cpp and your exercise.cpp.
// Seed 001's scores, rows of any tensor, and inputs where a naive softmax gives nan.
#pragma once
#include "lesson.hpp"

namespace exercise {
// softmax along the last dim, computed stably with loops over x.ptr().
// x (..., C) -> (..., C), every row of C numbers positive and summing to 1
pg::Tensor stable_softmax(const pg::Tensor& x);
}  // namespace exercise

int main() {
    lesson::Checks checks("02", "dot_softmax");
    checks.run("seed 001: fruit's scores [2.08, 1.92, -0.62]", [] {
        pg::Tensor w = exercise::stable_softmax(pg::tensor({2.08f, 1.92f, -0.62f}));
        lesson::expect_near("weights", w, pg::tensor({0.5210f, 0.4440f, 0.0350f}), 1e-4,
                            "exp each score, then divide by the sum of the three exps (the article's "
                            "0.520 / 0.439 / 0.041 are not the softmax of these scores)");
    });
    checks.run("[1000, 999, 998] stays finite", [] {
        pg::Tensor w = exercise::stable_softmax(pg::tensor({1000.f, 999.f, 998.f}));
        lesson::expect_near("weights", w, pg::tensor({0.6652f, 0.2447f, 0.0900f}), 1e-4,
                            "exp(1000) overflows float to inf, and inf/inf is nan; subtract the row's "
                            "maximum first: softmax(x) = softmax(x - max x)");
    });
    checks.run("[-1000, -1000] gives [0.5, 0.5]", [] {
        pg::Tensor w = exercise::stable_softmax(pg::tensor({-1000.f, -1000.f}));
        lesson::expect_near("weights", w, pg::tensor({0.5f, 0.5f}), 1e-6,
                            "exp(-1000) underflows to 0, and 0/0 is nan; after subtracting the maximum "
                            "the largest exp is exactly 1");
    });
    checks.run("a (4,5) input: each row on its own, against pg::softmax", [] {
        pg::Generator gen(2);
        pg::Tensor x = pg::randn({4, 5}, gen) * 3.f;
        lesson::expect_near("weights", exercise::stable_softmax(x), pg::softmax(x, -1), 1e-5,
                            "softmax runs along the last dim: row r is x.ptr()[r*C .. r*C + C-1], with its "
                            "own maximum and its own sum; return pg::tensor(values, x.shape())");
    });
    checks.run("a (2,3,4) input: rows are the last dim whatever the rank", [] {
        pg::Generator gen(3);
        pg::Tensor x = pg::randn({2, 3, 4}, gen);
        lesson::expect_near("weights", exercise::stable_softmax(x), pg::softmax(x, -1), 1e-5,
                            "C = x.size(-1) and the number of rows is x.numel() / C");
    });
    return checks.finish();
}
