// Shape helpers: printing, dimension normalisation, and numpy's broadcasting rule.
#include "pg/shape.hpp"
#include <algorithm>

namespace pg {

std::string shape_str(const Shape& s) {
    std::string out = "(";
    for (size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
    return out + ")";
}

size_t numel_of(const Shape& s, const std::string& op) {
    size_t n = 1;
    bool overflow = false;
    for (size_t d : s) overflow |= __builtin_mul_overflow(n, d, &n);
    if (std::find(s.begin(), s.end(), size_t(0)) != s.end()) return 0;   // a 0 dim: nothing, whatever the rest
    if (overflow || n > kMaxElements)
        throw ShapeError(op + ": shape " + shape_str(s) + " has " +
                         (overflow ? std::string("more elements than a size_t counts") : std::to_string(n) + " elements") +
                         "; one tensor holds at most " + std::to_string(kMaxElements) + " (" +
                         std::to_string(kMaxElements * sizeof(float) >> 30) + " GiB of float32)");
    return n;
}

size_t normalize_dim(long dim, size_t rank, const std::string& op) {
    long r = static_cast<long>(rank);
    if (dim < -r || dim >= r || rank == 0)
        throw ShapeError(op + ": dim " + std::to_string(dim) + " is out of range for a tensor of rank " +
                         std::to_string(rank) + " (valid: " + std::to_string(-r) + " to " + std::to_string(r - 1) + ")");
    return static_cast<size_t>(dim < 0 ? dim + r : dim);
}

// Align the shapes at their last dims; each pair of sizes must match or one must be 1.
Shape broadcast_shapes(const Shape& a, const Shape& b, const std::string& op) {
    size_t rank = std::max(a.size(), b.size());
    Shape out(rank);
    for (size_t i = 0; i < rank; ++i) {
        size_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        size_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1)
            throw ShapeError(op + ": " + shape_str(a) + " and " + shape_str(b) + " do not broadcast: size " +
                             std::to_string(da) + " against " + std::to_string(db) + " at dim " + std::to_string(i));
        out[i] = da == 1 ? db : da;
    }
    return out;
}

}  // namespace pg
