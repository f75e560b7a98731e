// Shapes, the one error type, and dimension helpers shared by every op.
// Leaves out: strides and views (every tensor is contiguous row-major).
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace pg {

using Shape = std::vector<size_t>;

// Thrown when an op is called with arguments it cannot take: names the op and the shapes.
struct ShapeError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// "(3,2)" — the way every error message prints a shape.
std::string shape_str(const Shape& s);
size_t numel_of(const Shape& s);

// dim in [-rank, rank) -> [0, rank); throws ShapeError naming `op` otherwise.
size_t normalize_dim(long dim, size_t rank, const std::string& op);

// numpy broadcasting of two shapes; throws ShapeError naming `op` and both shapes.
Shape broadcast_shapes(const Shape& a, const Shape& b, const std::string& op);

}  // namespace pg
