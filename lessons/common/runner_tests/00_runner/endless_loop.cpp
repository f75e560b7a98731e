// A runner fixture: a loop whose condition never turns false (it writes memory, so no compiler may
// delete it).
#include "check.hpp"

pg::Tensor exercise::doubled(const pg::Tensor& w) {
    std::vector<float> out(w.numel());
    for (size_t i = 0; i < out.size(); i += 0) out[i] += 2.f * w.ptr()[i];
    return pg::tensor(out, w.shape());
}
