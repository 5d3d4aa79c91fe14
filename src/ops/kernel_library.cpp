#include "ops/kernel_library.h"

#include <dlfcn.h>

#include <stdexcept>

#include "aoc/host/op_registry.h"

namespace aoc::op {

KernelLibrary& KernelLibrary::operator=(KernelLibrary&& o) noexcept {
  std::swap(handle_, o.handle_);
  std::swap(kernel_, o.kernel_);
  std::swap(tiling_, o.tiling_);
  std::swap(def_, o.def_);
  std::swap(op_type_, o.op_type_);
  return *this;
}

KernelLibrary::~KernelLibrary() { close(); }

void KernelLibrary::close() {
  if (handle_ == nullptr) return;
  // The OpDef registered by this library lives in its code; drop it before unloading
  // so the registry never holds a pointer into unmapped memory.
  auto& reg = aoc::host::OpRegistry::instance();
  if (def_ != nullptr && reg.find(op_type_) == def_) reg.remove(op_type_);
  dlclose(handle_);
  handle_ = nullptr;
}

KernelLibrary KernelLibrary::open(const std::filesystem::path& so, const std::string& kernel_symbol,
                                  const std::string& op_type) {
  KernelLibrary k;
  k.op_type_ = op_type;
  // Loading runs the library's OP_ADD registration, which replaces any earlier
  // variant of the same op type in the registry; read it right away.
  k.handle_ = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (k.handle_ == nullptr) throw std::runtime_error("cannot load kernel library " + so.string() + ": " + dlerror());
  k.kernel_ = dlsym(k.handle_, kernel_symbol.c_str());
  if (k.kernel_ == nullptr)
    throw std::runtime_error("the kernel library has no symbol '" + kernel_symbol +
                             "': declare the kernel as extern \"C\" __global__ __aicore__ void " + kernel_symbol +
                             "(...) in op_kernel/, or set kernel = \"...\" in op.toml");
  k.def_ = aoc::host::OpRegistry::instance().find(op_type);
  if (k.def_ == nullptr)
    throw std::runtime_error("op_host/ registered no operator '" + op_type + "': add OP_ADD(" + op_type +
                             ") to op_host/, or set op_type = \"...\" in op.toml to the registered name");
  k.tiling_ = const_cast<::ops::OpDef*>(k.def_)->AICore().tiling();
  if (k.tiling_ == nullptr)
    throw std::runtime_error("operator '" + op_type + "' has no tiling function: call this->AICore().SetTiling(...)");
  return k;
}

}  // namespace aoc::op
