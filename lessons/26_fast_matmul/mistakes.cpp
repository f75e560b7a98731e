// mistake 1: the blocked loop skips the last, partial block of columns (N not a multiple of NB) => the last, partial block of columns was skipped
// mistake 2: i,k,j with each sum started at C even when accumulate is false (C not zeroed) => C's old values must not count when accumulate is false
// mistake 3: transposed A indexed as A[i*lda + k] instead of A[k*lda + i] => transposed A is stored (K,M)
// mistake 4: each k block summed on its own and then added (the textbook block product) => the k blocks were summed in another order
// mistake 5: lda used where ldb belongs => B's rows are ldb apart, not lda
// mistake 6: i,k,j summed in float instead of double => the same up to rounding, but not the same bits
// mistake 7: the blocked tile rounded to float after every block of k (C used as the running sum) => rounded to float after each block of k
// mistake 8: the last tile taken whole, NB columns even past N => you wrote outside C's M x N values
// mistake 9: the blocked tile set up inside the k0 loop, so each block of k starts it again => only the last block of k counted
// mistake 10: i,k,j with row[j] = a * b where row[j] += a * b belongs => only the last k counted
// mistake 11: i,k,j handed to the library's fast pg::kernels::gemm => the same up to rounding, but not the same bits
// mistake 12: transposed B indexed as B[k*ldb + j] instead of B[j*ldb + k] => transposed B is stored (N,K)
// mistake 13: ldb used where lda belongs => A's rows are lda apart, not ldb
// mistake 14: C's rows taken N apart, not ldc => C's rows are ldc apart, and ldc can be more than N
// Lesson 26's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
#include "check.hpp"
using lesson::mistake;

void exercise::matmul_ikj(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                          const float* B, size_t ldb, float* C, size_t ldc, bool accumulate) {
    const bool in_float = mistake(6);                       // each sum kept in a float, rounded at every add
    const bool zero_c = !accumulate && !mistake(2);
    const bool a_transposed = trans_a && !mistake(3);       // mistake 3 reads A as (M,K) when it is (K,M)
    const size_t b_stride = mistake(5) ? lda : ldb;
    const bool b_transposed = trans_b && !mistake(12);      // mistake 12 reads B as (K,N) when it is (N,K)
    const size_t a_stride = mistake(13) ? ldb : lda, c_stride = mistake(14) ? N : ldc;
    if (mistake(11)) return pg::kernels::gemm(trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate);
    std::vector<double> row(N);
    for (size_t i = 0; i < M; ++i) {
        for (size_t j = 0; j < N; ++j) row[j] = zero_c ? 0.0 : C[i * c_stride + j];
        for (size_t k = 0; k < K; ++k) {
            double a = a_transposed ? A[k * a_stride + i] : A[i * a_stride + k];
            for (size_t j = 0; j < N; ++j) {
                const double product = a * (b_transposed ? B[j * b_stride + k] : B[k * b_stride + j]);
                row[j] = mistake(10) ? product : row[j] + product;  // mistake 10: = where += belongs
                if (in_float) row[j] = static_cast<float>(row[j]);
            }
        }
        for (size_t j = 0; j < N; ++j) C[i * c_stride + j] = static_cast<float>(row[j]);
    }
}

void exercise::matmul_blocked(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                              const float* B, size_t ldb, float* C, size_t ldc, bool accumulate, Blocks blocks) {
    std::vector<double> tile(blocks.MB * blocks.NB), part(blocks.MB * blocks.NB);
    const size_t columns = mistake(1) ? N / blocks.NB * blocks.NB : N;   // mistake 1: whole blocks only
    std::vector<double>& sums = mistake(4) ? part : tile;   // mistake 4: each k block summed on its own
    for (size_t i0 = 0; i0 < M; i0 += blocks.MB) {
        size_t mb = std::min(blocks.MB, M - i0);
        for (size_t j0 = 0; j0 < columns; j0 += blocks.NB) {
            size_t nb = mistake(8) ? blocks.NB : std::min(blocks.NB, N - j0);
            auto set_up_tile = [&] {
                for (size_t i = 0; i < mb; ++i)
                    for (size_t j = 0; j < nb; ++j) tile[i * blocks.NB + j] = accumulate ? C[(i0 + i) * ldc + j0 + j] : 0.0;
            };
            set_up_tile();
            for (size_t k0 = 0; k0 < K; k0 += blocks.KB) {
                size_t kb = std::min(blocks.KB, K - k0);
                if (mistake(9)) set_up_tile();                      // mistake 9: started again in every block of k
                std::fill(part.begin(), part.end(), 0.0);
                for (size_t i = 0; i < mb; ++i)
                    for (size_t k = k0; k < k0 + kb; ++k) {
                        double a = trans_a ? A[k * lda + i0 + i] : A[(i0 + i) * lda + k];
                        for (size_t j = 0; j < nb; ++j) {
                            size_t col = j0 + j;
                            sums[i * blocks.NB + j] += a * (trans_b ? B[col * ldb + k] : B[k * ldb + col]);
                        }
                    }
                if (mistake(4))
                    for (size_t t = 0; t < tile.size(); ++t) tile[t] += part[t];
                else if (mistake(7))
                    for (double& t : tile) t = static_cast<float>(t);
            }
            for (size_t i = 0; i < mb; ++i)
                for (size_t j = 0; j < nb; ++j) C[(i0 + i) * ldc + j0 + j] = static_cast<float>(tile[i * blocks.NB + j]);
        }
    }
}
