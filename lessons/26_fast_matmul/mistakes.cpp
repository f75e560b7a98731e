// mistake 1: the blocked loop skips the last, partial block of columns (N not a multiple of NB) => the last, partial block of columns was skipped
// mistake 2: i,k,j with each sum started at C even when accumulate is false (C not zeroed) => C's old values must not count when accumulate is false
// mistake 3: transposed A indexed as A[i*lda + k] instead of A[k*lda + i] => transposed A is stored (K,M)
// mistake 4: each k block summed on its own and then added (the textbook block product) => the k blocks were summed in another order
// mistake 5: lda used where ldb belongs => B's rows are ldb apart, not lda
// mistake 6: i,k,j summed in float instead of double => the same up to rounding, but not the same bits
// mistake 7: the blocked tile rounded to float after every block of k (C used as the running sum) => rounded to float after each block of k
// mistake 8: the last tile taken whole, NB columns even past N => you wrote outside C's M x N values
// Lesson 26's plausible wrong answers, one per MISTAKE (the build makes lesson_26_mistake_M); each
// must fail the checks with the hint its line names.
#include "check.hpp"

void exercise::matmul_ikj(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                          const float* B, size_t ldb, float* C, size_t ldc, bool accumulate) {
#if MISTAKE == 6
    std::vector<float> row(N);
#else
    std::vector<double> row(N);
#endif
    for (size_t i = 0; i < M; ++i) {
#if MISTAKE == 2
        for (size_t j = 0; j < N; ++j) row[j] = C[i * ldc + j];
#else
        for (size_t j = 0; j < N; ++j) row[j] = accumulate ? C[i * ldc + j] : 0.0;
#endif
        for (size_t k = 0; k < K; ++k) {
#if MISTAKE == 3
            double a = A[i * lda + k];
#else
            double a = trans_a ? A[k * lda + i] : A[i * lda + k];
#endif
#if MISTAKE == 5
            for (size_t j = 0; j < N; ++j) row[j] += a * (trans_b ? B[j * lda + k] : B[k * lda + j]);
#else
            for (size_t j = 0; j < N; ++j) row[j] += a * (trans_b ? B[j * ldb + k] : B[k * ldb + j]);
#endif
        }
        for (size_t j = 0; j < N; ++j) C[i * ldc + j] = static_cast<float>(row[j]);
    }
}

void exercise::matmul_blocked(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                              const float* B, size_t ldb, float* C, size_t ldc, bool accumulate, Blocks blocks) {
    std::vector<double> tile(blocks.MB * blocks.NB), part(blocks.MB * blocks.NB);
    for (size_t i0 = 0; i0 < M; i0 += blocks.MB) {
        size_t mb = std::min(blocks.MB, M - i0);
#if MISTAKE == 1
        for (size_t j0 = 0; j0 + blocks.NB <= N; j0 += blocks.NB) {
#else
        for (size_t j0 = 0; j0 < N; j0 += blocks.NB) {
#endif
#if MISTAKE == 8
            size_t nb = blocks.NB;
#else
            size_t nb = std::min(blocks.NB, N - j0);
#endif
            for (size_t i = 0; i < mb; ++i)
                for (size_t j = 0; j < nb; ++j) tile[i * blocks.NB + j] = accumulate ? C[(i0 + i) * ldc + j0 + j] : 0.0;
            for (size_t k0 = 0; k0 < K; k0 += blocks.KB) {
                size_t kb = std::min(blocks.KB, K - k0);
                std::fill(part.begin(), part.end(), 0.0);
                for (size_t i = 0; i < mb; ++i)
                    for (size_t k = k0; k < k0 + kb; ++k) {
                        double a = trans_a ? A[k * lda + i0 + i] : A[(i0 + i) * lda + k];
                        for (size_t j = 0; j < nb; ++j) {
                            size_t col = j0 + j;
                            double product = a * (trans_b ? B[col * ldb + k] : B[k * ldb + col]);
#if MISTAKE == 4
                            part[i * blocks.NB + j] += product;
#else
                            tile[i * blocks.NB + j] += product;
#endif
                        }
                    }
#if MISTAKE == 4
                for (size_t t = 0; t < tile.size(); ++t) tile[t] += part[t];
#elif MISTAKE == 7
                for (double& t : tile) t = static_cast<float>(t);
#endif
            }
            for (size_t i = 0; i < mb; ++i)
                for (size_t j = 0; j < nb; ++j) C[(i0 + i) * ldc + j0 + j] = static_cast<float>(tile[i * blocks.NB + j]);
        }
    }
}
