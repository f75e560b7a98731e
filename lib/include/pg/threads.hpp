// How many threads the kernels may use: PG_NUM_THREADS if set, else the number of cores.
#pragma once
#include <cstddef>

namespace pg {
void set_num_threads(size_t n);
size_t num_threads();
}  // namespace pg
