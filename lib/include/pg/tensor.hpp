// The Tensor handle: float32, row-major, any rank, shared storage, an optional autograd node.
// Leaves out: other dtypes, devices, strided views (ops that reshape copy when they must).
#pragma once
#include <memory>
#include <vector>
#include "pg/array.hpp"
#include "pg/shape.hpp"

namespace pg {

struct Node;
namespace detail {
struct TensorAccess;   // the engine's way in (lib/src/tensor_state.hpp)
}

// Copies of a Tensor share one state: its values, gradient and history (lib/src/tensor_state.hpp).
class Tensor {
public:
    Tensor();                                    // an empty 0-element tensor of shape (0)
    explicit Tensor(Array data, bool requires_grad = false);

    // shape and values
    const Shape& shape() const;                  // a reference: t.shape().begin() and .end() are one vector
    size_t dim() const;
    size_t numel() const;
    size_t size(long dim) const;                 // negative dims count from the end
    float item() const;                          // the one value of a 1-element tensor
    std::vector<float> to_vector() const;        // flat row-major copy
    const Array& data() const;
    MutableValues mutable_data();                // in-place edits of the values (never the shape), outside the graph
    const float* ptr() const;

    // autograd
    bool requires_grad() const;
    Tensor& requires_grad_(bool on = true);      // only on leaves
    bool has_grad() const;
    Tensor grad() const;                         // a new tensor holding a copy of the gradient
    const Array& grad_data() const;
    void set_grad(Array grad);                   // a gradient of this tensor's shape, replacing any (data-parallel sums)
    MutableValues mutable_grad();                // in-place edits of the gradient (clipping); it must exist
    void zero_grad();                            // forget the gradient (explicit, never automatic)
    void retain_grad();                          // keep the gradient of a non-leaf
    bool is_leaf() const;
    const std::shared_ptr<Node>& grad_fn() const;
    void backward(bool retain_graph = false) const;                     // scalar only
    void backward(const Tensor& grad_output, bool retain_graph = false) const;
    Tensor detach() const;                       // same values (copied), no history
    Tensor& copy_(const Tensor& src);            // overwrite values in place, no graph

    // method forms of common ops (defined in ops)
    Tensor matmul(const Tensor& other) const;
    Tensor sum(long dim, bool keepdim = false) const;
    Tensor sum() const;
    Tensor mean(long dim, bool keepdim = false) const;
    Tensor mean() const;
    Tensor reshape(const Shape& s) const;
    Tensor transpose(long d0, long d1) const;

    bool same_as(const Tensor& other) const { return state_ == other.state_; }

private:
    struct State;
    friend struct detail::TensorAccess;
    std::shared_ptr<State> state_;
};

// Construction. Nested initializer lists give the shape; (values, shape) is flat row-major.
Tensor tensor(const std::vector<float>& values, const Shape& shape, bool requires_grad = false);
// {1, 2, 3} -> (3). A template only so that a column such as {{1}, {2}}, which C++ could also read
// as two one-element floats, goes to the (N,C) overload below instead of being ambiguous.
// (Blocks of single values, {{{1}}, {{2}}}, stay ambiguous: use (values, shape) for those.)
template <class = void>
Tensor tensor(std::initializer_list<float> v) { return tensor(std::vector<float>(v), Shape{v.size()}); }
Tensor tensor(std::initializer_list<std::initializer_list<float>> v);
Tensor tensor(std::initializer_list<std::initializer_list<std::initializer_list<float>>> v);
Tensor scalar(float v, bool requires_grad = false);   // shape () — a 0-d tensor
Tensor zeros(const Shape& s, bool requires_grad = false);
Tensor ones(const Shape& s, bool requires_grad = false);
Tensor full(const Shape& s, float v, bool requires_grad = false);
Tensor zeros_like(const Tensor& t);
Tensor arange(size_t n);                              // 0, 1, ..., n-1
Tensor eye(size_t n);

}  // namespace pg
