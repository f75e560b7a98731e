// Lesson 01 exercise: self-attention with plain loops. `./poet start 1` copies this file to
// exercise.cpp; write attention_loops there, then `./poet check 1`.
#include "check.hpp"

Matrix exercise::attention_loops(const Matrix& q, const Matrix& k, const Matrix& v) {
    // 1. scores[i][j] = (q[i] . k[j]) / sqrt(d_k),  d_k = q[0].size()
    // 2. weights[i] = softmax(scores[i]): subtract the row's max, exp, divide by the row's sum
    // 3. out[i][d] = sum over j of weights[i][j] * v[j][d]
    throw lesson::NotImplemented("exercise::attention_loops");
}
