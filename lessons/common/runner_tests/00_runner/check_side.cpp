// A runner fixture: the right values, but from plain numbers: no graph back to w, so the check
// throws when it reads w's gradient.
#include "check.hpp"

pg::Tensor exercise::doubled(const pg::Tensor& w) {
    std::vector<float> v = w.to_vector();
    for (float& x : v) x *= 2;
    return pg::tensor(v, w.shape());
}
