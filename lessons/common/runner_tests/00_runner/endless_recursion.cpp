// A runner fixture: a function that calls itself without end.
#include "check.hpp"

size_t depth(size_t n);
size_t depth(size_t n) {
    volatile size_t keep[16] = {n};
    return depth(n + 1) + keep[n % 16];   // the recursing line
}

pg::Tensor exercise::doubled(const pg::Tensor& w) { return w * static_cast<float>(depth(0)); }
