// How many threads the kernels may use: set_num_threads(n), else PG_NUM_THREADS, else the core count;
// and the name of the kernel table in use. Leaves out: the threads themselves (kernels/parallel.cpp
// runs the work) and the choice of table (kernels/dispatch.cpp).
#include "pg/threads.hpp"
#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include "kernels/table.hpp"

namespace pg {

namespace {

std::atomic<size_t> chosen_threads{0};  // 0: not chosen yet

size_t threads_from_environment() {
    const char* text = std::getenv("PG_NUM_THREADS");
    if (text == nullptr || *text == '\0') {
        unsigned cores = std::thread::hardware_concurrency();
        return cores == 0 ? 1 : cores;
    }
    std::string value(text);
    size_t digits = value.find_first_not_of("0123456789");
    if (digits != std::string::npos || value.size() > 6 || std::stoul(value) == 0)
        throw std::invalid_argument("PG_NUM_THREADS: expected a whole number >= 1, got '" + value + "'");
    return std::stoul(value);
}

}  // namespace

void set_num_threads(size_t n) {
    if (n == 0) throw std::invalid_argument("set_num_threads: need at least 1 thread, got 0");
    chosen_threads = n;
}

size_t num_threads() {
    size_t n = chosen_threads.load();
    if (n == 0) {
        n = threads_from_environment();
        chosen_threads = n;
    }
    return n;
}

std::string kernel_set() {
    const kernels::KernelTable& t = kernels::active();
    return std::string(t.name) + " (" + std::to_string(t.lanes) + (t.lanes == 1 ? " float" : " floats") + " a register)";
}

}  // namespace pg
