// Matrix multiply kernels: C (M,N) = op(A) @ op(B), or += with accumulate.
// op(A) is A (M,K) row-major with row stride lda, or, when trans_a, A stored as (K,M).
// op(B) is B (K,N) with row stride ldb, or, when trans_b, B stored as (N,K).
// gemm_reference is the plain loop that defines the answer; gemm is the fast one (the kernel table's,
// for this CPU's instruction set: gemm_kernel.hpp), and gemm_batched runs many same-shaped gemms.
// Results never depend on the thread count.
#pragma once
#include <cstddef>

namespace pg::kernels {

// Threads share a product only in tasks of at least this many multiply-adds (~10 us of work), so
// that waking a thread costs less than it saves. Up to kTasksPerThread tasks per thread let a
// thread that starts late take fewer of them.
constexpr size_t kMinWorkPerTask = size_t(1) << 21;
constexpr size_t kTasksPerThread = 2;

void gemm_reference(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                    const float* B, size_t ldb, float* C, size_t ldc, bool accumulate);

void gemm(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda, const float* B,
          size_t ldb, float* C, size_t ldc, bool accumulate);

// For b in [0, batch): gemm on A + b*a_stride, B + b*b_stride, C + b*c_stride. A stride of 0 reuses
// one matrix (a broadcast operand); c_stride 0 sums every product into one C, in order of b.
// Small products are spread over threads whole, large ones are each split as gemm splits them.
void gemm_batched(size_t batch, bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                  size_t a_stride, const float* B, size_t ldb, size_t b_stride, float* C, size_t ldc, size_t c_stride,
                  bool accumulate);

}  // namespace pg::kernels
