// Tensor handles and construction. A Tensor is a shared pointer to one State (tensor_state.hpp),
// so copies are cheap and see the same values and gradient. Leaves out: the ops (lib/src/ops/).
#include "pg/tensor.hpp"
#include <cmath>
#include "pg/autograd.hpp"
#include "pg/ops.hpp"
#include "tensor_state.hpp"

namespace pg {

Tensor::Tensor() : Tensor(Array()) {}

Tensor::Tensor(Array data, bool requires_grad) : state_(std::make_shared<State>()) {
    state_->data = std::move(data);
    state_->requires_grad = requires_grad;
}

const Shape& Tensor::shape() const { return state_->data.shape(); }
size_t Tensor::dim() const { return state_->data.dim(); }
size_t Tensor::numel() const { return state_->data.size(); }
size_t Tensor::size(long d) const { return shape()[normalize_dim(d, dim(), "size")]; }
const Array& Tensor::data() const { return state_->data; }
MutableValues Tensor::mutable_data() { return MutableValues(state_->data); }
const float* Tensor::ptr() const { return state_->data.data(); }

float Tensor::item() const {
    if (numel() != 1) throw ShapeError("item: tensor of shape " + shape_str(shape()) + " has " +
                                       std::to_string(numel()) + " elements, not 1");
    return state_->data.data()[0];
}

std::vector<float> Tensor::to_vector() const {
    return std::vector<float>(state_->data.data(), state_->data.data() + numel());
}

bool Tensor::requires_grad() const { return state_->requires_grad; }
Tensor& Tensor::requires_grad_(bool on) {
    if (!is_leaf()) throw std::logic_error("requires_grad_: only a leaf tensor (not an op result) can change it");
    state_->requires_grad = on;
    return *this;
}
bool Tensor::has_grad() const { return state_->has_grad; }
Tensor Tensor::grad() const {
    if (!state_->has_grad)
        throw std::logic_error("grad: this tensor has no gradient yet (call backward on a result "
                               "that depends on it; it must require grad)");
    return Tensor(state_->grad);
}
const Array& Tensor::grad_data() const {
    if (!state_->has_grad)
        throw std::logic_error("grad_data: this tensor has no gradient yet (call backward on a result that depends on "
                               "it, or check has_grad() first)");
    return state_->grad;
}
void Tensor::set_grad(Array grad) {
    if (grad.shape() != shape())
        throw ShapeError("set_grad: a gradient of shape " + shape_str(grad.shape()) + " for a tensor of shape " +
                         shape_str(shape()));
    state_->grad = std::move(grad);
    state_->has_grad = true;
}
MutableValues Tensor::mutable_grad() {
    if (!state_->has_grad)
        throw std::logic_error("mutable_grad: this tensor has no gradient yet (call backward on a result that depends "
                               "on it, or check has_grad() first)");
    return MutableValues(state_->grad);
}
void Tensor::zero_grad() {
    state_->grad = Array();
    state_->has_grad = false;
}
void Tensor::retain_grad() { state_->retains_grad = true; }
bool Tensor::is_leaf() const { return state_->grad_fn == nullptr; }
const std::shared_ptr<Node>& Tensor::grad_fn() const { return state_->grad_fn; }

void Tensor::backward(bool retain_graph) const {
    if (numel() != 1)
        throw ShapeError("backward: called on a tensor of shape " + shape_str(shape()) +
                         "; only a 1-element result has an implied gradient (pass grad_output)");
    run_backward(*this, Array(shape(), 1.f), retain_graph);
}

void Tensor::backward(const Tensor& grad_output, bool retain_graph) const {
    if (grad_output.shape() != shape())
        throw ShapeError("backward: grad_output " + shape_str(grad_output.shape()) + " does not match the tensor's " +
                         shape_str(shape()));
    run_backward(*this, grad_output.data(), retain_graph);
}

Tensor Tensor::detach() const { return Tensor(state_->data); }

Tensor& Tensor::copy_(const Tensor& src) {
    if (src.shape() != shape())
        throw ShapeError("copy_: source " + shape_str(src.shape()) + " does not match destination " + shape_str(shape()));
    std::copy(src.ptr(), src.ptr() + numel(), state_->data.data());
    return *this;
}

Tensor Tensor::matmul(const Tensor& o) const { return pg::matmul(*this, o); }
Tensor Tensor::sum(long d, bool keep) const { return pg::sum(*this, d, keep); }
Tensor Tensor::sum() const { return pg::sum(*this); }
Tensor Tensor::mean(long d, bool keep) const { return pg::mean(*this, d, keep); }
Tensor Tensor::mean() const { return pg::mean(*this); }
Tensor Tensor::reshape(const Shape& s) const { return pg::reshape(*this, s); }
Tensor Tensor::transpose(long d0, long d1) const { return pg::transpose(*this, d0, d1); }

// ---- construction ----

Tensor tensor(const std::vector<float>& values, const Shape& shape, bool requires_grad) {
    if (values.size() != numel_of(shape, "tensor"))
        throw ShapeError("tensor: " + std::to_string(values.size()) + " values do not fill shape " + shape_str(shape) +
                         " (" + std::to_string(numel_of(shape)) + " elements)");
    Array a(shape, Array::uninitialized);
    std::copy(values.begin(), values.end(), a.data());
    return Tensor(std::move(a), requires_grad);
}

Tensor tensor(std::initializer_list<std::initializer_list<float>> v) {
    std::vector<float> flat;
    size_t cols = v.size() ? v.begin()->size() : 0;
    for (auto& row : v) {
        if (row.size() != cols) throw ShapeError("tensor: ragged nested list: rows of " + std::to_string(cols) +
                                                 " and " + std::to_string(row.size()) + " values");
        flat.insert(flat.end(), row.begin(), row.end());
    }
    return tensor(flat, {v.size(), cols});
}

Tensor tensor(std::initializer_list<std::initializer_list<std::initializer_list<float>>> v) {
    std::vector<float> flat;
    Shape inner;
    for (auto& m : v) {
        Tensor t = tensor(m);
        if (!inner.empty() && t.shape() != inner)
            throw ShapeError("tensor: ragged nested list: blocks of " + shape_str(inner) + " and " + shape_str(t.shape()));
        inner = t.shape();
        std::vector<float> f = t.to_vector();
        flat.insert(flat.end(), f.begin(), f.end());
    }
    Shape s{v.size()};
    s.insert(s.end(), inner.begin(), inner.end());
    if (inner.empty()) s = {0};
    return tensor(flat, s);
}

Tensor scalar(float v, bool requires_grad) {
    return Tensor(Array({}, v), requires_grad);
}
Tensor full(const Shape& s, float v, bool rg) {
    numel_of(s, "zeros/ones/full");   // a shape too large names these, not the array
    return Tensor(Array(s, v), rg);
}
Tensor zeros(const Shape& s, bool rg) { return full(s, 0.f, rg); }
Tensor ones(const Shape& s, bool rg) { return full(s, 1.f, rg); }
Tensor zeros_like(const Tensor& t) { return zeros(t.shape()); }
Tensor arange(size_t n) {
    Tensor t = zeros({n});
    for (size_t i = 0; i < n; ++i) t.mutable_data().data()[i] = static_cast<float>(i);
    return t;
}
Tensor eye(size_t n) {
    Tensor t = zeros({n, n});
    for (size_t i = 0; i < n; ++i) t.mutable_data().data()[i * n + i] = 1.f;
    return t;
}

}  // namespace pg
