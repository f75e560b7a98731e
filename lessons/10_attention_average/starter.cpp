// Lesson 10 exercise: attention as a weighted average of earlier positions' values. `./poet start 10`
// copies this file to exercise.cpp; write attend_past there, then `./poet check 10`.
#include "check.hpp"

pg::Tensor exercise::attend_past(const pg::Tensor& scores, const pg::Tensor& v) {
    // T = scores.size(0), C = v.size(1); for each position t:
    //   w_j = exp(scores[t][j] - m) / (sum of them), for j = 0..t only, m the largest of those scores
    //   out[t][c] = sum over j = 0..t of w_j * v[j][c]
    // read the numbers with scores.ptr()[t * T + j] and v.ptr()[j * C + c];
    // return pg::tensor(values, {T, C})
    throw lesson::NotImplemented("exercise::attend_past");
}
