// The runner's test (test_runner.sh): lesson 03's exercise, reading through a null pointer.
#include "../../03_tensors_shapes/check.hpp"

pg::Shape exercise::matmul_shape(const pg::Shape& a, const pg::Shape& b) {
    const size_t* dims = a.size() > 8 ? a.data() : nullptr;   // null for every real shape
    return {dims[0], b.back()};                                // the crashing line
}
