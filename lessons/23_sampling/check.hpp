// Lesson 23's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>
#include "lesson.hpp"
#include "poet/decode.hpp"

namespace exercise {
// Probabilities (V) that top-k sampling at this temperature gives each id: softmax(logits / T) over
// the k largest logits, zero elsewhere. Exactly k ids are kept: at a tie at the k-th largest logit
// the smaller id stays. k = 0 or k >= V keeps all V; T must be > 0.
std::vector<double> topk_probabilities(const std::vector<float>& logits, size_t k, float temperature);
// One id in [0, V) drawn from those probabilities with exactly one gen.uniform() draw u: the inverse
// CDF, walking ids 0, 1, ..., V - 1 and returning the first whose running sum of probabilities
// exceeds u.
int sample_topk(const std::vector<float>& logits, size_t k, float temperature, pg::Generator& gen);
}  // namespace exercise
