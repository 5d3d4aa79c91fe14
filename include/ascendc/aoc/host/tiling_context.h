// gert::TilingContext: what a TilingFunc reads (shapes, dtypes, attrs, platform) and
// writes (tiling bytes, block dim, tiling key, workspace sizes). Built from a NodeDesc.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "aoc/host/impl_registry.h"
#include "aoc/host/node_desc.h"
#include "aoc/host/platform_config.h"
#include "graph/types.h"

namespace gert {

// The raw tiling buffer the TilingFunc serialises into.
class TilingData {
 public:
  explicit TilingData(size_t capacity = 64 * 1024) : bytes_(capacity, 0) {}
  void* GetData() { return bytes_.data(); }
  const void* GetData() const { return bytes_.data(); }
  size_t GetCapacity() const { return bytes_.size(); }
  size_t GetDataSize() const { return size_; }
  void SetDataSize(size_t n) { size_ = n; }
  // Appends one value after the bytes written so far.
  template <typename T>
  ge::graphStatus Append(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (size_ + sizeof(T) > bytes_.size()) return ge::GRAPH_FAILED;
    std::memcpy(bytes_.data() + size_, &v, sizeof(T));
    size_ += sizeof(T);
    return ge::GRAPH_SUCCESS;
  }

 private:
  std::vector<uint8_t> bytes_;
  size_t size_ = 0;
};

class ComputeNodeInfo {
 public:
  explicit ComputeNodeInfo(const aoc::host::NodeDesc* node) : node_(node) {}
  const char* GetNodeName() const { return node_->name().c_str(); }
  const char* GetNodeType() const { return node_->type().c_str(); }
  size_t GetInputsNum() const { return node_->inputs().size(); }
  size_t GetOutputsNum() const { return node_->outputs().size(); }
  const CompileTimeTensorDesc* GetInputTdInfo(size_t i) const {
    return i < node_->inputs().size() ? &node_->inputs()[i].tensor.desc() : nullptr;
  }
  const CompileTimeTensorDesc* GetOutputTdInfo(size_t i) const {
    return i < node_->outputs().size() ? &node_->outputs()[i].tensor.desc() : nullptr;
  }

 private:
  const aoc::host::NodeDesc* node_;
};

class TilingContext {
 public:
  explicit TilingContext(aoc::host::NodeDesc node, aoc::host::PlatformConfig platform = aoc::host::current_platform(),
                         size_t tiling_capacity = 64 * 1024)
      : node_(std::move(node)), info_(&node_), platform_(std::move(platform)), raw_(tiling_capacity) {}
  TilingContext(const TilingContext&) = delete;
  TilingContext& operator=(const TilingContext&) = delete;

  // Node.
  const char* GetNodeName() const { return node_.name().c_str(); }
  const char* GetNodeType() const { return node_.type().c_str(); }
  const ComputeNodeInfo* GetComputeNodeInfo() const { return &info_; }
  size_t GetComputeNodeInputNum() const { return node_.inputs().size(); }
  size_t GetInputsNum() const { return node_.inputs().size(); }
  size_t GetOutputsNum() const { return node_.outputs().size(); }

  // Inputs and outputs, by instance index.
  const StorageShape* GetInputShape(size_t i) const { return shape(node_.inputs(), i); }
  const StorageShape* GetOutputShape(size_t i) const { return shape(node_.outputs(), i); }
  const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return info_.GetInputTdInfo(i); }
  const CompileTimeTensorDesc* GetOutputDesc(size_t i) const { return info_.GetOutputTdInfo(i); }
  const Tensor* GetInputTensor(size_t i) const {
    return i < node_.inputs().size() ? &node_.inputs()[i].tensor : nullptr;
  }
  // By IR index (the OpDef's declaration order): optional and dynamic inputs.
  const StorageShape* GetOptionalInputShape(size_t ir) const {
    int k = aoc::host::find_instance(node_.inputs(), static_cast<int>(ir));
    return k < 0 ? nullptr : &node_.inputs()[k].tensor.GetShape();
  }
  const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const {
    int k = aoc::host::find_instance(node_.inputs(), static_cast<int>(ir));
    return k < 0 ? nullptr : &node_.inputs()[k].tensor.desc();
  }
  const Tensor* GetOptionalInputTensor(size_t ir) const {
    int k = aoc::host::find_instance(node_.inputs(), static_cast<int>(ir));
    return k < 0 ? nullptr : &node_.inputs()[k].tensor;
  }
  const StorageShape* GetDynamicInputShape(size_t ir, size_t relative) const {
    int k = aoc::host::find_instance(node_.inputs(), static_cast<int>(ir), relative);
    return k < 0 ? nullptr : &node_.inputs()[k].tensor.GetShape();
  }
  const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t relative) const {
    int k = aoc::host::find_instance(node_.inputs(), static_cast<int>(ir), relative);
    return k < 0 ? nullptr : &node_.inputs()[k].tensor.desc();
  }
  const Tensor* GetDynamicInputTensor(size_t ir, size_t relative) const {
    int k = aoc::host::find_instance(node_.inputs(), static_cast<int>(ir), relative);
    return k < 0 ? nullptr : &node_.inputs()[k].tensor;
  }

  const RuntimeAttrs* GetAttrs() const { return &node_.attrs(); }
  // Const, as the device declares it: tiling code calls it through a const context.
  fe::PlatFormInfos* GetPlatformInfo() const { return const_cast<fe::PlatFormInfos*>(&platform_); }
  // What the operator's TilingParse (IMPL_OP_OPTILING(...).TilingParse<T>) computed; null
  // when it registered none.
  template <typename T> const T* GetCompileInfo() { return static_cast<const T*>(GetCompileInfo()); }
  const void* GetCompileInfo() {
    if (!compile_info_) compile_info_ = aoc::host::parse_compile_info(node_.type(), &platform_);
    return compile_info_.get();
  }

  // Outputs of the tiling function.
  TilingData* GetRawTilingData() { return &raw_; }
  // Standard-C++ tiling structs live directly in the raw buffer.
  template <typename T>
  T* GetTilingData() {
    static_assert(std::is_trivially_copyable_v<T>, "GetTilingData: tiling structs must be plain data");
    if (sizeof(T) > raw_.GetCapacity()) return nullptr;
    if (raw_.GetDataSize() < sizeof(T)) raw_.SetDataSize(sizeof(T));
    return reinterpret_cast<T*>(raw_.GetData());
  }
  ge::graphStatus SetBlockDim(uint32_t n) { block_dim_ = n; return ge::GRAPH_SUCCESS; }
  uint32_t GetBlockDim() const { return block_dim_; }
  ge::graphStatus SetTilingKey(uint64_t k) { tiling_key_ = k; return ge::GRAPH_SUCCESS; }
  uint64_t GetTilingKey() const { return tiling_key_; }
  size_t* GetWorkspaceSizes(size_t n) {
    if (workspace_.size() < n) workspace_.resize(n, 0);
    return workspace_.data();
  }
  size_t GetWorkspaceNum() const { return workspace_.size(); }
  const std::vector<size_t>& workspace_sizes() const { return workspace_; }
  ge::graphStatus SetScheduleMode(uint32_t m) { schedule_mode_ = m; return ge::GRAPH_SUCCESS; }
  uint32_t GetScheduleMode() const { return schedule_mode_; }
  ge::graphStatus SetNeedAtomic(bool b) { need_atomic_ = b; return ge::GRAPH_SUCCESS; }
  bool NeedAtomic() const { return need_atomic_; }
  int32_t GetDeterministic() const { return deterministic_; }
  void set_deterministic(int32_t d) { deterministic_ = d; }

  const aoc::host::NodeDesc& node() const { return node_; }

 private:
  static const StorageShape* shape(const std::vector<aoc::host::TensorSlot>& s, size_t i) {
    return i < s.size() ? &s[i].tensor.GetShape() : nullptr;
  }

  aoc::host::NodeDesc node_;
  ComputeNodeInfo info_;
  fe::PlatFormInfos platform_;
  TilingData raw_;
  uint32_t block_dim_ = 0;
  uint64_t tiling_key_ = 0;
  std::vector<size_t> workspace_;
  uint32_t schedule_mode_ = 0;
  bool need_atomic_ = false;
  int32_t deterministic_ = 0;
  std::shared_ptr<void> compile_info_;
};

}  // namespace gert
