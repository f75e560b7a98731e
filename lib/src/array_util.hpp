// Two one-liners every op uses on xtensor arrays: an array's shape as a pg::Shape, and an array of
// a shape with its values left unset (the op fills every one). Leaves out: anything that computes.
#pragma once
#include "pg/tensor.hpp"

namespace pg::detail {

inline Shape shape_of(const Array& a) { return Shape(a.shape().begin(), a.shape().end()); }

// Checked first (numel_of): a shape too large to hold throws ShapeError naming `op`, never allocates.
inline Array empty_array(const Shape& s, const std::string& op = "shape") {
    numel_of(s, op);
    return Array::from_shape(s);
}

}  // namespace pg::detail
