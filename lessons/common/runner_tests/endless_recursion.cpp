// The runner's test (test_runner.sh): lesson 03's exercise, a function that calls itself without end.
#include "../../03_tensors_shapes/check.hpp"

size_t depth(const pg::Shape& a, size_t n);
size_t depth(const pg::Shape& a, size_t n) {
    volatile size_t keep[16] = {n};
    return depth(a, n + 1) + keep[n % 16];   // the recursing line
}

pg::Shape exercise::matmul_shape(const pg::Shape& a, const pg::Shape& b) { return {depth(a, b.size())}; }
