// Shapes, the two error types (ShapeError, IdError), and dimension helpers shared by every op.
// Leaves out: strides and views (every tensor is contiguous row-major).
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pg {

using Shape = std::vector<size_t>;

// Thrown when an op is called with arguments it cannot take: names the op and the shapes.
struct ShapeError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// Thrown for an id or class target that is not a whole number in [0, limit): the message names the
// op, the value and its flat position, which the fields repeat for a caller that words it its own way.
struct IdError : std::out_of_range {
    IdError(const std::string& message, std::string value_, size_t position_, size_t limit_)
        : std::out_of_range(message), value(std::move(value_)), position(position_), limit(limit_) {}
    std::string value;   // as written: "7", "1.5", "-1", "nan"
    size_t position, limit;
};

// "(3,2)" — the way every error message prints a shape.
std::string shape_str(const Shape& s);
// The element count of s. Throws ShapeError naming `op` and the shape when the product overflows
// or passes kMaxElements: every shape that enters the library is checked so before anything is
// allocated for it.
constexpr size_t kMaxElements = size_t(1) << 32;   // 16 GiB of float32 in one tensor
size_t numel_of(const Shape& s, const std::string& op = "shape");

// dim in [-rank, rank) -> [0, rank); throws ShapeError naming `op` otherwise.
size_t normalize_dim(long dim, size_t rank, const std::string& op);

// numpy broadcasting of two shapes; throws ShapeError naming `op` and both shapes.
Shape broadcast_shapes(const Shape& a, const Shape& b, const std::string& op);

}  // namespace pg
