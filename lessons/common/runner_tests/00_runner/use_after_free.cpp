// A runner fixture: reading a vector's memory after the vector is gone (a heap use after free).
#include "check.hpp"

pg::Tensor exercise::doubled(const pg::Tensor& w) {
    const float* values = nullptr;
    {
        std::vector<float> copy = w.to_vector();
        values = copy.data();
    }                                                      // copy is freed here
    return w + w + (values[0] - values[0]);                // the line that reads freed memory
}
