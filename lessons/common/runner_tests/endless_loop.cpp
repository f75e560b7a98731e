// The runner's test (test_runner.sh): lesson 03's exercise, a loop whose condition never turns false.
#include "../../03_tensors_shapes/check.hpp"

pg::Shape exercise::matmul_shape(const pg::Shape& a, const pg::Shape& b) {
    pg::Shape out;
    for (size_t i = 0; i < a.size(); i += 0) out.push_back(a[i] + b.size());
    return out;
}
