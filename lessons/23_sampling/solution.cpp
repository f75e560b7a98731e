// Lesson 23 solution: top-k sampling with temperature, as poet::sample_token does it, written out:
// the k largest logits, a stable softmax of logits / T over them, one uniform draw and the inverse CDF.
// Leaves out: the allowed set (the poet's masks), greedy decoding (T = 0).
#include <algorithm>
#include <cmath>
#include <numeric>
#include "check.hpp"

std::vector<double> exercise::topk_probabilities(const std::vector<float>& logits, size_t k, float temperature) {
    const size_t V = logits.size();
    // the ids, larger logit first; stable, so at a tie the smaller id comes first
    std::vector<size_t> ids(V);
    std::iota(ids.begin(), ids.end(), size_t{0});
    std::stable_sort(ids.begin(), ids.end(), [&](size_t a, size_t b) { return logits[a] > logits[b]; });
    if (k > 0 && k < V) ids.resize(k);
    // softmax of logits / T over the kept ids; subtracting the largest logit keeps exp in (0, 1]
    const double largest = logits[ids.front()];
    std::vector<double> p(V, 0.0);
    double sum = 0;
    for (size_t id : ids) sum += p[id] = std::exp((logits[id] - largest) / temperature);
    for (size_t id : ids) p[id] /= sum;
    return p;
}

int exercise::sample_topk(const std::vector<float>& logits, size_t k, float temperature, pg::Generator& gen) {
    const std::vector<double> p = topk_probabilities(logits, k, temperature);
    const double u = gen.uniform();   // one draw in [0, 1)
    double running = 0;
    for (size_t id = 0; id < p.size(); ++id) {
        running += p[id];
        if (u < running) return static_cast<int>(id);
    }
    // rounding left the sum a hair below u: the last id with mass
    for (size_t id = p.size(); id-- > 0;)
        if (p[id] > 0) return static_cast<int>(id);
    return static_cast<int>(p.size()) - 1;
}
