// A runner fixture: the right answer from the library's pg::mul, called through a helper of the
// learner's own; the checks pass, the forbidden.txt check must fail it.
#include "check.hpp"

static pg::Tensor times_two(const pg::Tensor& w) { return pg::mul(w, pg::full({3}, 2.f)); }

pg::Tensor exercise::doubled(const pg::Tensor& w) { return times_two(w); }
