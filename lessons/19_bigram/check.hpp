// Lesson 19's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <string>
#include <vector>
#include "lesson.hpp"
#include "poet/bigram.hpp"
#include "poet/corpus.hpp"

namespace exercise {
// P(next | prev) with add-alpha smoothing, from a count table over V ids.
double pair_probability(const poet::BigramCounts& counts, int prev, int next, double alpha);
// The bigram's loss on records BOS k SEP poem EOS (28 ids each): the mean of -ln P over the
// predictions that carry loss, 25 per record, in nats per character. records (N, 28) -> a number
double bigram_nll(const poet::BigramCounts& counts, const std::vector<std::vector<int>>& records, double alpha);
}  // namespace exercise
