// Data-parallel training's policy, kept out of the training loop's path: which rows of each global
// batch this process trains on and with what weight, the sums over the processes (the loss, the
// gradients in one allreduce), stopping and saving together, the ranks' own dropout streams, the
// check that their parameters stay bitwise identical, and a watchdog for a rank that hangs. In one
// process (no mpirun --data-parallel) every one of these does nothing.
// Leaves out: MPI itself (distributed.hpp and distributed/mpi.cpp).
#pragma once
#include <memory>
#include <string>
#include <vector>
#include "pg/nn/gpt.hpp"
#include "poet/distributed.hpp"
#include "poet/records.hpp"

namespace poet {

// This process's part of a step: its rows hold `weight` = their counted targets / the global batch's.
// Its loss is weighted by that, and the loss and gradients are summed over the processes before
// clipping: every process then takes the step one process would take on the whole batch.
struct Share {
    double weight = 1;
    bool sum_over_processes = false;
    float total_loss(float mine) const;                         // the sum over processes, or mine
    void total_gradients(const std::vector<pg::Tensor>& params) const;   // summed in place, or left
};

class StepWatchdog;

class DataParallel {
public:
    // Checks that the batch splits evenly over the ranks; starts the watchdog on more than one.
    DataParallel(size_t batch, double step_timeout_s, const std::string& checkpoint);
    ~DataParallel();
    bool lead() const { return world_.rank == 0; }   // the one process that prints and writes files
    bool many() const { return world_.size > 1; }
    int ranks() const { return world_.size; }

    // Each rank but the first draws its own dropout masks (from seed and rank).
    void own_dropout_stream(pg::Generator& gen, uint64_t seed) const;
    // This rank's rows of a global batch every rank drew alike, and their Share.
    Share take_rows(Batch& batch) const;
    // Whether any rank wants to stop (or failed to save): all then stop together.
    bool any(bool mine) const;
    // After each finished step: the watchdog is told, and every few steps the ranks' parameters
    // are compared; a difference ends the whole run (exit 3) naming the step.
    void step_done(size_t step, bool last, pg::nn::GPT& gpt, const std::string& checkpoint);

private:
    dist::World world_;
    size_t rows_;
    std::unique_ptr<StepWatchdog> watchdog_;
};

}  // namespace poet
