// Lesson 19 exercise: the bigram's loss in nats per character. `./poet start 19` copies this file to
// exercise.cpp; write pair_probability and bigram_nll there, then `./poet check 19`.
#include "check.hpp"

double exercise::pair_probability(const poet::BigramCounts& counts, int prev, int next, double alpha) {
    // add-alpha smoothing: (count(prev, next) + alpha) / (row_total(prev) + alpha * V),
    // with V = counts.vocab_size()
    throw lesson::NotImplemented("exercise::pair_probability");
}

double exercise::bigram_nll(const poet::BigramCounts& counts, const std::vector<std::vector<int>>& records,
                            double alpha) {
    // each record is BOS k SEP poem EOS (28 ids); the predictions that carry loss are
    // record[t] -> record[t+1] for t = 2 .. 26 (SEP -> poem[0] up to poem[23] -> EOS), 25 per record
    // add up -ln P over all of them (natural log, in double) and divide by how many there are
    throw lesson::NotImplemented("exercise::bigram_nll");
}
