// Description of one operator node as host code sees it: type and name, input and output
// tensors (shape, dtype, format, optionally the data of value-dependent inputs) and the
// attributes. The harness fills one from an operator case, then builds the TilingContext
// and the InferShape / InferDataType contexts from it.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "aoc/host/runtime_attrs.h"
#include "aoc/host/shape.h"
#include "graph/types.h"

namespace gert {

struct StorageFormat {
  ge::Format origin = ge::FORMAT_ND;
  ge::Format storage = ge::FORMAT_ND;
  ge::Format GetOriginFormat() const { return origin; }
  ge::Format GetStorageFormat() const { return storage; }
};

// What is known about a tensor at compile time: dtype and format.
class CompileTimeTensorDesc {
 public:
  CompileTimeTensorDesc() = default;
  CompileTimeTensorDesc(ge::DataType dt, StorageFormat fmt) : dtype_(dt), format_(fmt) {}
  ge::DataType GetDataType() const { return dtype_; }
  ge::Format GetOriginFormat() const { return format_.origin; }
  ge::Format GetStorageFormat() const { return format_.storage; }
  const StorageFormat& GetFormat() const { return format_; }
  void SetDataType(ge::DataType dt) { dtype_ = dt; }

 private:
  ge::DataType dtype_ = ge::DT_FLOAT;
  StorageFormat format_;
};

// A runtime tensor: shape, dtype, and (for value-dependent inputs) host data.
class Tensor {
 public:
  Tensor() = default;
  Tensor(StorageShape shape, CompileTimeTensorDesc desc, const void* data)
      : shape_(std::move(shape)), desc_(desc), data_(data) {}
  const StorageShape& GetShape() const { return shape_; }
  const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
  const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
  int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
  ge::DataType GetDataType() const { return desc_.GetDataType(); }
  ge::Format GetStorageFormat() const { return desc_.GetStorageFormat(); }
  ge::Format GetOriginFormat() const { return desc_.GetOriginFormat(); }
  const CompileTimeTensorDesc& desc() const { return desc_; }
  const void* GetAddr() const { return data_; }
  template <typename T>
  const T* GetData() const { return static_cast<const T*>(data_); }
  size_t GetSize() const {
    int s = ge::GetSizeByDataType(desc_.GetDataType());
    return s > 0 ? static_cast<size_t>(GetShapeSize() * s) : 0;
  }

 private:
  StorageShape shape_;
  CompileTimeTensorDesc desc_;
  const void* data_ = nullptr;
};

}  // namespace gert

namespace aoc::host {

struct TensorSlot {
  gert::Tensor tensor;    // shape, desc and optional data
  int ir_index = -1;      // position among the OpDef's inputs/outputs; -1 = its own position
};

class NodeDesc {
 public:
  NodeDesc() = default;
  explicit NodeDesc(std::string type) : type_(type), name_(std::move(type)) {}

  NodeDesc& Type(std::string t) { type_ = std::move(t); return *this; }
  NodeDesc& Name(std::string n) { name_ = std::move(n); return *this; }
  NodeDesc& Input(const gert::StorageShape& s, ge::DataType dt, ge::Format fmt = ge::FORMAT_ND,
                  const void* data = nullptr, int ir_index = -1) {
    inputs_.push_back(slot(s, dt, fmt, data, ir_index, inputs_.size()));
    return *this;
  }
  NodeDesc& Input(const gert::Shape& s, ge::DataType dt, ge::Format fmt = ge::FORMAT_ND) {
    return Input(gert::StorageShape(s), dt, fmt);
  }
  NodeDesc& Output(const gert::StorageShape& s, ge::DataType dt, ge::Format fmt = ge::FORMAT_ND, int ir_index = -1) {
    outputs_.push_back(slot(s, dt, fmt, nullptr, ir_index, outputs_.size()));
    return *this;
  }
  NodeDesc& Output(const gert::Shape& s, ge::DataType dt, ge::Format fmt = ge::FORMAT_ND) {
    return Output(gert::StorageShape(s), dt, fmt);
  }
  // Attributes in OpDef order.
  NodeDesc& Attrs(gert::RuntimeAttrs all) { attrs_ = std::move(all); return *this; }
  // One attribute, appended in OpDef order: integers are stored as int64, floating point as
  // float, strings as std::string, lists as vectors.
  template <typename T>
  NodeDesc& Attr(const T& v) {
    if constexpr (std::is_same_v<T, bool>) attrs_.Append(v);
    else if constexpr (std::is_integral_v<T>) attrs_.Append(static_cast<int64_t>(v));
    else if constexpr (std::is_floating_point_v<T>) attrs_.Append(static_cast<float>(v));
    else if constexpr (std::is_convertible_v<T, std::string>) attrs_.Append(std::string(v));
    else attrs_.Append(gert::RuntimeAttrs::Value(v));
    return *this;
  }

  const std::string& type() const { return type_; }
  const std::string& name() const { return name_; }
  const std::vector<TensorSlot>& inputs() const { return inputs_; }
  const std::vector<TensorSlot>& outputs() const { return outputs_; }
  std::vector<TensorSlot>& mutable_outputs() { return outputs_; }
  const gert::RuntimeAttrs& attrs() const { return attrs_; }

 private:
  static TensorSlot slot(const gert::StorageShape& s, ge::DataType dt, ge::Format fmt, const void* data, int ir,
                         size_t pos) {
    return TensorSlot{gert::Tensor(s, gert::CompileTimeTensorDesc(dt, gert::StorageFormat{fmt, fmt}), data),
                      ir >= 0 ? ir : static_cast<int>(pos)};
  }

  std::string type_, name_;
  std::vector<TensorSlot> inputs_, outputs_;
  gert::RuntimeAttrs attrs_;
};

// Instance index of the `relative`-th tensor of IR slot `ir`, or -1.
inline int find_instance(const std::vector<TensorSlot>& slots, int ir, size_t relative = 0) {
  size_t seen = 0;
  for (size_t i = 0; i < slots.size(); ++i)
    if (slots[i].ir_index == ir && seen++ == relative) return static_cast<int>(i);
  return -1;
}

}  // namespace aoc::host
