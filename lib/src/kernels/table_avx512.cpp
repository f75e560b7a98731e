// The kernel table for AVX-512 F, CD and DQ (16 floats a register, 32 registers: x86-64 CPUs since
// Skylake-SP and Zen 4). CMakeLists.txt compiles this file with that instruction set's flags and no
// other file with them.
#include "make_table.hpp"

namespace pg::kernels {
extern const KernelTable kTable_avx512;
const KernelTable kTable_avx512 = make_table<xsimd::avx512f>("avx512");
}  // namespace pg::kernels
