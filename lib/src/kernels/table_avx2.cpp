// The kernel table for AVX2 with FMA (8 floats a register; x86-64 CPUs since about 2013). CMakeLists.txt
// compiles this file with that instruction set's flags and no other file with them.
#include "make_table.hpp"

namespace pg::kernels {
extern const KernelTable kTable_avx2;
const KernelTable kTable_avx2 = make_table<xsimd::fma3<xsimd::avx2>>("avx2+fma");
}  // namespace pg::kernels
