// Lesson 26 exercise: the matrix product in the loop order i, k, j, then in blocks, with the same
// bits as gemm_reference. `./poet start 26` copies this file to exercise.cpp; write matmul_ikj and
// matmul_blocked there, then `./poet check 26`.
#include "check.hpp"

void exercise::matmul_ikj(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                          const float* B, size_t ldb, float* C, size_t ldc, bool accumulate) {
    // for each row i of C:
    //   a std::vector<double> row(N), each starting at C(i,j) when accumulate, else at 0
    //   for k = 0 .. K-1:  a = op(A)(i,k);  for j: row[j] += a * op(B)(k,j)
    //   C(i,j) = float(row[j])
    throw lesson::NotImplemented("exercise::matmul_ikj");
}

void exercise::matmul_blocked(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                              const float* B, size_t ldb, float* C, size_t ldc, bool accumulate, Blocks blocks) {
    // for each tile of C, rows i0 .. i0+mb, columns j0 .. j0+nb (mb = min(MB, M - i0), nb likewise):
    //   a tile of doubles, each starting at C(i,j) when accumulate, else at 0
    //   for k0 = 0, KB, 2 KB, ... (kb = min(KB, K - k0)): the i, k, j loops inside the block
    //   store the tile into C as floats
    throw lesson::NotImplemented("exercise::matmul_blocked");
}
