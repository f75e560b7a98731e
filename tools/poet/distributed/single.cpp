// distributed.hpp without MPI (the default build): a world of one process, where every sum is the
// value itself. --data-parallel says how to get the MPI build.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include "poet/distributed.hpp"

namespace poet::dist {

bool built_with_mpi() { return false; }

void start(int*, char***) {
    throw std::invalid_argument(
        "train --data-parallel: this poet was built without MPI; ./poet train --ranks N ... builds it "
        "with Open MPI (build-mpi/) and starts N processes under mpirun (docs/DISTRIBUTED.md)");
}

void stop() {}
World world() { return {}; }
void sum_in_place(float*, size_t) {}
double sum(double v) { return v; }
bool same_everywhere(uint64_t) { return true; }

void abort_all(const std::string& message, int code) {
    std::fprintf(stderr, "poet train: %s\n", message.c_str());
    std::exit(code);
}

}  // namespace poet::dist
