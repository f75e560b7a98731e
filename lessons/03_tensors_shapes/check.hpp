// Lesson 03's checks for matmul_shape, shared by starter.cpp, solution.cpp and your exercise.cpp.
// Every expected answer is what pg::matmul itself does with tensors of those shapes.
#pragma once
#include "lesson.hpp"

namespace exercise {
// The shape of matmul(a, b) for tensors of shapes a and b, without computing it:
// (..., N, K) @ (..., K, M) -> (..., N, M), the leading (batch) axes broadcast.
// Throws pg::ShapeError when the library's matmul would.
pg::Shape matmul_shape(const pg::Shape& a, const pg::Shape& b);
}  // namespace exercise

// Compares matmul_shape(a, b) with what pg::matmul does on zero tensors of those shapes.
static void check_shape(const pg::Shape& a, const pg::Shape& b, const std::string& hint) {
    bool library_throws = false;
    pg::Shape expected;
    try {
        expected = pg::matmul(pg::zeros(a), pg::zeros(b)).shape();
    } catch (const pg::ShapeError&) {
        library_throws = true;
    }
    std::string call = "matmul_shape(" + lesson::str(a) + ", " + lesson::str(b) + ")";
    if (!library_throws) {
        lesson::expect_shape(call, exercise::matmul_shape(a, b), expected, hint);
        return;
    }
    pg::Shape got;
    try {
        got = exercise::matmul_shape(a, b);
    } catch (const pg::ShapeError&) {
        return;
    }
    throw lesson::CheckFailed(call, "a pg::ShapeError thrown", "it returned " + lesson::str(got), hint);
}

int main() {
    lesson::Checks checks("03", "tensors_shapes");
    checks.run("two matrices: (2,3) @ (3,4)", [] {
        check_shape({2, 3}, {3, 4}, "the rows of a and the columns of b: (N,K) @ (K,M) -> (N,M)");
    });
    checks.run("inner dimensions differ: (3,2) @ (3,2)", [] {
        check_shape({3, 2}, {3, 2}, "a's last dim (K) must equal b's second-to-last; otherwise throw pg::ShapeError");
    });
    checks.run("a batch against one matrix: (5,2,3) @ (3,4)", [] {
        check_shape({5, 2, 3}, {3, 4}, "the batch axes are all but the last two; a missing axis counts as 1");
    });
    checks.run("attention scores: (B,NH,T,HS) @ (B,NH,HS,T) = (2,4,8,16) @ (2,4,16,8)", [] {
        check_shape({2, 4, 8, 16}, {2, 4, 16, 8}, "batch axes (2,4) and (2,4) agree; the matrices give (8,8)");
    });
    checks.run("broadcast batch axes: (2,1,4,3) @ (3,3,2)", [] {
        check_shape({2, 1, 4, 3}, {3, 3, 2},
                    "align the batch axes (2,1) and (3) at the right: a 1 stretches to the other size -> (2,3)");
    });
    checks.run("batch axes that do not broadcast: (2,2,3) @ (3,3,4)", [] {
        check_shape({2, 2, 3}, {3, 3, 4}, "batch sizes 2 and 3: neither is 1, so throw pg::ShapeError");
    });
    checks.run("a vector is not a matrix: (3) @ (3,4)", [] {
        check_shape({3}, {3, 4}, "both operands need at least 2 axes; otherwise throw pg::ShapeError");
    });
    return checks.finish();
}
