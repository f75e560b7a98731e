// Numerical gradient checking: compares backward() with central differences.
// Leaves out: second derivatives.
#pragma once
#include <functional>
#include <string>
#include <vector>
#include "pg/tensor.hpp"

namespace pg {

struct GradcheckMismatch {
    size_t input = 0, element = 0;   // which input, which of its elements (flat index)
    float analytic = 0;              // the gradient backward gave
    double numeric = 0;              // the central difference
};

struct GradcheckResult {
    bool ok = true;
    double max_abs_error = 0;                   // worst |analytic - numeric| over every checked element
    std::vector<GradcheckMismatch> mismatches;  // the first five that failed
    std::string report;                         // those, one line each: input, element, analytic, numeric
};

struct GradcheckOptions {
    double eps = 1e-2;    // step of the central difference
    double atol = 2e-3;   // pass when |a - n| <= atol + rtol * |n|
    double rtol = 2e-2;
    uint64_t seed = 1;    // the random weights r in L = sum(f(x) * r)
};

// For L = sum(f(inputs) * r) with fixed random r, checks dL/d(input) element by element for every
// input that requires grad. L is accumulated in double so rounding does not swamp the difference.
GradcheckResult gradcheck(const std::function<Tensor(const std::vector<Tensor>&)>& f,
                          const std::vector<Tensor>& inputs, const GradcheckOptions& opt = {});

}  // namespace pg
