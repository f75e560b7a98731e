// A runner fixture: throwing from the learner's own line (it takes every input for a matrix, so
// the (3) vector's shape().at(1) is past the end).
#include "check.hpp"

pg::Tensor exercise::doubled(const pg::Tensor& w) {
    size_t columns = w.shape().at(1);  // the throwing line for a rank-1 input
    return w * static_cast<float>(2 * columns / columns);
}
