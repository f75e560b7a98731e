// The Tensor handle: float32, row-major, any rank, shared storage, an optional autograd node.
// Leaves out: other dtypes, devices, strided views (ops that reshape copy when they must).
#pragma once
#include <memory>
#include <vector>
#include <xtensor/xarray.hpp>
#include "pg/shape.hpp"

namespace pg {

using Array = xt::xarray<float>;
struct Node;

// What a Tensor handle points to. Copies of a Tensor share one TensorImpl.
struct TensorImpl {
    Array data;                  // the values
    Shape shape;                 // data's shape, stored so shape() hands out a reference
    Array grad;                  // d(loss)/d(data) after backward, valid when has_grad
    bool has_grad = false;
    bool requires_grad = false;  // leaf that wants a gradient, or result of such
    bool retains_grad = false;   // keep grad on a non-leaf after backward
    std::shared_ptr<Node> grad_fn;  // how this tensor was made; null for leaves
};

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
    Array& mutable_data();                       // in-place edits of the values (never the shape), outside the graph
    const float* ptr() const;

    // autograd
    bool requires_grad() const;
    Tensor& requires_grad_(bool on = true);      // only on leaves
    bool has_grad() const;
    Tensor grad() const;                         // a new tensor holding a copy of the gradient
    const Array& grad_data() const;
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

    const std::shared_ptr<TensorImpl>& impl() const { return impl_; }
    bool same_as(const Tensor& other) const { return impl_ == other.impl_; }

private:
    std::shared_ptr<TensorImpl> impl_;
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
