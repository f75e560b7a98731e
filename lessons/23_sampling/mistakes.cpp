// mistake 1: the logits multiplied by the temperature instead of divided => multiplied by the temperature
// mistake 2: the temperature forgotten => without the temperature
// mistake 3: the cut keeps k + 1 ids (an off-by-one in the resize) => keeps k + 1 ids
// mistake 4: the softmax over all V, then zeros outside the top k, not renormalised => do not add up to 1
// mistake 5: exp of the logits without subtracting the largest => Subtract the largest logit before exp
// mistake 6: every id tied with the k-th largest logit kept (logit >= threshold) => exactly k ids are kept
// mistake 7: the running sum compared before adding p[id] (the CDF off by one) => land one id after
// mistake 8: greedy, the argmax, instead of a draw => every draw is the most likely id
// mistake 9: a new pg::Generator made inside sample_topk => draw from the gen you are given
// Lesson 23's plausible wrong answers, each built as lesson_23_mistake_N (-DMISTAKE=N); every one must
// fail the checks with the hint above. The functions are solution.cpp's, but for the lines marked.
#include <algorithm>
#include <cmath>
#include <numeric>
#include "check.hpp"

std::vector<double> exercise::topk_probabilities(const std::vector<float>& logits, size_t k, float temperature) {
    const size_t V = logits.size();
    std::vector<size_t> ids(V);
    std::iota(ids.begin(), ids.end(), size_t{0});
    std::stable_sort(ids.begin(), ids.end(), [&](size_t a, size_t b) { return logits[a] > logits[b]; });
#if MISTAKE == 3
    if (k > 0 && k < V) ids.resize(k + 1);
#elif MISTAKE == 6
    if (k > 0 && k < V) {
        const float threshold = logits[ids[k - 1]];
        size_t n = k;
        while (n < V && logits[ids[n]] >= threshold) ++n;
        ids.resize(n);
    }
#else
    if (k > 0 && k < V) ids.resize(k);
#endif
#if MISTAKE != 5
    const double largest = logits[ids.front()];
#endif
    std::vector<double> p(V, 0.0);
    double sum = 0;
#if MISTAKE == 1
    for (size_t id : ids) sum += p[id] = std::exp((logits[id] - largest) * temperature);
#elif MISTAKE == 2
    for (size_t id : ids) sum += p[id] = std::exp(logits[id] - largest);
#elif MISTAKE == 4
    for (size_t i = 0; i < V; ++i) sum += std::exp((logits[i] - largest) / temperature);
    for (size_t id : ids) p[id] = std::exp((logits[id] - largest) / temperature);
#elif MISTAKE == 5
    for (size_t id : ids) sum += p[id] = std::exp(static_cast<double>(logits[id]) / temperature);
#else
    for (size_t id : ids) sum += p[id] = std::exp((logits[id] - largest) / temperature);
#endif
    for (size_t id : ids) p[id] /= sum;
    return p;
}

int exercise::sample_topk(const std::vector<float>& logits, size_t k, float temperature, pg::Generator& gen) {
    const std::vector<double> p = topk_probabilities(logits, k, temperature);
#if MISTAKE == 8
    return static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
#endif
#if MISTAKE == 9
    pg::Generator own(23);
    const double u = own.uniform();
#else
    const double u = gen.uniform();
#endif
    double running = 0;
    for (size_t id = 0; id < p.size(); ++id) {
#if MISTAKE == 7
        if (u < running) return static_cast<int>(id);
        running += p[id];
#else
        running += p[id];
        if (u < running) return static_cast<int>(id);
#endif
    }
    for (size_t id = p.size(); id-- > 0;)
        if (p[id] > 0) return static_cast<int>(id);
    return static_cast<int>(p.size()) - 1;
}
