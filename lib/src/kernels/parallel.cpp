// The thread pool behind parallel_for: num_threads()-1 workers take task indices from an atomic
// counter alongside the caller. Between jobs a worker spins briefly before it sleeps, so the many
// short GEMMs of a training step start without a wake-up's delay. Leaves out: priorities, affinity.
#include "parallel.hpp"
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>
#include "pg/threads.hpp"

namespace pg::kernels {

namespace {

thread_local bool inside_task = false;

// How long an idle worker, or a caller waiting for workers, spins before it blocks.
constexpr std::chrono::microseconds SPIN_TIME{100};

// Spins (yielding the core to anyone else who wants it) until done() or SPIN_TIME has passed.
template <class Done>
bool spin_until(Done done) {
    auto give_up = std::chrono::steady_clock::now() + SPIN_TIME;
    while (!done()) {
        if (std::chrono::steady_clock::now() > give_up) return false;
        std::this_thread::yield();
    }
    return true;
}

class Pool {
public:
    ~Pool() { resize(0); }

    // Runs every task on the caller and the pool's `workers` threads.
    void run(size_t workers, size_t n_tasks, const std::function<void(size_t)>& task) {
        if (workers_.size() != workers) resize(workers);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            task_ = &task;
            n_tasks_ = n_tasks;
            next_task_ = 0;
            error_ = nullptr;
            busy_workers_ = workers_.size();
            ++generation_;
        }
        wake_.notify_all();
        take_tasks();
        if (!spin_until([this] { return busy_workers_ == 0; })) {
            std::unique_lock<std::mutex> lock(mutex_);
            finished_.wait(lock, [this] { return busy_workers_ == 0; });
        }
        std::lock_guard<std::mutex> lock(mutex_);
        task_ = nullptr;
        if (error_) std::rethrow_exception(error_);
    }

    std::mutex& dispatch_mutex() { return dispatch_; }

private:
    void resize(size_t workers) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : workers_) t.join();
        workers_.clear();
        stopping_ = false;
        for (size_t w = 0; w < workers; ++w) workers_.emplace_back([this, seen = generation_.load()] { work(seen); });
    }

    // A worker's loop: wait for a job newer than the last one it served, take tasks, report.
    void work(size_t seen) {
        inside_task = true;
        for (;;) {
            if (!spin_until([&] { return generation_ != seen || stopping_; })) {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return generation_ != seen || stopping_; });
            }
            if (stopping_) return;
            seen = generation_;
            take_tasks();
            if (--busy_workers_ == 0) {
                std::lock_guard<std::mutex> lock(mutex_);
                finished_.notify_one();
            }
        }
    }

    void take_tasks() {
        bool was_inside = inside_task;
        inside_task = true;
        for (size_t i = next_task_++; i < n_tasks_; i = next_task_++) {
            try {
                (*task_)(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(mutex_);
                if (!error_) error_ = std::current_exception();
            }
        }
        inside_task = was_inside;
    }

    std::mutex dispatch_;  // one caller at a time
    std::mutex mutex_;     // guards the job below while it is set up, and the sleeping waits
    std::condition_variable wake_, finished_;
    std::vector<std::thread> workers_;
    const std::function<void(size_t)>* task_ = nullptr;
    size_t n_tasks_ = 0;
    std::exception_ptr error_;
    std::atomic<size_t> next_task_{0};
    std::atomic<size_t> busy_workers_{0};
    std::atomic<size_t> generation_{0};  // counts jobs; a change tells the workers a new one is set
    std::atomic<bool> stopping_{false};
};

Pool& pool() {
    static Pool the_pool;
    return the_pool;
}

}  // namespace

void parallel_for(size_t n_tasks, const std::function<void(size_t)>& task) {
    size_t threads = num_threads();
    if (threads <= 1 || n_tasks <= 1 || inside_task) {
        for (size_t i = 0; i < n_tasks; ++i) task(i);
        return;
    }
    std::unique_lock<std::mutex> only_caller(pool().dispatch_mutex(), std::try_to_lock);
    if (!only_caller.owns_lock()) {
        for (size_t i = 0; i < n_tasks; ++i) task(i);
        return;
    }
    pool().run(threads - 1, n_tasks, task);
}

void parallel_rows(size_t rows, size_t row_cost, const std::function<void(size_t, size_t)>& rows_task) {
    constexpr size_t kMinWorkToSplit = 1 << 16;  // below this, waking the pool costs more than it saves
    size_t tasks = rows * row_cost < kMinWorkToSplit ? 1 : std::min(rows, 4 * num_threads());
    if (tasks <= 1) {
        rows_task(0, rows);
        return;
    }
    parallel_for(tasks, [&](size_t i) { rows_task(rows * i / tasks, rows * (i + 1) / tasks); });
}

void parallel_pieces(size_t n, const std::function<void(size_t, size_t)>& piece) {
    size_t pieces = (n + kPieceFloats - 1) / kPieceFloats;
    parallel_rows(pieces, kPieceFloats, [&](size_t p0, size_t p1) {
        piece(p0 * kPieceFloats, std::min(p1 * kPieceFloats, n));
    });
}

}  // namespace pg::kernels
