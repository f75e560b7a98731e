// Lesson 03 reference solution: the shape rule of a batched, broadcasting matmul.
#include <algorithm>
#include "check.hpp"

pg::Shape exercise::matmul_shape(const pg::Shape& a, const pg::Shape& b) {
    std::string both = lesson::str(a) + " @ " + lesson::str(b);
    if (a.size() < 2 || b.size() < 2) throw pg::ShapeError("matmul_shape: " + both + ": both need 2 axes or more");
    size_t N = a[a.size() - 2], K = a.back(), M = b.back();
    if (b[b.size() - 2] != K) throw pg::ShapeError("matmul_shape: " + both + ": inner dimensions differ");
    size_t batch_a = a.size() - 2, batch_b = b.size() - 2, rank = std::max(batch_a, batch_b);
    pg::Shape out(rank);
    for (size_t i = 1; i <= rank; ++i) {  // the i-th batch axis counted from the right
        size_t da = i <= batch_a ? a[batch_a - i] : 1;
        size_t db = i <= batch_b ? b[batch_b - i] : 1;
        if (da != db && da != 1 && db != 1)
            throw pg::ShapeError("matmul_shape: " + both + ": batch sizes " + std::to_string(da) + " and " +
                                 std::to_string(db) + " do not broadcast");
        out[rank - i] = da == 1 ? db : da;
    }
    out.push_back(N);
    out.push_back(M);
    return out;
}
