// Lesson 11 reference solution: three matmuls of the same input, and the library's fused form,
// one linear map then chunk(3) along the last dim.
#include "check.hpp"

QKV exercise::solve(const pg::Tensor& x, const pg::Tensor& wq, const pg::Tensor& wk, const pg::Tensor& wv) {
    return QKV{pg::matmul(x, wq), pg::matmul(x, wk), pg::matmul(x, wv)};  // (..., T, C) @ (C, HS)
}

QKV exercise::fused_qkv(const pg::Tensor& x, const pg::Tensor& weight, const pg::Tensor& bias) {
    std::vector<pg::Tensor> parts = pg::chunk(pg::linear(x, weight, bias), 3, -1);  // (..., 3D) -> 3 x (..., D)
    return QKV{parts[0], parts[1], parts[2]};
}
