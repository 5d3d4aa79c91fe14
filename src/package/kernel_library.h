// A kernel shared object of one dtype variant, loaded: the extern "C" kernel entry
// and the TilingFunc its op_host registered with OP_ADD.
//
// Libraries stay loaded for the life of the process: g++ gives inline statics of the
// AscendC headers unique-symbol binding, which makes such libraries impossible to
// unload, and reopening one would not run its OP_ADD registration again. So each
// path is opened once and its entry points are remembered.
#pragma once
#include <filesystem>
#include <string>

#include "register/op_def.h"

namespace aoc::package {

class KernelLibrary {
 public:
  // Throws std::runtime_error with what to fix when the library cannot be loaded,
  // lacks the kernel symbol, or registered no operator of type `op_type`.
  static KernelLibrary open(const std::filesystem::path& so, const std::string& kernel_symbol,
                            const std::string& op_type);

  void* kernel() const { return kernel_; }
  gert::OpImplTilingFunc tiling() const { return tiling_; }

 private:
  void* kernel_ = nullptr;
  gert::OpImplTilingFunc tiling_ = nullptr;
};

}  // namespace aoc::package
