// The runner's test (test_runner.sh): a check of its own that throws while it reads the learner's
// result (the gradient of a tensor the result was not built from), so the report must say that the
// check threw, not the learner's code, and at which line.
#pragma once
#include "../../lesson.hpp"

namespace exercise {
pg::Tensor doubled(const pg::Tensor& w);  // w (3) -> 2w, built from pg ops so backward reaches w
}

int main() {
    lesson::Checks checks("03", "tensors_shapes");
    checks.run("the gradient reaches w", [] {
        pg::Tensor w = pg::ones({3}, true);
        pg::Tensor y = exercise::doubled(w);
        if (y.requires_grad()) pg::sum(y).backward();
        lesson::expect_near("w.grad()", w.grad(), pg::full({3}, 2.f), 0.0, "2w's gradient is 2");  // throws: none
    });
    return checks.finish();
}
