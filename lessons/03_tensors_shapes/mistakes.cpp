// mistake 1: the batch axes taken from a alone => your batch axes are a's alone
// mistake 2: the batch axes lined up at the left => you lined the batch axes up at the left
// mistake 3: the same number of batch axes required => a missing axis counts as 1
// mistake 4: batch sizes that do not broadcast taken as the larger => do not take the larger
// mistake 5: K never compared => you never compared K
// mistake 6: a's last axis compared with b's last axis => you compared a's last axis with b's last axis
// mistake 7: the result's last axis taken from b's second-to-last (K) => your last axis is K
// mistake 8: a vector promoted as numpy does, (3) @ (3,4) -> (4) => does not promote a vector the way numpy does
// mistake 9: the shape read off pg::matmul on zero tensors => you called pg::matmul
// mistake 10: the batch axes broadcast with pg::broadcast_shapes => you called pg::broadcast_shapes
// mistake 11: std::invalid_argument thrown instead of pg::ShapeError => throw pg::ShapeError
// mistake 12: the first answer kept in a static and returned for every call => not a constant or a static kept from an earlier call
// mistake 13: the result given a's number of batch axes, b's extra leading ones dropped => your result has as many batch axes as a
// mistake 14: each batch size taken as the larger of the two, std::max(da, db) => you took the larger of two batch sizes
// Lesson 03's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// The function is solution.cpp's, but for the lines marked.
#include <algorithm>
#include <stdexcept>
#include "check.hpp"
using lesson::mistake;

// throws pg::ShapeError; mistake 11 throws std::invalid_argument instead
[[noreturn]] static void fail(const std::string& message) {
    if (mistake(11)) throw std::invalid_argument(message);
    throw pg::ShapeError(message);
}

pg::Shape exercise::matmul_shape(const pg::Shape& a, const pg::Shape& b) {
    if (mistake(9)) return pg::matmul(pg::zeros(a), pg::zeros(b)).shape();
    static pg::Shape first;  // mistake 12: the first answer, kept
    if (mistake(12) && !first.empty()) return first;
    std::string both = lesson::str(a) + " @ " + lesson::str(b);
    // mistake 8, numpy's rule: a vector a is (1,K), a vector b is (K,1), then dropped
    if (mistake(8) && (a.size() == 1 || b.size() == 1)) {
        if (a.size() == 1 && b.size() >= 2 && b[b.size() - 2] == a[0]) {
            pg::Shape out(b.begin(), b.end() - 2);
            out.push_back(b.back());
            return out;
        }
        if (b.size() == 1 && a.size() >= 2 && a.back() == b[0]) return pg::Shape(a.begin(), a.end() - 1);
        fail("matmul_shape: " + both + ": inner dimensions differ");
    }
    if (a.size() < 2 || b.size() < 2) fail("matmul_shape: " + both + ": both need 2 axes or more");
    size_t N = a[a.size() - 2], K = a.back(), M = b.back();
    size_t b_inner = mistake(6) ? b.back() : b[b.size() - 2];  // mistake 6: b's last axis
    if (!mistake(5) && b_inner != K) fail("matmul_shape: " + both + ": inner dimensions differ");
    size_t batch_a = a.size() - 2, batch_b = b.size() - 2;
    size_t rank = mistake(13) ? batch_a : std::max(batch_a, batch_b);  // mistake 13: a's number of batch axes
    pg::Shape out;
    if (mistake(1)) {
        out = pg::Shape(a.begin(), a.end() - 2);
    } else if (mistake(10)) {
        out = pg::broadcast_shapes(pg::Shape(a.begin(), a.end() - 2), pg::Shape(b.begin(), b.end() - 2),
                                   "matmul_shape: " + both);
    } else {
        if (mistake(3) && batch_a != batch_b) fail("matmul_shape: " + both + ": different numbers of batch axes");
        out.resize(rank);
        const bool from_left = mistake(2);  // mistake 2: the i-th batch axis counted from the left
        for (size_t i = 1; i <= rank; ++i) {  // the i-th batch axis counted from the right
            size_t da = i <= batch_a ? a[from_left ? i - 1 : batch_a - i] : 1;
            size_t db = i <= batch_b ? b[from_left ? i - 1 : batch_b - i] : 1;
            if (!mistake(4) && da != db && da != 1 && db != 1)
                fail("matmul_shape: " + both + ": batch sizes " + std::to_string(da) + " and " +
                     std::to_string(db) + " do not broadcast");
            out[from_left ? i - 1 : rank - i] = mistake(4) || mistake(14) ? std::max(da, db) : da == 1 ? db : da;
        }
    }
    out.push_back(N);
    out.push_back(mistake(7) ? K : M);
    if (mistake(12)) first = out;
    return out;
}
