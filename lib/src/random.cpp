// A small, portable, seeded generator: xoshiro256** seeded by splitmix64, Box-Muller normals.
// Leaves out: matching PyTorch's stream; reference tests ship their own initial values.
#include "pg/random.hpp"
#include <cmath>
#include <stdexcept>

namespace pg {

static uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

Generator::Generator(uint64_t seed) : seed_(seed) {
    uint64_t x = seed;
    for (uint64_t& w : s_) w = splitmix64(x);
}

uint64_t Generator::next_u64() {
    uint64_t result = rotl(s_[1] * 5, 7) * 9;
    uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0]; s_[3] ^= s_[1]; s_[1] ^= s_[2]; s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

// the top 24 bits of a 64-bit number as a float in [0, 1): exact, every value equally likely
static float unit_float(uint64_t bits) { return static_cast<float>(bits >> 40) * (1.0f / 16777216.0f); }

float Generator::uniform() { return unit_float(next_u64()); }

float counter_uniform(uint64_t key, uint64_t index) {
    uint64_t x = key ^ (index * 0xD1B54A32D192ED03ull);   // a distinct start for every index
    splitmix64(x);
    return unit_float(splitmix64(x));
}

float Generator::normal() {
    if (has_spare_) {
        has_spare_ = false;
        return spare_;
    }
    double u1 = (static_cast<double>(next_u64() >> 11) + 1.0) * (1.0 / 9007199254740992.0);  // (0, 1]
    double u2 = static_cast<double>(next_u64() >> 11) * (1.0 / 9007199254740992.0);
    double r = std::sqrt(-2.0 * std::log(u1)), th = 2.0 * M_PI * u2;
    spare_ = static_cast<float>(r * std::sin(th));
    has_spare_ = true;
    return static_cast<float>(r * std::cos(th));
}

size_t Generator::randint(size_t n) {
    if (n == 0) throw std::invalid_argument("randint: n = 0 gives no number in [0, n) to draw");
    return static_cast<size_t>(next_u64() % n);
}

Generator::State Generator::state() const { return {{s_[0], s_[1], s_[2], s_[3]}, has_spare_, spare_}; }
void Generator::set_state(const State& st) {
    for (int i = 0; i < 4; ++i) s_[i] = st.s[i];
    has_spare_ = st.has_spare;
    spare_ = st.spare;
}

Tensor randn(const Shape& s, Generator& gen, bool requires_grad) {
    Tensor t = zeros(s);
    float* p = t.mutable_data().data();
    for (size_t i = 0; i < t.numel(); ++i) p[i] = gen.normal();
    return t.requires_grad_(requires_grad);
}

Tensor uniform(const Shape& s, float lo, float hi, Generator& gen, bool requires_grad) {
    Tensor t = zeros(s);
    float* p = t.mutable_data().data();
    for (size_t i = 0; i < t.numel(); ++i) p[i] = lo + (hi - lo) * gen.uniform();
    return t.requires_grad_(requires_grad);
}

}  // namespace pg
