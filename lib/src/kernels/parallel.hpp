// Runs tasks 0..n-1 on up to pg::num_threads() threads (the caller is one of them), on a pool of
// threads started once and reused. Leaves out: deciding whether work is big enough to split.
#pragma once
#include <cstddef>
#include <functional>

namespace pg::kernels {

// Calls task(i) once for every i in [0, n_tasks) and returns when all are done; the first exception
// a task throws is rethrown here. Runs serially when called from inside a task or while another
// caller is using the pool, so callers must not depend on which thread runs which task.
void parallel_for(size_t n_tasks, const std::function<void(size_t)>& task);

// Calls rows_task(r0, r1) on consecutive ranges covering rows [0, rows): one range when
// rows * row_cost (roughly the floats touched) is small, a few per thread when it is large. Each
// row is computed by one call, so results do not depend on the thread count.
void parallel_rows(size_t rows, size_t row_cost, const std::function<void(size_t, size_t)>& rows_task);

// Calls piece(i0, i1) on consecutive ranges covering [0, n), every one but the last a whole number
// of kPieceFloats long (so SIMD batches fall at the same places whoever runs them): an elementwise
// loop over a large array split over the threads, one range when n is small.
constexpr size_t kPieceFloats = 4096;
void parallel_pieces(size_t n, const std::function<void(size_t, size_t)>& piece);

}  // namespace pg::kernels
