// The kernel table: every loop of the training step that runs on SIMD registers, as one set of
// function pointers per instruction set. Each set is compiled once with that set's flags
// (table_sse2.cpp, table_avx2.cpp, table_avx512.cpp on x86-64; table_neon.cpp on aarch64) from the
// same templates (vector_kernels.hpp, gemm_kernel.hpp); active() is the widest set this CPU runs,
// chosen when the program starts (dispatch.cpp). reference_table() holds the same kernels as plain
// loops, which the tests hold every set to. So one build runs on any CPU of its architecture.
// Leaves out: the loops that are not worth it (plain loops in the ops, compiled for the baseline).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace pg::kernels {

// y[i] = f(x[i]) for i < n
using UnaryKernel = void (*)(const float* x, float* y, size_t n);
// y[i] = f(a[i * a_step], b[i * b_step]) for i < n; a step is 1 (a run) or 0 (one value for all)
using BinaryKernel = void (*)(const float* a, size_t a_step, const float* b, size_t b_step, float* y, size_t n);

// One Adam or AdamW update's numbers (optim/adam.cpp computes them once per parameter and step).
struct AdamFactors {
    float b1, b2, wd, eps, decay, step_size, sqrt_correction2;
    bool decoupled;
};

struct KernelTable {
    const char* name;    // "avx512", "avx2+fma", "sse2", "neon", "reference"
    size_t lanes;        // floats per register

    // ---- elementwise ----
    BinaryKernel add, sub, mul, div;   // a + b, a - b, a * b, a / b
    BinaryKernel neg_mul;              // -a * b             (div's backward)
    UnaryKernel exp;                   // e^x
    UnaryKernel sigmoid;               // 1 / (1 + e^-x)
    UnaryKernel gelu;                  // x s, s = 1 / (1 + e^(-2u)), u = sqrt(2/pi) (x + 0.044715 x^3)
    BinaryKernel tanh_grad;            // g (1 - y^2)        from gy and tanh's output y
    BinaryKernel sigmoid_grad;         // g y (1 - y)        from gy and sigmoid's output y
    BinaryKernel gelu_grad;            // g (s + 2 x s (1 - s) du/dx)   from gy and gelu's input x

    // ---- rows ----
    double (*sum)(const float* x, size_t n);                         // in batches, then the lanes
    float (*row_max)(const float* x, size_t n);                      // -inf for an empty row
    double (*row_sum_exp)(const float* x, size_t n, float shift);    // sum of e^(x - shift), as sum adds
    // y = softmax(x), or log_softmax(x) when log_space, with the row's max subtracted first
    void (*softmax_row)(const float* x, float* y, size_t n, bool log_space);
    // y = e^((x - shift) - logz) * scale: cross_entropy's softmax times gy / count
    void (*softmax_scaled)(const float* x, float* y, size_t n, float shift, float logz, float scale);

    // ---- optimizer ----
    // values [begin, end) of one parameter w with gradient g and moments m, v
    void (*adam_update)(float* w, const float* g, float* m, float* v, size_t begin, size_t end,
                        const AdamFactors& f);

    // ---- matrix multiply (kernels/gemm.hpp has the meaning of the arguments) ----
    void (*gemm)(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                 const float* B, size_t ldb, float* C, size_t ldc, bool accumulate);
};

// The table the library uses: the widest this CPU runs, or the one PG_KERNELS names
// (sse2, avx2, avx512, neon, reference); an unknown or unsupported name ends the program with a
// message naming the ones that run here.
const KernelTable& active();
// Every table this CPU can run, widest first, and the plain-loop reference (for the tests).
std::vector<const KernelTable*> runnable_tables();
const KernelTable& reference_table();

// Per-thread scratch memory for the kernels (gemm's packed panels): `slot` 0 or 1, at least n floats,
// 64-byte aligned, kept for the thread's life. In a baseline file so that no table's file compiles
// code another file could share.
float* scratch(int slot, size_t n);

}  // namespace pg::kernels
