// A seeded random number generator: every run with the same seed draws the same numbers,
// on every platform (our own normal and uniform transforms, not the standard distributions).
// Leaves out: reproducing PyTorch's generator stream (fixtures carry their own values).
#pragma once
#include <cstdint>
#include "pg/tensor.hpp"

namespace pg {

class Generator {
public:
    explicit Generator(uint64_t seed = 0);
    uint64_t next_u64();              // splitmix64 then xoshiro256**
    float uniform();                  // [0, 1)
    float normal();                   // mean 0, std 1 (Box-Muller)
    size_t randint(size_t n);         // [0, n)
    uint64_t seed() const { return seed_; }
    struct State { uint64_t s[4]; bool has_spare; float spare; };
    State state() const;
    void set_state(const State& st);
private:
    uint64_t seed_;
    uint64_t s_[4];
    bool has_spare_ = false;
    float spare_ = 0.f;
};

// The index-th number in [0, 1) of the stream named by key: a function of (key, index) alone, so
// numbers drawn in parallel (a dropout mask over the threads) do not depend on who draws which.
float counter_uniform(uint64_t key, uint64_t index);

Tensor randn(const Shape& s, Generator& gen, bool requires_grad = false);
Tensor uniform(const Shape& s, float lo, float hi, Generator& gen, bool requires_grad = false);

}  // namespace pg
