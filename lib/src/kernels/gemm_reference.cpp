// The plain triple loop every fast GEMM is tested against. Accumulates in double so that it is
// a stricter reference than the kernel it checks. Leaves out: any attempt at speed.
#include "gemm.hpp"

namespace pg::kernels {

void gemm_reference(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                    const float* B, size_t ldb, float* C, size_t ldc, bool accumulate) {
    for (size_t i = 0; i < M; ++i)
        for (size_t j = 0; j < N; ++j) {
            double acc = accumulate ? C[i * ldc + j] : 0.0;
            for (size_t k = 0; k < K; ++k) {
                float a = trans_a ? A[k * lda + i] : A[i * lda + k];
                float b = trans_b ? B[j * ldb + k] : B[k * ldb + j];
                acc += static_cast<double>(a) * b;
            }
            C[i * ldc + j] = static_cast<float>(acc);
        }
}

}  // namespace pg::kernels
