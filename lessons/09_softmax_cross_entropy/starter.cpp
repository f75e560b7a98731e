// Lesson 09 exercise: cross-entropy's forward and gradient with loops. `./poet start 9` copies this
// file to exercise.cpp; write cross_entropy there, then `./poet check 9`.
#include <cmath>
#include "check.hpp"

exercise::LossAndGrad exercise::cross_entropy(const pg::Tensor& logits, const pg::Tensor& targets, long ignore_index) {
    // N = logits.size(0), C = logits.size(1); logits.ptr()[r * C + c] is z[r][c], targets.ptr()[r]
    // row r's target (a whole number, or ignore_index). For each row whose target is not ignore_index:
    //   m = the row's max; logsumexp = m + log(sum_c exp(z[r][c] - m)); loss += logsumexp - z[r][target]
    //   grad[r][c] = exp(z[r][c] - logsumexp) (that is softmax), minus 1 at the target
    // Then divide the loss and every gradient entry by the number of rows that counted, and return
    // {loss, pg::tensor(grad, {N, C})} with grad a std::vector<float> of N * C, zero in ignored rows.
    throw lesson::NotImplemented("exercise::cross_entropy");
}
