// gert::InferShapeContext and gert::InferDataTypeContext: enough of the runtime's
// inference contexts for the usual InferShape / InferDataType functions of an OpDef.
// Both read a NodeDesc and collect the inferred outputs for the caller.
#pragma once
#include <vector>

#include "aoc/host/node_desc.h"
#include "graph/types.h"

namespace gert {

class InferShapeContext {
 public:
  explicit InferShapeContext(const aoc::host::NodeDesc& node, size_t outputs = 0)
      : node_(node), out_(outputs ? outputs : node.outputs().size()) {}

  const char* GetNodeName() const { return node_.name().c_str(); }
  const char* GetNodeType() const { return node_.type().c_str(); }
  size_t GetComputeNodeInputNum() const { return node_.inputs().size(); }
  size_t GetComputeNodeOutputNum() const { return out_.size(); }
  const Shape* GetInputShape(size_t i) const {
    return i < node_.inputs().size() ? &node_.inputs()[i].tensor.GetOriginShape() : nullptr;
  }
  const Tensor* GetInputTensor(size_t i) const {
    return i < node_.inputs().size() ? &node_.inputs()[i].tensor : nullptr;
  }
  const CompileTimeTensorDesc* GetInputDesc(size_t i) const {
    return i < node_.inputs().size() ? &node_.inputs()[i].tensor.desc() : nullptr;
  }
  const CompileTimeTensorDesc* GetOutputDesc(size_t i) const {
    return i < node_.outputs().size() ? &node_.outputs()[i].tensor.desc() : nullptr;
  }
  const Shape* GetOptionalInputShape(size_t ir) const {
    int k = aoc::host::find_instance(node_.inputs(), static_cast<int>(ir));
    return k < 0 ? nullptr : &node_.inputs()[k].tensor.GetOriginShape();
  }
  const Shape* GetDynamicInputShape(size_t ir, size_t relative) const {
    int k = aoc::host::find_instance(node_.inputs(), static_cast<int>(ir), relative);
    return k < 0 ? nullptr : &node_.inputs()[k].tensor.GetOriginShape();
  }
  Shape* GetOutputShape(size_t i) { return i < out_.size() ? &out_[i] : nullptr; }
  const RuntimeAttrs* GetAttrs() const { return &node_.attrs(); }

  const std::vector<Shape>& output_shapes() const { return out_; }

 private:
  const aoc::host::NodeDesc& node_;
  std::vector<Shape> out_;
};

class InferDataTypeContext {
 public:
  explicit InferDataTypeContext(const aoc::host::NodeDesc& node, size_t outputs = 0)
      : node_(node), out_(outputs ? outputs : node.outputs().size(), ge::DT_UNDEFINED) {}

  const char* GetNodeName() const { return node_.name().c_str(); }
  const char* GetNodeType() const { return node_.type().c_str(); }
  ge::DataType GetInputDataType(size_t i) const {
    return i < node_.inputs().size() ? node_.inputs()[i].tensor.GetDataType() : ge::DT_UNDEFINED;
  }
  ge::DataType GetOptionalInputDataType(size_t ir) const {
    int k = aoc::host::find_instance(node_.inputs(), static_cast<int>(ir));
    return k < 0 ? ge::DT_UNDEFINED : node_.inputs()[k].tensor.GetDataType();
  }
  ge::DataType GetDynamicInputDataType(size_t ir, size_t relative) const {
    int k = aoc::host::find_instance(node_.inputs(), static_cast<int>(ir), relative);
    return k < 0 ? ge::DT_UNDEFINED : node_.inputs()[k].tensor.GetDataType();
  }
  ge::DataType GetOutputDataType(size_t i) const { return i < out_.size() ? out_[i] : ge::DT_UNDEFINED; }
  ge::graphStatus SetOutputDataType(size_t i, ge::DataType dt) {
    if (i >= out_.size()) return ge::GRAPH_FAILED;
    out_[i] = dt;
    return ge::GRAPH_SUCCESS;
  }
  const RuntimeAttrs* GetAttrs() const { return &node_.attrs(); }

  const std::vector<ge::DataType>& output_dtypes() const { return out_; }

 private:
  const aoc::host::NodeDesc& node_;
  std::vector<ge::DataType> out_;
};

}  // namespace gert
