// A kernel shared object of one dtype variant, loaded: the extern "C" kernel entry
// and the TilingFunc its op_host registered with OP_ADD.
#pragma once
#include <filesystem>
#include <string>

#include "register/op_def.h"

namespace aoc::op {

class KernelLibrary {
 public:
  KernelLibrary() = default;
  KernelLibrary(const KernelLibrary&) = delete;
  KernelLibrary& operator=(const KernelLibrary&) = delete;
  KernelLibrary(KernelLibrary&& o) noexcept { *this = std::move(o); }
  KernelLibrary& operator=(KernelLibrary&& o) noexcept;
  ~KernelLibrary();

  // Throws std::runtime_error with what to fix when the library cannot be loaded,
  // lacks the kernel symbol, or registered no operator of type `op_type`.
  static KernelLibrary open(const std::filesystem::path& so, const std::string& kernel_symbol,
                            const std::string& op_type);

  void* kernel() const { return kernel_; }
  gert::OpImplTilingFunc tiling() const { return tiling_; }
  const ::ops::OpDef* def() const { return def_; }

 private:
  void close();
  void* handle_ = nullptr;
  void* kernel_ = nullptr;
  gert::OpImplTilingFunc tiling_ = nullptr;
  const ::ops::OpDef* def_ = nullptr;
  std::string op_type_;
};

}  // namespace aoc::op
