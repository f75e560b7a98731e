// Lesson 22's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <string>
#include <vector>
#include "lesson.hpp"
#include "poet/corpus.hpp"
#include "poet/model.hpp"
#include "poet/records.hpp"
#include "poet/train.hpp"

namespace exercise {
// One training step: set the optimizer's learning rate to lr, compute the batch's loss
// (poet::batch_loss: inputs (B,T) -> logits (B,T,V) -> mean cross-entropy), and unless that loss
// is NaN or infinite: zero the gradients, backward, clip their joint norm to `clip`, opt.step().
// Returns the loss, computed before the update (also when it is not finite).
float train_step(pg::nn::GPT& gpt, pg::optim::Optimizer& opt, const poet::Batch& batch, float lr, float clip);
}  // namespace exercise
