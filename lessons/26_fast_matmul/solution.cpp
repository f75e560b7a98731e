// Lesson 26 reference solution: the product in the order i, k, j, then in tiles of C with k in
// blocks, each C(i,j) one running double over k = 0..K-1, so the bits are gemm_reference's.
#include "check.hpp"

void exercise::matmul_ikj(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                          const float* B, size_t ldb, float* C, size_t ldc, bool accumulate) {
    std::vector<double> row(N);  // row i of C while it is summed
    for (size_t i = 0; i < M; ++i) {
        for (size_t j = 0; j < N; ++j) row[j] = accumulate ? C[i * ldc + j] : 0.0;
        for (size_t k = 0; k < K; ++k) {
            double a = trans_a ? A[k * lda + i] : A[i * lda + k];  // op(A)(i,k)
            for (size_t j = 0; j < N; ++j) row[j] += a * (trans_b ? B[j * ldb + k] : B[k * ldb + j]);
        }
        for (size_t j = 0; j < N; ++j) C[i * ldc + j] = static_cast<float>(row[j]);
    }
}

void exercise::matmul_blocked(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                              const float* B, size_t ldb, float* C, size_t ldc, bool accumulate, Blocks blocks) {
    std::vector<double> tile(blocks.MB * blocks.NB);  // one tile of C, (mb, nb), row stride NB
    for (size_t i0 = 0; i0 < M; i0 += blocks.MB) {
        size_t mb = std::min(blocks.MB, M - i0);
        for (size_t j0 = 0; j0 < N; j0 += blocks.NB) {
            size_t nb = std::min(blocks.NB, N - j0);
            for (size_t i = 0; i < mb; ++i)
                for (size_t j = 0; j < nb; ++j) tile[i * blocks.NB + j] = accumulate ? C[(i0 + i) * ldc + j0 + j] : 0.0;
            for (size_t k0 = 0; k0 < K; k0 += blocks.KB) {  // k blocks in order: one running sum per C(i,j)
                size_t kb = std::min(blocks.KB, K - k0);
                for (size_t i = 0; i < mb; ++i)
                    for (size_t k = k0; k < k0 + kb; ++k) {
                        double a = trans_a ? A[k * lda + i0 + i] : A[(i0 + i) * lda + k];
                        for (size_t j = 0; j < nb; ++j) {
                            size_t col = j0 + j;
                            tile[i * blocks.NB + j] += a * (trans_b ? B[col * ldb + k] : B[k * ldb + col]);
                        }
                    }
            }
            for (size_t i = 0; i < mb; ++i)
                for (size_t j = 0; j < nb; ++j) C[(i0 + i) * ldc + j0 + j] = static_cast<float>(tile[i * blocks.NB + j]);
        }
    }
}
