// Lesson 24's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>
#include "lesson.hpp"
#include "poet/records.hpp"
#include "poet/val_loss.hpp"

namespace exercise {

struct Loss {
    double mean = 0;      // nats per counted prediction; 0 when nothing is counted
    size_t counted = 0;   // rows whose target is not `ignore`
};

// Mean cross-entropy -log softmax(logits[r])[targets[r]] over the rows whose target is not `ignore`,
// computed stably from the logits (log-sum-exp), in double. Every row ignored: {0, 0}.
// logits (N,V), targets (N) -> Loss
Loss masked_cross_entropy(const pg::Tensor& logits, const std::vector<int>& targets, int ignore);

// The validation loss of B records (BOS k SEP poem EOS, 28 ids each) under the model: inputs
// record[0:27] (B,T), targets record[1:28] with the targets k and SEP (t = 0 and 1) ignored, the
// logits (B,T,V) seen as (B*T,V), then masked_cross_entropy. Without gradients.
Loss records_loss(pg::nn::GPT& gpt, const std::vector<std::vector<int>>& records);

}  // namespace exercise
