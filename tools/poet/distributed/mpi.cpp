// distributed.hpp over MPI (built when POETGRAD_MPI is on): MPI_Allreduce in MPI_COMM_WORLD, with
// MPI's default error handler, so a failed collective ends the whole run instead of hanging it.
// Leaves out: communicators other than the world.
#include <mpi.h>
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstdio>
#include <stdexcept>
#include "poet/distributed.hpp"

namespace poet::dist {

namespace {
bool started = false;
}

bool built_with_mpi() { return true; }

void start(int* argc, char*** argv) {
    int already = 0;
    MPI_Initialized(&already);
    if (!already) MPI_Init(argc, argv);
    started = true;
}

void stop() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (started && !finalized) MPI_Finalize();
    started = false;
}

World world() {
    World w;
    if (!started) return w;
    MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &w.size);
    return w;
}

void sum_in_place(float* values, size_t n) {
    if (!started) return;
    for (size_t done = 0; done < n;) {   // MPI counts are ints: pieces of at most INT_MAX
        int count = static_cast<int>(std::min<size_t>(n - done, INT_MAX));
        MPI_Allreduce(MPI_IN_PLACE, values + done, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        done += static_cast<size_t>(count);
    }
}

double sum(double v) {
    if (started) MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return v;
}

bool same_everywhere(uint64_t v) {
    if (!started) return true;
    unsigned long long lo = v, hi = v;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi;
}

void abort_all(const std::string& message, int code) {
    std::fprintf(stderr, "poet train: rank %d: %s\n", world().rank, message.c_str());
    std::fflush(stderr);
    if (started) MPI_Abort(MPI_COMM_WORLD, code);
    std::exit(code);
}

}  // namespace poet::dist
