// Lesson 27's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>
#include "lesson.hpp"
#include "poet/copy_token.hpp"
#include "poet/records.hpp"
#include "poet/tokenizer.hpp"
#include "poet/val_loss.hpp"

namespace exercise {

// The record as the copy-token poet reads it: every id after SEP (positions 3 on) that equals
// k = record[1] becomes poet::Tokenizer::COPY (id 0); BOS, k at position 1, SEP and every other id
// stay. record: BOS k SEP and a poem, whole or begun (at least 3 ids) -> as many ids.
std::vector<int> mark_copies(const std::vector<int>& record);

struct CopyLoss {
    double mean = 0;      // nats per counted prediction; 0 when nothing is counted
    size_t counted = 0;   // rows whose target is not `ignore`
};

// The copy-token model's honest loss: the mean, over the rows whose target is not `ignore`, of
// -log p(target) under softmax(logits[r]), where a target COPY scores the probability the model gives
// k either way, -log(p(k) + p(COPY)) with k = ks[r], and any other target -log p(target). Computed
// from the logits (log-sum-exp) in double, stable for logits of 1000 and for rows far below 0. Every
// row ignored: {0, 0}.
// logits (N,V), targets (N), ks (N) -> CopyLoss
CopyLoss copy_loss(const pg::Tensor& logits, const pg::Tensor& targets, const pg::Tensor& ks, long ignore);

}  // namespace exercise
