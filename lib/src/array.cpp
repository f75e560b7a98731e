// pg::Array's storage: an xtensor container of floats, aligned for the SIMD kernels, behind the
// Array type so that no public header needs xtensor. The one file that includes xtensor: where its
// headers live (xtensor 0.26 moved them into subfolders) is written here, and this file alone is
// compiled as C++20 when the xtensor found needs it (CMakeLists.txt, poetgrad_storage).
// Leaves out: any computing; xtensor keeps the values, the ops loop over data().
#include "pg/array.hpp"
#include <algorithm>
#include <string>
#if __has_include(<xtensor/containers/xtensor.hpp>)   // xtensor 0.26 and later
#include <xtensor/containers/xtensor.hpp>
#else                                                 // xtensor 0.24, 0.25
#include <xtensor/xtensor.hpp>
#endif

namespace pg {

struct Array::Storage {
    xt::xtensor<float, 1> values;
};

void Array::allocate(const Shape& shape) {
    size_ = numel_of(shape, "array");   // checked before anything is allocated
    shape_ = shape;
    storage_ = std::make_unique<Storage>();
    storage_->values = xt::xtensor<float, 1>::from_shape({size_});
    data_ = storage_->values.data();
}

Array::Array() = default;
Array::~Array() = default;

Array::Array(const Shape& shape, float value) {
    allocate(shape);
    std::fill(data_, data_ + size_, value);
}

Array::Array(const Shape& shape, Uninitialized) { allocate(shape); }

Array::Array(const Array& other) {
    allocate(other.shape_);
    std::copy(other.data_, other.data_ + size_, data_);
}

Array::Array(Array&& other) noexcept
    : shape_(std::move(other.shape_)), size_(other.size_), data_(other.data_), storage_(std::move(other.storage_)) {
    other.shape_ = Shape{0};
    other.size_ = 0;
    other.data_ = nullptr;
}

Array& Array::operator=(const Array& other) {
    if (this != &other) {
        if (other.size_ != size_ || !storage_) allocate(other.shape_);
        shape_ = other.shape_;
        std::copy(other.data_, other.data_ + size_, data_);
    }
    return *this;
}

Array& Array::operator=(Array&& other) noexcept {
    if (this != &other) {
        shape_ = std::move(other.shape_);
        size_ = other.size_;
        data_ = other.data_;
        storage_ = std::move(other.storage_);
        other.shape_ = Shape{0};
        other.size_ = 0;
        other.data_ = nullptr;
    }
    return *this;
}

size_t Array::offset(std::initializer_list<size_t> index) const {
    if (index.size() != shape_.size())
        throw ShapeError("Array: " + std::to_string(index.size()) + " indices for an array of shape " +
                         shape_str(shape_));
    size_t at = 0, d = 0;
    for (size_t i : index) {
        if (i >= shape_[d])
            throw ShapeError("Array: index " + std::to_string(i) + " of dim " + std::to_string(d) +
                             " is past the end of shape " + shape_str(shape_));
        at = at * shape_[d++] + i;
    }
    return at;
}

bool operator==(const Array& a, const Array& b) {
    return a.shape() == b.shape() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace pg
