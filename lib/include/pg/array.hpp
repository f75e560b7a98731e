// pg::Array: a block of float32 values and its shape, row-major: what a Tensor holds as its values
// and its gradient, and what a backward receives and returns. Copying an Array copies the values.
// Leaves out: arithmetic (the ops in pg/ops.hpp do it on Tensors), strides and views. The storage
// is xtensor's, behind this type (lib/src/array.cpp), so no public header needs xtensor.
#pragma once
#include <cstddef>
#include <initializer_list>
#include <memory>
#include "pg/shape.hpp"

namespace pg {

class Array {
public:
    struct Uninitialized {};
    static constexpr Uninitialized uninitialized{};

    Array();                                          // shape (0): no values
    explicit Array(const Shape& shape, float value = 0.f);  // every value `value` (zeros by default)
    Array(const Shape& shape, Uninitialized);         // values left unset: the caller writes every one
    Array(const Array& other);
    Array(Array&& other) noexcept;
    Array& operator=(const Array& other);
    Array& operator=(Array&& other) noexcept;
    ~Array();

    const Shape& shape() const { return shape_; }
    size_t dim() const { return shape_.size(); }
    size_t size() const { return size_; }             // the product of the shape: 1 for shape ()
    float* data() { return data_; }
    const float* data() const { return data_; }
    float* begin() { return data_; }
    float* end() { return data_ + size_; }
    const float* begin() const { return data_; }
    const float* end() const { return data_ + size_; }

    // The element at a full index, row-major: a(i, j) of an (N, C) array is data()[i * C + j].
    // Throws ShapeError for the wrong number of indices or one past its dim.
    template <class... Index>
    float& operator()(Index... index) { return data_[offset({static_cast<size_t>(index)...})]; }
    template <class... Index>
    float operator()(Index... index) const { return data_[offset({static_cast<size_t>(index)...})]; }

private:
    struct Storage;
    size_t offset(std::initializer_list<size_t> index) const;
    void allocate(const Shape& shape);

    Shape shape_{0};
    size_t size_ = 0;
    float* data_ = nullptr;             // into storage_, cached: every loop reads it
    std::unique_ptr<Storage> storage_;
};

// The same shape and every value equal (so an array holding NaN is never equal, not even to itself).
bool operator==(const Array& a, const Array& b);
inline bool operator!=(const Array& a, const Array& b) { return !(a == b); }

// A tensor's values to write in place: the same number of floats, never a new shape
// (Tensor::mutable_data, Tensor::mutable_grad). Indexing as Array's.
class MutableValues {
public:
    explicit MutableValues(Array& array) : array_(&array) {}
    float* data() const { return array_->data(); }
    size_t size() const { return array_->size(); }
    const Shape& shape() const { return array_->shape(); }
    float* begin() const { return array_->begin(); }
    float* end() const { return array_->end(); }
    template <class... Index>
    float& operator()(Index... index) const { return (*array_)(index...); }

private:
    Array* array_;
};

}  // namespace pg
