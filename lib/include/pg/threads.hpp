// How the library runs on this machine: how many threads the kernels may use (PG_NUM_THREADS if
// set, else the number of cores), and which instruction set its SIMD kernels use (the widest this
// CPU runs, chosen when the program starts; PG_KERNELS names another).
#pragma once
#include <cstddef>
#include <string>

namespace pg {
void set_num_threads(size_t n);
size_t num_threads();
// "avx512 (16 floats a register)", "avx2+fma (8 ...)", "sse2 (4 ...)", "neon (4 ...)"
std::string kernel_set();
}  // namespace pg
