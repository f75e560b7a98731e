// The PG_OP_TIMES table (op_times.hpp): forward and backward seconds and calls per op, kept in one
// map under a mutex, printed by the destructor of the one static table when the program exits.
#include "op_times.hpp"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

namespace pg::detail::op_times {

namespace {

using Clock = std::chrono::steady_clock;

struct Row {
    double forward_s = 0, backward_s = 0;
    size_t forward_calls = 0, backward_calls = 0;
};

struct Table {
    std::mutex mutex;
    std::map<std::string, Row> rows;
    Clock::time_point last_forward = Clock::now();
    bool in_backward = true;   // nothing before the first op is its work: as if after a backward
    size_t backward_passes = 0;

    ~Table() {
        std::vector<std::pair<std::string, Row>> sorted(rows.begin(), rows.end());
        std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) {
            return x.second.forward_s + x.second.backward_s > y.second.forward_s + y.second.backward_s;
        });
        double total = 0;
        for (const auto& [op, row] : sorted) total += row.forward_s + row.backward_s;
        double passes = static_cast<double>(std::max<size_t>(backward_passes, 1));
        std::fprintf(stderr, "\nPG_OP_TIMES: wall ms per backward pass (%zu passes), largest first\n", backward_passes);
        std::fprintf(stderr, "%-16s %10s %8s %10s %8s %7s\n", "op", "forward", "calls", "backward", "calls", "share");
        for (const auto& [op, row] : sorted)
            std::fprintf(stderr, "%-16s %10.2f %8zu %10.2f %8zu %6.1f%%\n", op.c_str(), 1e3 * row.forward_s / passes,
                         row.forward_calls, 1e3 * row.backward_s / passes, row.backward_calls,
                         total > 0 ? 100 * (row.forward_s + row.backward_s) / total : 0.0);
        std::fprintf(stderr, "%-16s %10.2f\n", "all ops", 1e3 * total / passes);
    }
};

Table& table() {
    static Table t;
    return t;
}

double seconds(Clock::time_point from, Clock::time_point to) { return std::chrono::duration<double>(to - from).count(); }

}  // namespace

bool enabled() {
    static const bool on = [] {
        const char* v = std::getenv("PG_OP_TIMES");
        return v != nullptr && *v != '\0' && std::string(v) != "0";
    }();
    return on;
}

void forward_done(const char* op) {
    Table& t = table();
    Clock::time_point now = Clock::now();
    std::lock_guard<std::mutex> lock(t.mutex);
    if (!t.in_backward) {
        Row& row = t.rows[op];
        row.forward_s += seconds(t.last_forward, now);
        ++row.forward_calls;
    }
    t.in_backward = false;
    t.last_forward = now;
}

BackwardFn timed(const std::string& op, BackwardFn backward) {
    return [op, backward = std::move(backward)](const BackwardContext& ctx) {
        Clock::time_point start = Clock::now();
        std::vector<Array> grads = backward(ctx);
        Table& t = table();
        std::lock_guard<std::mutex> lock(t.mutex);
        if (!t.in_backward) {   // the first backward after a forward: a new pass
            ++t.backward_passes;
            t.in_backward = true;
        }
        Row& row = t.rows[op];
        row.backward_s += seconds(start, Clock::now());
        ++row.backward_calls;
        return grads;
    };
}

}  // namespace pg::detail::op_times
