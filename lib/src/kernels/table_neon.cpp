// The kernel table for NEON, the instruction set every aarch64 CPU has (4 floats a register, FMA).
// CMakeLists.txt compiles this file for aarch64 only.
#include "make_table.hpp"

namespace pg::kernels {
extern const KernelTable kTable_neon;
const KernelTable kTable_neon = make_table<xsimd::neon64>("neon");
}  // namespace pg::kernels
