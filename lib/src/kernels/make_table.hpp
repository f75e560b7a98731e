// One instruction set's kernel table, from the templates (vector_kernels.hpp, gemm_kernel.hpp):
// each table_*.cpp is this call with its Arch, compiled with that instruction set's flags.
#pragma once
#include "gemm_kernel.hpp"
#include "vector_kernels.hpp"

namespace pg::kernels {
namespace {

template <class Arch>
constexpr KernelTable make_table(const char* name) {
    using V = VectorKernels<Arch>;
    return KernelTable{name,           V::L,           V::add,         V::sub,          V::mul,
                       V::div,         V::neg_mul,     V::exp,         V::sigmoid,      V::gelu,
                       V::tanh_grad,   V::sigmoid_grad, V::gelu_grad,  V::sum,          V::row_max,
                       V::row_sum_exp, V::softmax_row, V::softmax_scaled, V::adam_update, GemmKernel<Arch>::run};
}

}  // namespace
}  // namespace pg::kernels
