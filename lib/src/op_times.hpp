// PG_OP_TIMES=1 in the environment: the wall time of every op, forward and backward, summed over
// the run and printed to stderr at exit, largest first: where a training step's time goes, op by op.
// An op's forward time is the time since the previous op finished: its own computing plus what the
// caller did in between (cheap in a model's forward). The first op after a backward is not timed,
// so that the optimizer step and the next batch are not charged to it.
// Leaves out: ops called by several threads at once (their times interleave), nesting.
#pragma once
#include <chrono>
#include <string>

namespace pg::detail::op_times {

using Clock = std::chrono::steady_clock;

bool enabled();                                        // read once from PG_OP_TIMES
void forward_done(const char* op);                     // make_result: op's forward has just finished
void backward_done(const std::string& op, Clock::time_point start);   // its backward ran since start
void backward_pass_done();                             // the end of one run_backward

}  // namespace pg::detail::op_times
