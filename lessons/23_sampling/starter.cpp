// Lesson 23 exercise: top-k sampling with temperature. `./poet start 23` copies this file to
// exercise.cpp; write topk_probabilities and sample_topk there, then `./poet check 23`.
// Leaves out: the poet's masks and greedy decoding (T = 0): the experiment shows those.
#include <algorithm>
#include <cmath>
#include <numeric>
#include "check.hpp"

std::vector<double> exercise::topk_probabilities(const std::vector<float>& logits, size_t k, float temperature) {
    // 1. the ids 0 .. V - 1 sorted by logit, larger first (std::stable_sort: a tie keeps the smaller id first)
    // 2. keep the first k of them (k = 0 or k >= V: keep all)
    // 3. p[id] = exp((logits[id] - largest) / temperature) for the kept ids, 0 for the rest
    // 4. divide the kept ones by their sum
    throw lesson::NotImplemented("exercise::topk_probabilities");
}

int exercise::sample_topk(const std::vector<float>& logits, size_t k, float temperature, pg::Generator& gen) {
    // 1. p = topk_probabilities(logits, k, temperature)
    // 2. u = gen.uniform(), once
    // 3. walk ids 0, 1, ...: add p[id] to a running sum; return the first id where u < sum
    throw lesson::NotImplemented("exercise::sample_topk");
}
