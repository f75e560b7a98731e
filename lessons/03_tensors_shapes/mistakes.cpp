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
// Lesson 03's plausible wrong answers, each built as lesson_03_mistake_N (-DMISTAKE=N); every one must
// fail the checks with the hint above. The function is solution.cpp's, but for the lines marked.
#include <algorithm>
#include <stdexcept>
#include "check.hpp"

#if MISTAKE == 11
using Error = std::invalid_argument;
#else
using Error = pg::ShapeError;
#endif

pg::Shape exercise::matmul_shape(const pg::Shape& a, const pg::Shape& b) {
#if MISTAKE == 9
    return pg::matmul(pg::zeros(a), pg::zeros(b)).shape();
#endif
    std::string both = lesson::str(a) + " @ " + lesson::str(b);
#if MISTAKE == 8
    if (a.size() == 1 || b.size() == 1) {  // numpy: a vector a is (1,K), a vector b is (K,1), then dropped
        if (a.size() == 1 && b.size() >= 2 && b[b.size() - 2] == a[0]) {
            pg::Shape out(b.begin(), b.end() - 2);
            out.push_back(b.back());
            return out;
        }
        if (b.size() == 1 && a.size() >= 2 && a.back() == b[0]) return pg::Shape(a.begin(), a.end() - 1);
        throw Error("matmul_shape: " + both + ": inner dimensions differ");
    }
#endif
    if (a.size() < 2 || b.size() < 2) throw Error("matmul_shape: " + both + ": both need 2 axes or more");
    size_t N = a[a.size() - 2], K = a.back(), M = b.back();
#if MISTAKE == 6
    if (b.back() != K) throw Error("matmul_shape: " + both + ": inner dimensions differ");
#elif MISTAKE != 5
    if (b[b.size() - 2] != K) throw Error("matmul_shape: " + both + ": inner dimensions differ");
#endif
#if MISTAKE == 5 || MISTAKE == 7
    (void)K;
#endif
    size_t batch_a = a.size() - 2, batch_b = b.size() - 2, rank = std::max(batch_a, batch_b);
#if MISTAKE == 1 || MISTAKE == 10
    (void)rank;
#endif
#if MISTAKE == 1
    pg::Shape out(a.begin(), a.end() - 2);
#elif MISTAKE == 2
    pg::Shape out(rank);
    for (size_t i = 0; i < rank; ++i) {  // the i-th batch axis counted from the left
        size_t da = i < batch_a ? a[i] : 1;
        size_t db = i < batch_b ? b[i] : 1;
        if (da != db && da != 1 && db != 1) throw Error("matmul_shape: " + both + ": batch sizes do not broadcast");
        out[i] = da == 1 ? db : da;
    }
#elif MISTAKE == 10
    pg::Shape out = pg::broadcast_shapes(pg::Shape(a.begin(), a.end() - 2), pg::Shape(b.begin(), b.end() - 2),
                                         "matmul_shape: " + both);
#else
#if MISTAKE == 3
    if (batch_a != batch_b) throw Error("matmul_shape: " + both + ": different numbers of batch axes");
#endif
    pg::Shape out(rank);
    for (size_t i = 1; i <= rank; ++i) {  // the i-th batch axis counted from the right
        size_t da = i <= batch_a ? a[batch_a - i] : 1;
        size_t db = i <= batch_b ? b[batch_b - i] : 1;
#if MISTAKE == 4
        out[rank - i] = std::max(da, db);
#else
        if (da != db && da != 1 && db != 1)
            throw Error("matmul_shape: " + both + ": batch sizes " + std::to_string(da) + " and " +
                        std::to_string(db) + " do not broadcast");
        out[rank - i] = da == 1 ? db : da;
#endif
    }
#endif
    out.push_back(N);
#if MISTAKE == 7
    out.push_back(K);
#else
    out.push_back(M);
#endif
#if MISTAKE == 7
    (void)M;
#endif
    return out;
}
