// A runner fixture: reading through a null pointer.
#include "check.hpp"

pg::Tensor exercise::doubled(const pg::Tensor& w) {
    const float* values = w.numel() > 8 ? w.ptr() : nullptr;  // null for the check's (3)
    return pg::full({3}, 2.f * values[0]);                     // the crashing line
}
