// How the optimizers spread one pass over every parameter across threads: the parameters that have
// a gradient, cut into pieces of at most kChunk values, each piece worked on by one thread. The
// pieces do not depend on the thread count, so neither do the results.
// Leaves out: the work itself (adam.cpp, clip_and_schedule.cpp).
#pragma once
#include <vector>
#include "pg/tensor.hpp"

namespace pg::optim::detail {

constexpr size_t kChunk = 1 << 14;   // 64 KB of floats: a few per thread even for small models

struct Chunk {
    size_t param;        // index into the parameter list
    size_t begin, end;   // values [begin, end) of that parameter
};

inline std::vector<Chunk> chunks_of(const std::vector<Tensor>& params) {
    std::vector<Chunk> chunks;
    for (size_t i = 0; i < params.size(); ++i) {
        if (!params[i].has_grad()) continue;
        for (size_t b = 0, n = params[i].numel(); b < n; b += kChunk) chunks.push_back({i, b, std::min(n, b + kChunk)});
    }
    return chunks;
}

}  // namespace pg::optim::detail
