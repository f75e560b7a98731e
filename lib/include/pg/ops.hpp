// Every differentiable op. Shapes use one vocabulary: B batch, T time, C channels,
// NH heads, HS head size, V vocabulary, N rows. Negative dims count from the end.
// Each op checks its arguments and throws pg::ShapeError naming itself and the shapes.
#pragma once
#include <string>
#include <vector>
#include "pg/random.hpp"
#include "pg/tensor.hpp"

namespace pg {

// ---- elementwise, numpy broadcasting (lib/src/ops/elementwise.cpp) ----
Tensor add(const Tensor& a, const Tensor& b);
Tensor sub(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Tensor& b);
Tensor div(const Tensor& a, const Tensor& b);
Tensor neg(const Tensor& a);
Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a);
Tensor operator+(const Tensor& a, float s);
Tensor operator-(const Tensor& a, float s);
Tensor operator*(const Tensor& a, float s);
Tensor operator/(const Tensor& a, float s);
Tensor operator+(float s, const Tensor& a);
Tensor operator-(float s, const Tensor& a);
Tensor operator*(float s, const Tensor& a);
Tensor operator/(float s, const Tensor& a);

// ---- unary math (lib/src/ops/unary.cpp) ----
Tensor pow(const Tensor& x, float p);
Tensor exp(const Tensor& x);
Tensor log(const Tensor& x);
Tensor sqrt(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor sigmoid(const Tensor& x);
Tensor relu(const Tensor& x);
Tensor gelu(const Tensor& x);   // tanh approximation, as GPT-2

// ---- reductions (lib/src/ops/reduce.cpp) ----
Tensor sum(const Tensor& x);                                  // all elements -> shape ()
Tensor sum(const Tensor& x, long dim, bool keepdim = false);
Tensor mean(const Tensor& x);
Tensor mean(const Tensor& x, long dim, bool keepdim = false);
Tensor max(const Tensor& x);                                  // gradient to the first maximum
Tensor max(const Tensor& x, long dim, bool keepdim = false);

// ---- shape (lib/src/ops/shape_ops.cpp) ----
Tensor reshape(const Tensor& x, const Shape& shape);          // same numel; for a -1 entry use reshape_infer
Tensor reshape_infer(const Tensor& x, const std::vector<long>& shape);
Tensor transpose(const Tensor& x, long d0, long d1);
Tensor permute(const Tensor& x, const std::vector<long>& dims);
Tensor slice(const Tensor& x, long dim, long start, long end); // [start, end) along dim
Tensor index_select(const Tensor& x, long dim, const Tensor& ids); // ids 1-D, whole numbers
Tensor concat(const std::vector<Tensor>& xs, long dim);
std::vector<Tensor> chunk(const Tensor& x, size_t n, long dim); // n equal parts

// ---- linear algebra (lib/src/ops/matmul.cpp) ----
// (..., N, K) @ (..., K, M) -> (..., N, M), broadcasting over the leading dims.
Tensor matmul(const Tensor& a, const Tensor& b);
// x (..., in) @ w(out, in)^T + b (out) -> (..., out); b may be an empty Tensor().
Tensor linear(const Tensor& x, const Tensor& w, const Tensor& b);

// ---- neural-network ops (lib/src/ops/nn_ops.cpp) ----
Tensor softmax(const Tensor& x, long dim);
Tensor log_softmax(const Tensor& x, long dim);
// where mask != 0, the result is value; mask broadcasts to x's shape. No gradient to mask.
Tensor masked_fill(const Tensor& x, const Tensor& mask, float value);
// logits (N, C), targets (N) whole numbers: mean over targets != ignore_index.
Tensor cross_entropy(const Tensor& logits, const Tensor& targets, long ignore_index = -100);
// weight (V, C), ids (...) whole numbers in [0, V) -> (..., C)
Tensor embedding(const Tensor& weight, const Tensor& ids);
// normalise over the last dim, then * weight + bias (both (C)).
Tensor layer_norm(const Tensor& x, const Tensor& weight, const Tensor& bias, float eps = 1e-5f);
// zero with probability p, scale the rest by 1/(1-p); identity when !training or p == 0.
Tensor dropout(const Tensor& x, float p, bool training, Generator& gen);
void check_dropout_p(float p);   // throws std::invalid_argument unless p is in [0, 1)

// The name of every op that records a Node; tests require a gradient check for each.
const std::vector<std::string>& op_names();

}  // namespace pg
