// The kernel table for SSE2, the instruction set every x86-64 CPU has (4 floats a register, no FMA).
// CMakeLists.txt compiles this file with that instruction set's flags and no other file with them.
#include "make_table.hpp"

namespace pg::kernels {
extern const KernelTable kTable_sse2;
const KernelTable kTable_sse2 = make_table<xsimd::sse2>("sse2");
}  // namespace pg::kernels
