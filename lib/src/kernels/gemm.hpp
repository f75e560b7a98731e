// Matrix multiply kernels: C (M,N) = op(A) @ op(B), or += with accumulate.
// op(A) is A (M,K) row-major with row stride lda, or, when trans_a, A stored as (K,M).
// op(B) is B (K,N) with row stride ldb, or, when trans_b, B stored as (N,K).
// gemm_reference is the plain loop that defines the answer; gemm is the fast one.
#pragma once
#include <cstddef>

namespace pg::kernels {

void gemm_reference(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                    const float* B, size_t ldb, float* C, size_t ldc, bool accumulate);

void gemm(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda, const float* B,
          size_t ldb, float* C, size_t ldc, bool accumulate);

}  // namespace pg::kernels
