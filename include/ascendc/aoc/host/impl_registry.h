// The other way host code registers an operator's functions: IMPL_OP_OPTILING(Op).Tiling(f)
// .TilingParse<CompileInfo>(g) and IMPL_OP_INFERSHAPE(Op).InferShape(h), instead of (or besides)
// the OpDef's SetTiling / SetInferShape. The runner falls back to these entries when the OpDef
// has none.
//
// TilingParse runs once per operator on the device (at graph compile time) to fill a compile
// info struct, usually core count and UB size from the platform; TilingFunc then reads it with
// context->GetCompileInfo<T>(). Here it runs on the first GetCompileInfo of a tiling context,
// on that context's platform.
#pragma once
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "aoc/host/platform_config.h"
#include "graph/types.h"

namespace gert {
class TilingContext;
class InferShapeContext;
class InferDataTypeContext;

class TilingParseContext {
 public:
  TilingParseContext(const char* node_type, fe::PlatFormInfos* platform, void* compile_info)
      : type_(node_type), platform_(platform), info_(compile_info) {}
  const char* GetNodeType() const { return type_.c_str(); }
  const char* GetNodeName() const { return type_.c_str(); }
  fe::PlatFormInfos* GetPlatformInfo() const { return platform_; }
  template <typename T> T* GetCompiledInfo() const { return static_cast<T*>(info_); }
  // The compile-time JSON of TBE operators; AscendC operators have none.
  const char* GetCompiledJson() const { return "{}"; }

 private:
  std::string type_;
  fe::PlatFormInfos* platform_;
  void* info_;
};

using OpImplTilingParseFunc = ge::graphStatus (*)(TilingParseContext*);
}  // namespace gert

namespace aoc::host {

struct OpImplFuncs {
  ge::graphStatus (*tiling)(gert::TilingContext*) = nullptr;
  ge::graphStatus (*infer_shape)(gert::InferShapeContext*) = nullptr;
  ge::graphStatus (*infer_dtype)(gert::InferDataTypeContext*) = nullptr;
  gert::OpImplTilingParseFunc tiling_parse = nullptr;
  std::shared_ptr<void> (*make_compile_info)() = nullptr;
};

class OpImplRegistry {
 public:
  static OpImplRegistry& instance() {
    static OpImplRegistry r;
    return r;
  }
  // Merges the functions `f` sets into the entry of `type` (IMPL_OP_OPTILING and
  // IMPL_OP_INFERSHAPE of one op are separate registrations).
  void merge(const std::string& type, const OpImplFuncs& f) {
    std::lock_guard<std::mutex> g(mu_);
    OpImplFuncs& e = entries_[type];
    if (f.tiling) e.tiling = f.tiling;
    if (f.infer_shape) e.infer_shape = f.infer_shape;
    if (f.infer_dtype) e.infer_dtype = f.infer_dtype;
    if (f.tiling_parse) e.tiling_parse = f.tiling_parse;
    if (f.make_compile_info) e.make_compile_info = f.make_compile_info;
  }
  OpImplFuncs find(const std::string& type) const {
    std::lock_guard<std::mutex> g(mu_);
    auto it = entries_.find(type);
    return it == entries_.end() ? OpImplFuncs{} : it->second;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, OpImplFuncs> entries_;
};

// The builder the IMPL_OP_* macros start; every call registers what it was given.
class OpImplRegister {
 public:
  explicit OpImplRegister(const char* type) : type_(type) {}
  OpImplRegister& Tiling(ge::graphStatus (*f)(gert::TilingContext*), size_t = 0) { return add({.tiling = f}); }
  template <typename CompileInfo> OpImplRegister& TilingParse(gert::OpImplTilingParseFunc f) {
    OpImplFuncs x;
    x.tiling_parse = f;
    x.make_compile_info = [] { return std::shared_ptr<void>(std::make_shared<CompileInfo>()); };
    return add(x);
  }
  OpImplRegister& InferShape(ge::graphStatus (*f)(gert::InferShapeContext*)) { return add({.infer_shape = f}); }
  OpImplRegister& InferDataType(ge::graphStatus (*f)(gert::InferDataTypeContext*)) {
    return add({.infer_dtype = f});
  }
  // Graph-engine hints with no effect on a run.
  template <typename F> OpImplRegister& InferShapeRange(F) { return *this; }
  template <typename... A> OpImplRegister& InputsDataDependency(A&&...) { return *this; }
  template <typename... A> OpImplRegister& TilingInputsDataDependency(A&&...) { return *this; }
  // The device API's braced lists of input indices (and placements), which a template cannot deduce.
  OpImplRegister& InputsDataDependency(std::initializer_list<int32_t>) { return *this; }
  OpImplRegister& TilingInputsDataDependency(std::initializer_list<int32_t>) { return *this; }
  OpImplRegister& TilingInputsDataDependency(std::initializer_list<int32_t>, std::initializer_list<int32_t>) {
    return *this;
  }
  template <typename... A> OpImplRegister& PrivateAttr(A&&...) { return *this; }
  template <typename... A> OpImplRegister& OutputShapeDependOnCompute(A&&...) { return *this; }

 private:
  OpImplRegister& add(const OpImplFuncs& f) {
    OpImplRegistry::instance().merge(type_, f);
    return *this;
  }
  std::string type_;
};

// Runs the registered TilingParse of `type` on `platform` into a fresh compile info, or
// returns null when the operator registered none (or its TilingParse failed).
inline std::shared_ptr<void> parse_compile_info(const std::string& type, fe::PlatFormInfos* platform) {
  const OpImplFuncs f = OpImplRegistry::instance().find(type);
  if (f.tiling_parse == nullptr || f.make_compile_info == nullptr) return nullptr;
  std::shared_ptr<void> info = f.make_compile_info();
  gert::TilingParseContext ctx(type.c_str(), platform, info.get());
  return f.tiling_parse(&ctx) == ge::GRAPH_SUCCESS ? info : nullptr;
}

}  // namespace aoc::host

#define AOC_IMPL_CAT2(a, b) a##b
#define AOC_IMPL_CAT(a, b) AOC_IMPL_CAT2(a, b)
#define IMPL_OP(op_type)                                                                            \
  [[maybe_unused]] static ::aoc::host::OpImplRegister AOC_IMPL_CAT(aoc_impl_op_, __COUNTER__) = \
      ::aoc::host::OpImplRegister(#op_type)
#define IMPL_OP_OPTILING(op_type) IMPL_OP(op_type)
#define IMPL_OP_INFERSHAPE(op_type) IMPL_OP(op_type)
