// The runner's own fixture lesson (test_runner.sh): one exercise function, whose answers in this
// folder crash, hang or throw, so that `./poet check` is tested without touching a real lesson.
#pragma once
#include "lesson.hpp"

namespace exercise {
pg::Tensor doubled(const pg::Tensor& w);  // w (3) -> 2w, built from pg ops so backward reaches w
}  // namespace exercise
