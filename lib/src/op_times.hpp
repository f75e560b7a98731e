// PG_OP_TIMES=1 in the environment: the wall time of every op, forward and backward, summed over
// the run and printed to stderr at exit, largest first: where a training step's time goes, op by op.
// An op's forward time is the time since the previous op finished: its own computing plus what the
// caller did in between (cheap in a model's forward). The first op after a backward is not timed,
// so that the optimizer step and the next batch are not charged to it. A backward pass begins with
// the first backward after a forward. The engine knows nothing of this: the op table's record()
// reports each forward and wraps each backward (autograd.cpp, attach).
// Leaves out: ops called by several threads at once (their times interleave), nesting.
#pragma once
#include <string>
#include "pg/autograd.hpp"

namespace pg::detail::op_times {

bool enabled();                                        // read once from PG_OP_TIMES
void forward_done(const char* op);                     // record(): op's forward has just finished
BackwardFn timed(const std::string& op, BackwardFn backward);   // the backward, timed when it runs

}  // namespace pg::detail::op_times
