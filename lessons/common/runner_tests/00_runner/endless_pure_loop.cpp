// A runner fixture: an endless loop with no side effects. C++ lets an optimiser assume such a loop
// ends and delete it (clang does at -O1); ./poet check builds the exercise with -fno-finite-loops,
// so it stays the hang it is and is reported as one.
#include "check.hpp"

pg::Tensor exercise::doubled(const pg::Tensor& w) {
    size_t step = 0;
    for (size_t i = 0; i < w.numel(); i += step) {}   // step is 0: i never moves
    return w + w;
}
