// gert::Shape and gert::StorageShape: the shapes host tiling and InferShape code read.
// gert::Shape is its own type (distinct from ge::Shape) as in the real runtime, with the
// same small interface.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "graph/types.h"

namespace gert {

class Shape {
 public:
  Shape() = default;
  Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}

  size_t GetDimNum() const { return dims_.size(); }
  int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
  Shape& SetDim(size_t i, int64_t v) {
    if (i < dims_.size()) dims_[i] = v;
    return *this;
  }
  Shape& SetDimNum(size_t n) {
    dims_.resize(n, 1);
    return *this;
  }
  Shape& AppendDim(int64_t v) {
    dims_.push_back(v);
    return *this;
  }
  bool IsScalar() const { return dims_.empty(); }
  // Product of the dimensions; 1 for a scalar, as the runtime defines it.
  int64_t GetShapeSize() const {
    int64_t n = 1;
    for (int64_t d : dims_) n *= d;
    return n;
  }
  int64_t operator[](size_t i) const { return GetDim(i); }
  int64_t& operator[](size_t i) { return dims_[i]; }
  bool operator==(const Shape& o) const { return dims_ == o.dims_; }
  bool operator!=(const Shape& o) const { return !(*this == o); }
  const std::vector<int64_t>& dims() const { return dims_; }
  ge::Shape ToGeShape() const { return ge::Shape(dims_); }

 private:
  std::vector<int64_t> dims_;
};

// Origin shape (the logical one) and storage shape (after format padding, e.g. NZ).
class StorageShape {
 public:
  StorageShape() = default;
  StorageShape(Shape origin, Shape storage) : origin_(std::move(origin)), storage_(std::move(storage)) {}
  explicit StorageShape(const Shape& both) : origin_(both), storage_(both) {}
  const Shape& GetOriginShape() const { return origin_; }
  const Shape& GetStorageShape() const { return storage_; }
  Shape& MutableOriginShape() { return origin_; }
  Shape& MutableStorageShape() { return storage_; }
  bool operator==(const StorageShape& o) const { return origin_ == o.origin_ && storage_ == o.storage_; }

 private:
  Shape origin_, storage_;
};

}  // namespace gert
