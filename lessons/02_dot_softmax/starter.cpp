// Lesson 02 exercise: a numerically stable softmax. `./poet start 2` copies this file to
// exercise.cpp; write stable_softmax there, then `./poet check 2`.
#include "check.hpp"

pg::Tensor exercise::stable_softmax(const pg::Tensor& x) {
    // C = x.size(-1); for each row of C numbers in x.ptr():
    //   m = the row's maximum;  e_j = exp(x_j - m);  y_j = e_j / (sum of the row's e)
    // then return pg::tensor(values, x.shape())
    throw lesson::NotImplemented("exercise::stable_softmax");
}
