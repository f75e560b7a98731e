// Lesson 11 exercise: Q, K and V from one input. `./poet start 11` copies this file to
// exercise.cpp; write solve and fused_qkv there, then `./poet check 11`.
#include "check.hpp"

QKV exercise::solve(const pg::Tensor& x, const pg::Tensor& wq, const pg::Tensor& wk, const pg::Tensor& wv) {
    // q = x @ wq, k = x @ wk, v = x @ wv  (pg::matmul broadcasts over x's leading dims)
    // return QKV{q, k, v};
    throw lesson::NotImplemented("exercise::solve");
}

QKV exercise::fused_qkv(const pg::Tensor& x, const pg::Tensor& weight, const pg::Tensor& bias) {
    // all = x @ weight^T + bias, (..., 3D): one pg op does exactly this
    // split all into 3 equal parts along the last dim: q, k, v
    throw lesson::NotImplemented("exercise::fused_qkv");
}
