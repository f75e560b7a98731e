// Data-parallel training's policy (data_parallel.hpp): the shares, the sums and agreements over the
// processes, and the watchdog.
#include "poet/data_parallel.hpp"
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace poet {

namespace {

using clock = std::chrono::steady_clock;
constexpr size_t kHashEvery = 10;   // compare the ranks' parameters every this many steps

// A hash of every parameter's bits: the same on every rank while they train in step.
uint64_t parameters_hash(pg::nn::GPT& gpt) {
    uint64_t h = 1469598103934665603ull;   // FNV-1a
    for (const pg::Tensor& p : gpt.parameters()) {
        const unsigned char* bytes = reinterpret_cast<const unsigned char*>(p.ptr());
        for (size_t i = 0; i < p.numel() * sizeof(float); ++i) h = (h ^ bytes[i]) * 1099511628211ull;
    }
    return h;
}

}  // namespace

float Share::total_loss(float mine) const {
    // every process sees the one global loss, so a NaN anywhere stops them all at the same step
    return sum_over_processes ? static_cast<float>(dist::sum(mine)) : mine;
}

// Every parameter's gradient summed over the processes: copied into one flat buffer, one
// allreduce, copied back. (A parameter without a gradient here counts as zeros.)
void Share::total_gradients(const std::vector<pg::Tensor>& params) const {
    if (!sum_over_processes) return;
    size_t n = 0;
    for (const pg::Tensor& p : params) n += p.numel();
    std::vector<float> flat(n, 0.f);
    size_t at = 0;
    for (const pg::Tensor& p : params) {
        if (p.has_grad()) std::copy(p.grad_data().data(), p.grad_data().data() + p.numel(), flat.data() + at);
        at += p.numel();
    }
    dist::sum_in_place(flat.data(), n);
    at = 0;
    for (pg::Tensor p : params) {   // a handle: set_grad reaches the parameter itself
        pg::Array sum(p.shape(), pg::Array::uninitialized);
        std::copy(flat.data() + at, flat.data() + at + p.numel(), sum.data());
        p.set_grad(std::move(sum));
        at += p.numel();
    }
}

// Ends the whole run when no step has finished for `timeout` seconds (a rank that hangs, or one
// whose peers wait for it forever), instead of a silent deadlock. It exits without MPI calls (MPI
// is not made for other threads here); mpirun then stops the other ranks.
class StepWatchdog {
public:
    StepWatchdog(double timeout_s, std::string checkpoint) : timeout_s_(timeout_s), checkpoint_(std::move(checkpoint)) {
        thread_ = std::thread([this] { watch(); });
    }
    ~StepWatchdog() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            done_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    void beat() {
        std::lock_guard<std::mutex> lock(mutex_);
        last_ = clock::now();
    }

private:
    void watch() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!done_) {
            wake_.wait_for(lock, std::chrono::seconds(1));
            if (!done_ && std::chrono::duration<double>(clock::now() - last_).count() > timeout_s_) {
                std::fprintf(stderr,
                             "poet train: rank %d: no step finished for %.0f s: another rank died or hangs "
                             "(--step-timeout S allows longer). Stopping the run; the last checkpoint is kept: %s\n",
                             dist::world().rank, timeout_s_, checkpoint_.c_str());
                std::fflush(stderr);
                std::_Exit(3);
            }
        }
    }
    double timeout_s_;
    std::string checkpoint_;
    clock::time_point last_ = clock::now();
    bool done_ = false;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::thread thread_;
};

DataParallel::DataParallel(size_t batch, double step_timeout_s, const std::string& checkpoint) : world_(dist::world()) {
    const size_t ranks = static_cast<size_t>(world_.size);
    if (batch % ranks != 0)
        throw std::invalid_argument("train --data-parallel: --batch " + std::to_string(batch) +
                                    " does not split evenly over " + std::to_string(ranks) +
                                    " ranks; give a multiple of " + std::to_string(ranks));
    rows_ = batch / ranks;
    if (many()) watchdog_ = std::make_unique<StepWatchdog>(step_timeout_s, checkpoint);
}

DataParallel::~DataParallel() = default;

void DataParallel::own_dropout_stream(pg::Generator& gen, uint64_t seed) const {
    if (many() && !lead()) gen = pg::Generator(seed ^ (0xD1B54A32D192ED03ull * static_cast<uint64_t>(world_.rank)));
}

Share DataParallel::take_rows(Batch& batch) const {
    if (!many()) return {};
    size_t counted = counted_targets(batch);
    const size_t rank = static_cast<size_t>(world_.rank);
    batch = rows_of(batch, rows_ * rank, rows_ * (rank + 1));
    return {static_cast<double>(counted_targets(batch)) / static_cast<double>(counted), true};
}

bool DataParallel::any(bool mine) const { return many() ? dist::sum(mine ? 1.0 : 0.0) > 0 : mine; }

void DataParallel::step_done(size_t step, bool last, pg::nn::GPT& gpt, const std::string& checkpoint) {
    if (!many()) return;
    watchdog_->beat();
    if ((step % kHashEvery == 0 || last) && !dist::same_everywhere(parameters_hash(gpt)))
        dist::abort_all("the ranks' parameters differ after step " + std::to_string(step) +
                            " (they must stay bitwise identical); the last checkpoint is kept: " + checkpoint,
                        3);
}

}  // namespace poet
