// Lesson 26 exercise: the matrix product in the loop order i, k, j, then in blocks, with the same
// bits as gemm_reference. `./poet start 26` copies this file to exercise.cpp; write matmul_ikj and
// matmul_blocked there, then `./poet check 26`.
// 第 26 课练习：按 i、k、j 的循环顺序写矩阵乘法，再分块来写，结果要和 gemm_reference 逐位相同。
// `./poet start 26` 会把这个文件复制成 exercise.cpp；在那里写好 matmul_ikj 和 matmul_blocked，
// 然后运行 `./poet check 26`。
#include "check.hpp"

void exercise::matmul_ikj(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                          const float* B, size_t ldb, float* C, size_t ldc, bool accumulate) {
    // for each row i of C:
    // 对 C 的每一行 i：
    //   a std::vector<double> row(N), each starting at C(i,j) when accumulate, else at 0
    //   准备一个 std::vector<double> row(N)，row[j] 的初值：设了 accumulate 时是 C(i,j)，否则是 0
    //   for k = 0 .. K-1:  a = op(A)(i,k);  for j: row[j] += a * op(B)(k,j)
    //   对 k = 0 .. K-1：a = op(A)(i,k)；对每个 j：row[j] += a * op(B)(k,j)
    //   C(i,j) = float(row[j])
    //   最后存回：C(i,j) = float(row[j])
    throw lesson::NotImplemented("exercise::matmul_ikj");
}

void exercise::matmul_blocked(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                              const float* B, size_t ldb, float* C, size_t ldc, bool accumulate, Blocks blocks) {
    // for each tile of C, rows i0 .. i0+mb, columns j0 .. j0+nb (mb = min(MB, M - i0), nb likewise):
    // 对 C 的每一块，即第 i0 .. i0+mb 行、第 j0 .. j0+nb 列（mb = min(MB, M - i0)，nb 同理）：
    //   a tile of doubles, each starting at C(i,j) when accumulate, else at 0
    //   准备一块 double，每个的初值：设了 accumulate 时是 C(i,j)，否则是 0
    //   for k0 = 0, KB, 2 KB, ... (kb = min(KB, K - k0)): the i, k, j loops inside the block
    //   对 k0 = 0, KB, 2 KB, ...（kb = min(KB, K - k0)）：在块内跑 i、k、j 三重循环
    //   store the tile into C as floats
    //   把这一块存回 C，存成 float
    throw lesson::NotImplemented("exercise::matmul_blocked");
}
