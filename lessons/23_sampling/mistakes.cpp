// mistake 1: the logits multiplied by the temperature instead of divided => multiplied by the temperature
// mistake 2: the temperature forgotten => without the temperature
// mistake 3: the cut keeps k + 1 ids (an off-by-one in the resize) => keeps k + 1 ids
// mistake 4: the softmax over all V, then zeros outside the top k, not renormalised => do not add up to 1
// mistake 5: exp of the logits without subtracting the largest => Subtract the largest logit before exp
// mistake 6: every id tied with the k-th largest logit kept (logit >= threshold) => exactly k ids are kept
// mistake 7: the running sum compared before adding p[id] (the CDF off by one) => land one id after
// mistake 8: greedy, the argmax, instead of a draw => every draw is the most likely id
// mistake 9: a new pg::Generator made inside sample_topk => draw from the gen you are given
// mistake 10: std::sort instead of std::stable_sort, so a tie at the k-th logit keeps other ids at V >= 17 => std::sort is not stable
// mistake 11: the cut made whenever k > 0, also for k >= V (ids.resize(k) adds id 0 again) => k >= V keeps all V ids
// mistake 12: the first call's probabilities kept in a static and returned ever after => your function returned for an earlier, different input
// mistake 13: the first logit subtracted before exp, logits[0], instead of the largest => you subtracted logits[0], the first logit, not the largest
// Lesson 23's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// The functions are solution.cpp's, but for the lines that ask for a mistake.
#include <algorithm>
#include <cmath>
#include <numeric>
#include "check.hpp"
using lesson::mistake;

std::vector<double> exercise::topk_probabilities(const std::vector<float>& logits, size_t k, float temperature) {
    static std::vector<double> kept;   // mistake 12: the first call's answer
    if (mistake(12) && !kept.empty()) return kept;
    const size_t V = logits.size();
    std::vector<size_t> ids(V);
    std::iota(ids.begin(), ids.end(), size_t{0});
    auto larger = [&](size_t a, size_t b) { return logits[a] > logits[b]; };
    if (mistake(10)) std::sort(ids.begin(), ids.end(), larger);
    else std::stable_sort(ids.begin(), ids.end(), larger);
    if (k > 0 && (k < V || mistake(11))) {
        size_t n = mistake(3) ? k + 1 : k;
        const float threshold = logits[ids[std::min(k, V) - 1]];
        while (mistake(6) && n < V && logits[ids[n]] >= threshold) ++n;
        ids.resize(n);
    }
    const double largest = mistake(5) ? 0.0 : mistake(13) ? logits[0] : logits[ids.front()];
    std::vector<double> p(V, 0.0);
    double sum = 0;
    for (size_t id : ids) {
        const double z = logits[id] - largest;
        sum += p[id] = std::exp(mistake(1) ? z * temperature : mistake(2) ? z : z / temperature);
    }
    if (mistake(4)) {   // the sum over all V, not over the kept ids
        sum = 0;
        for (size_t i = 0; i < V; ++i) sum += std::exp((logits[i] - largest) / temperature);
    }
    for (size_t id : ids) p[id] /= sum;
    if (mistake(12)) kept = p;
    return p;
}

int exercise::sample_topk(const std::vector<float>& logits, size_t k, float temperature, pg::Generator& gen) {
    const std::vector<double> p = topk_probabilities(logits, k, temperature);
    if (mistake(8)) return static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
    const double u = mistake(9) ? pg::Generator(23).uniform() : gen.uniform();
    double running = 0;
    for (size_t id = 0; id < p.size(); ++id) {
        if (mistake(7) && u < running) return static_cast<int>(id);
        running += p[id];
        if (!mistake(7) && u < running) return static_cast<int>(id);
    }
    for (size_t id = p.size(); id-- > 0;)
        if (p[id] > 0) return static_cast<int>(id);
    return static_cast<int>(p.size()) - 1;
}
