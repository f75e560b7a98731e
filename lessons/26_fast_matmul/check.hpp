// Lesson 26's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>
#include "kernels/gemm.hpp"
#include "lesson.hpp"

namespace exercise {
// C (M,N) = op(A) @ op(B), or C += op(A) @ op(B) when accumulate: gemm_reference's arguments.
//   op(A)(i,k) = A[i*lda + k], or A[k*lda + i] when trans_a (A stored as (K,M))
//   op(B)(k,j) = B[k*ldb + j], or B[j*ldb + k] when trans_b (B stored as (N,K))
//   C(i,j) = C[i*ldc + j]
// Loops i, k, j; each C(i,j) summed in a double over k = 0, 1, ..., K-1: the bits of gemm_reference.
void matmul_ikj(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                const float* B, size_t ldb, float* C, size_t ldc, bool accumulate);

// Tiles of C of MB rows and NB columns; blocks of KB values of k.
struct Blocks {
    size_t MB, NB, KB;
};

// The same product one MB x NB tile of C at a time, k in blocks of KB; the last tile or block along
// a dimension is smaller when M, N or K is not a multiple. The bits of gemm_reference.
void matmul_blocked(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                    const float* B, size_t ldb, float* C, size_t ldc, bool accumulate, Blocks blocks);
}  // namespace exercise
