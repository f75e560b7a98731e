// Lesson 03 exercise: the shape of a batched matmul. `./poet start 3` copies this file to
// exercise.cpp; write matmul_shape there, then `./poet check 3`.
#include "check.hpp"

pg::Shape exercise::matmul_shape(const pg::Shape& a, const pg::Shape& b) {
    // 1. both need at least 2 axes, and a's last axis must equal b's second-to-last:
    //    otherwise throw pg::ShapeError("matmul_shape: ...")
    // 2. the batch axes (all but the last two) broadcast: align them at the right,
    //    a missing axis counts as 1, sizes must be equal or one of them 1
    // 3. the result: the broadcast batch axes, then N (a's second-to-last) and M (b's last)
    throw lesson::NotImplemented("exercise::matmul_shape");
}
