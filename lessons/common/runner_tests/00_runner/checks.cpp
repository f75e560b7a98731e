// The fixture lesson's one check: 2w and its gradient. It reads the gradient of w, so an answer
// built from plain numbers makes the check itself throw (the report must say the check threw).
#include "check.hpp"

int main() {
    lesson::Checks checks("00", "runner");
    checks.run(lesson::tr("the gradient reaches w", "梯度传到 w"), [] {
        pg::Tensor w = pg::ones({3}, true);
        pg::Tensor y = exercise::doubled(w);
        if (y.requires_grad()) pg::sum(y).backward();
        lesson::expect_near("w.grad()", w.grad(), pg::full({3}, 2.f), 0.0, "2w's gradient is 2");  // throws: none
    });
    return checks.finish();
}
