// What a Tensor handle points to, known only inside the library: copies of a Tensor share one
// State. TensorAccess is the engine's way in (autograd.cpp, the op table's record).
// Leaves out: anything a caller could change outside the Tensor's own methods.
#pragma once
#include <memory>
#include "pg/autograd.hpp"
#include "pg/tensor.hpp"

namespace pg {

struct Tensor::State {
    Array data;                     // the values; data.shape() is the tensor's shape
    Array grad;                     // d(loss)/d(data) after backward, valid when has_grad
    bool has_grad = false;
    bool requires_grad = false;     // leaf that wants a gradient, or result of such
    bool retains_grad = false;      // keep grad on a non-leaf after backward
    std::shared_ptr<Node> grad_fn;  // how this tensor was made; null for leaves
};

namespace detail {

struct TensorAccess {
    using State = Tensor::State;
    static State& of(const Tensor& t) { return *t.state_; }
    static State* ptr(const Tensor& t) { return t.state_.get(); }
    static long use_count(const Tensor& t) { return t.state_.use_count(); }
};

}  // namespace detail
}  // namespace pg
