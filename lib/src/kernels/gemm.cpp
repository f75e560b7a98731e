// The GEMM the library calls. For now: loop orders that let the compiler vectorise the
// innermost loop over contiguous memory. Leaves out: packing and register blocking (to come).
#include "gemm.hpp"
#include <vector>

namespace pg::kernels {

void gemm(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda, const float* B,
          size_t ldb, float* C, size_t ldc, bool accumulate) {
    if (!accumulate)
        for (size_t i = 0; i < M; ++i)
            for (size_t j = 0; j < N; ++j) C[i * ldc + j] = 0.f;
    if (trans_b) {  // C[i,j] += dot(row i of op(A), row j of B)
        std::vector<float> arow(K);
        for (size_t i = 0; i < M; ++i) {
            for (size_t k = 0; k < K; ++k) arow[k] = trans_a ? A[k * lda + i] : A[i * lda + k];
            for (size_t j = 0; j < N; ++j) {
                const float* b = B + j * ldb;
                float acc = 0.f;
                for (size_t k = 0; k < K; ++k) acc += arow[k] * b[k];
                C[i * ldc + j] += acc;
            }
        }
        return;
    }
    for (size_t i = 0; i < M; ++i) {  // C[i,:] += A[i,k] * B[k,:]
        float* c = C + i * ldc;
        for (size_t k = 0; k < K; ++k) {
            float a = trans_a ? A[k * lda + i] : A[i * lda + k];
            const float* b = B + k * ldb;
            for (size_t j = 0; j < N; ++j) c[j] += a * b[j];
        }
    }
}

}  // namespace pg::kernels
