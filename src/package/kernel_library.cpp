#include "package/kernel_library.h"

#include <dlfcn.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

#include "aoc/host/op_registry.h"

namespace aoc::package {

KernelLibrary KernelLibrary::open(const std::filesystem::path& so, const std::string& kernel_symbol,
                                  const std::string& op_type) {
  static std::mutex mu;
  static std::map<std::tuple<std::string, std::string, std::string>, KernelLibrary> loaded;
  std::lock_guard<std::mutex> g(mu);
  const auto key = std::make_tuple(so.string(), kernel_symbol, op_type);
  if (auto it = loaded.find(key); it != loaded.end()) return it->second;

  KernelLibrary k;
  // Loading runs the library's OP_ADD registration, which replaces (and destroys) any
  // earlier variant's OpDef of the same op type; only the tiling function pointer,
  // which points into this library's code, is kept.
  void* handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) throw std::runtime_error("cannot load kernel library " + so.string() + ": " + dlerror());
  k.kernel_ = dlsym(handle, kernel_symbol.c_str());
  if (k.kernel_ == nullptr)
    throw std::runtime_error("the kernel library has no symbol '" + kernel_symbol +
                             "': declare the kernel as extern \"C\" __global__ __aicore__ void " + kernel_symbol +
                             "(...) in op_kernel/, or set kernel = \"...\" in op.toml");
  const ::ops::OpDef* def = aoc::host::OpRegistry::instance().find(op_type);
  const aoc::host::OpImplFuncs impl = aoc::host::OpImplRegistry::instance().find(op_type);
  if (def == nullptr && impl.tiling == nullptr)
    throw std::runtime_error("op_host/ registered no operator '" + op_type + "': add OP_ADD(" + op_type +
                             ") to op_host/, or set op_type = \"...\" in op.toml to the registered name");
  if (def != nullptr) k.tiling_ = const_cast<::ops::OpDef*>(def)->AICore().tiling();
  if (k.tiling_ == nullptr) k.tiling_ = impl.tiling;  // IMPL_OP_OPTILING(...).Tiling(f)
  if (k.tiling_ == nullptr)
    throw std::runtime_error("operator '" + op_type +
                             "' has no tiling function: call this->AICore().SetTiling(...) in its OpDef or "
                             "register IMPL_OP_OPTILING(" + op_type + ").Tiling(...)");
  loaded.emplace(key, k);
  return k;
}

}  // namespace aoc::package
