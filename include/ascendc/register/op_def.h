// ops::OpDef: the operator prototype msopgen host files declare (inputs, outputs, attrs,
// inference functions, AI Core tiling function and SoC configs). Everything is recorded so
// the harness can enumerate an op's dtypes/formats, attribute defaults and run its tiling.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "aoc/host/infer_context.h"
#include "aoc/host/runtime_attrs.h"
#include "aoc/host/tiling_context.h"
#include "graph/types.h"

namespace ge {
class Operator;  // only passed by reference to check-support callbacks
}  // namespace ge

namespace gert {
using OpImplTilingFunc = ge::graphStatus (*)(TilingContext*);
using OpImplInferShapeFunc = ge::graphStatus (*)(InferShapeContext*);
using OpImplInferDataTypeFunc = ge::graphStatus (*)(InferDataTypeContext*);
}  // namespace gert

namespace ops {

enum Option : int32_t { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };

class OpParamDef {
 public:
  explicit OpParamDef(std::string name = {}) : name_(std::move(name)) {}
  OpParamDef& ParamType(Option o) { param_type_ = o; return *this; }
  OpParamDef& DataType(std::vector<ge::DataType> v) { dtypes_ = std::move(v); return *this; }
  OpParamDef& DataTypeList(std::vector<ge::DataType> v) { dtypes_ = std::move(v); return *this; }
  OpParamDef& Format(std::vector<ge::Format> v) { formats_ = std::move(v); return *this; }
  OpParamDef& FormatList(std::vector<ge::Format> v) { formats_ = std::move(v); return *this; }
  OpParamDef& UnknownShapeFormat(std::vector<ge::Format> v) { unknown_shape_formats_ = std::move(v); return *this; }
  OpParamDef& ValueDepend(Option o) { value_depend_ = o; return *this; }
  OpParamDef& IgnoreContiguous() { return *this; }
  OpParamDef& AutoContiguous() { return *this; }
  OpParamDef& Scalar() { scalar_ = true; return *this; }
  OpParamDef& ScalarList() { scalar_ = true; return *this; }
  OpParamDef& InitValue(uint64_t v) { init_value_ = v; return *this; }
  OpParamDef& OutputShapeDependOnCompute() { return *this; }

  const std::string& name() const { return name_; }
  Option param_type() const { return param_type_; }
  const std::vector<ge::DataType>& dtypes() const { return dtypes_; }
  const std::vector<ge::Format>& formats() const { return formats_; }
  Option value_depend() const { return value_depend_; }
  bool scalar() const { return scalar_; }

 private:
  std::string name_;
  Option param_type_ = REQUIRED;
  std::vector<ge::DataType> dtypes_;
  std::vector<ge::Format> formats_, unknown_shape_formats_;
  Option value_depend_ = IGNORE;
  bool scalar_ = false;
  uint64_t init_value_ = 0;
};

class OpAttrDef {
 public:
  explicit OpAttrDef(std::string name = {}) : name_(std::move(name)) {}
  OpAttrDef& AttrType(Option o) { attr_type_ = o; return *this; }
  OpAttrDef& Int(int64_t v = 0) { default_ = v; return *this; }
  OpAttrDef& Float(float v = 0) { default_ = v; return *this; }
  OpAttrDef& Bool(bool v = false) { default_ = v; return *this; }
  OpAttrDef& String(const char* v = "") { default_ = std::string(v); return *this; }
  OpAttrDef& ListInt(std::vector<int64_t> v = {}) { default_ = std::move(v); return *this; }
  OpAttrDef& ListFloat(std::vector<float> v = {}) { default_ = std::move(v); return *this; }
  OpAttrDef& ListBool(std::vector<bool> v = {}) {
    default_ = std::vector<uint8_t>(v.begin(), v.end());
    return *this;
  }
  OpAttrDef& ListListInt(std::vector<std::vector<int64_t>> v = {}) { default_ = std::move(v); return *this; }
  OpAttrDef& Version(uint32_t) { return *this; }
  OpAttrDef& Comment(const char*) { return *this; }

  const std::string& name() const { return name_; }
  Option attr_type() const { return attr_type_; }
  // The declared default (Int/Float/...); an attribute declared without one holds int64 0.
  const gert::RuntimeAttrs::Value& default_value() const { return default_; }

 private:
  std::string name_;
  Option attr_type_ = OPTIONAL;
  gert::RuntimeAttrs::Value default_ = int64_t{0};
};

// Inputs/outputs in declaration order, found or added by name.
class OpParamList {
 public:
  OpParamDef& get(const char* name) {
    for (auto& p : params_)
      if (p.name() == name) return p;
    params_.emplace_back(name);
    return params_.back();
  }
  const std::vector<OpParamDef>& all() const { return params_; }

 private:
  std::vector<OpParamDef> params_;
};

class OpAICoreConfig {
 public:
  OpAICoreConfig() = default;
  explicit OpAICoreConfig(const char*) {}
  OpParamDef& Input(const char* name) { return inputs_.get(name); }
  OpParamDef& Output(const char* name) { return outputs_.get(name); }
  OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
  OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
  OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
  OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
  OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
  OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
  OpAICoreConfig& ExtendCfgInfo(const char* key, const char* value) {
    extend_[key] = value;
    return *this;
  }
  const OpParamList& inputs() const { return inputs_; }
  const OpParamList& outputs() const { return outputs_; }

 private:
  OpParamList inputs_, outputs_;
  std::map<std::string, std::string> extend_;
};

class OpAICoreDef {
 public:
  using CheckSupportFunc = ge::graphStatus (*)(const ge::Operator&, ge::AscendString&);
  using OpSelectFormatFunc = ge::graphStatus (*)(const ge::Operator&, ge::AscendString&);

  OpAICoreDef& SetTiling(gert::OpImplTilingFunc f) { tiling_ = f; return *this; }
  OpAICoreDef& SetCheckSupport(CheckSupportFunc) { return *this; }
  OpAICoreDef& SetOpSelectFormat(OpSelectFormatFunc) { return *this; }
  OpAICoreDef& AddConfig(const char* soc) {
    configs_[soc] = OpAICoreConfig{};
    return *this;
  }
  OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig& cfg) {
    configs_[soc] = cfg;
    return *this;
  }

  gert::OpImplTilingFunc tiling() const { return tiling_; }
  const std::map<std::string, OpAICoreConfig>& configs() const { return configs_; }

 private:
  gert::OpImplTilingFunc tiling_ = nullptr;
  std::map<std::string, OpAICoreConfig> configs_;
};

class OpDef {
 public:
  // Not polymorphic on purpose: the registry keeps a copy of the base part, so nothing it
  // holds refers to code of an op library that may be unloaded later.
  explicit OpDef(const char* type) : type_(type) {}

  OpParamDef& Input(const char* name) { return inputs_.get(name); }
  OpParamDef& Output(const char* name) { return outputs_.get(name); }
  OpAttrDef& Attr(const char* name) {
    for (auto& a : attrs_)
      if (a.name() == name) return a;
    attrs_.emplace_back(name);
    return attrs_.back();
  }
  OpDef& SetInferShape(gert::OpImplInferShapeFunc f) { infer_shape_ = f; return *this; }
  template <typename F>
  OpDef& SetInferShapeRange(F) { return *this; }
  OpDef& SetInferDataType(gert::OpImplInferDataTypeFunc f) { infer_dtype_ = f; return *this; }
  OpAICoreDef& AICore() { return aicore_; }
  ge::AscendString& GetOpType() { return type_; }

  // Read access for the harness.
  const char* type() const { return type_.GetString(); }
  const std::vector<OpParamDef>& inputs() const { return inputs_.all(); }
  const std::vector<OpParamDef>& outputs() const { return outputs_.all(); }
  const std::vector<OpAttrDef>& attrs() const { return attrs_; }
  gert::OpImplInferShapeFunc infer_shape() const { return infer_shape_; }
  gert::OpImplInferDataTypeFunc infer_dtype() const { return infer_dtype_; }
  const OpAICoreDef& aicore() const { return aicore_; }

  // Attribute values in declaration order: the declared defaults, with `overrides`
  // (by attribute name) taking their place.
  gert::RuntimeAttrs attrs_with(const std::map<std::string, gert::RuntimeAttrs::Value>& overrides = {}) const {
    gert::RuntimeAttrs out;
    for (const auto& a : attrs_) {
      auto it = overrides.find(a.name());
      out.Append(it != overrides.end() ? it->second : a.default_value());
    }
    return out;
  }

 private:
  ge::AscendString type_;
  OpParamList inputs_, outputs_;
  std::vector<OpAttrDef> attrs_;
  gert::OpImplInferShapeFunc infer_shape_ = nullptr;
  gert::OpImplInferDataTypeFunc infer_dtype_ = nullptr;
  OpAICoreDef aicore_;
};

}  // namespace ops
