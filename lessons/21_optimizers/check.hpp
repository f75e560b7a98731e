// Lesson 21's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cmath>
#include <cstdio>
#include <memory>
#include "lesson.hpp"

namespace exercise {
// What AdamW remembers between steps: PyTorch's state["exp_avg"], state["exp_avg_sq"], state["step"].
struct AdamWState {
    std::vector<pg::Tensor> m, v;   // m[i], v[i]: params[i]'s shape, zeros before the first step
    size_t t = 0;                   // the steps taken so far
};
// One AdamW step, as torch.optim.AdamW: for each params[i], with g = params[i].grad(), update
// state.m[i] and state.v[i], then params[i] in place (decay and Adam update); state.t counts the step.
// params[i] any shape; state.m[i], state.v[i] the same shape
void adamw_step(std::vector<pg::Tensor>& params, AdamWState& state, const pg::optim::AdamWOptions& opt);
}  // namespace exercise
