// Data-parallel training over MPI (`mpirun -np N poet train --data-parallel ...`): which process
// this is among how many, and the few collectives train() needs. Every process holds the whole
// model, trains on its rows of each global batch, and the gradients are summed with one allreduce.
// In a build without MPI (POETGRAD_MPI off, the default) the world is one process and no MPI call
// is ever made. Leaves out: model parallelism, overlapping the allreduce with the backward pass.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace poet::dist {

bool built_with_mpi();

// Starts MPI for --data-parallel (MPI_Init); throws std::invalid_argument in a build without MPI.
void start(int* argc, char*** argv);
// Ends MPI when start() began it (MPI_Finalize); does nothing otherwise.
void stop();

struct World {
    int rank = 0;   // this process, 0 .. size-1; rank 0 alone prints and writes files
    int size = 1;
};
World world();   // {0, 1} unless start() ran under mpirun

// The sum over every process, in place, the same on every process afterwards (MPI_Allreduce).
void sum_in_place(float* values, size_t n);
double sum(double v);
// Whether every process holds the same v.
bool same_everywhere(uint64_t v);
// Prints "poet train: rank R: message" and ends every process of the run with `code`.
[[noreturn]] void abort_all(const std::string& message, int code);

}  // namespace poet::dist
