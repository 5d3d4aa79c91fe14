// `ascendopt import DIR`: turns an operator folder in the msopgen layout (op_host/<op>.cpp with
// the OpDef and TilingFunc, op_host/<op>_tiling.h, op_kernel/<op>.cpp with the extern "C" kernel)
// into an operator package: an op.toml generated from the OpDef as the op_host code itself
// registers it (inputs, outputs, dtype variants, formats, attributes with their defaults, kernel
// symbol) and a golden.cpp template for the user to complete.
//
// The OpDef is read by building op_host/*.cpp against the AscendC headers and loading the
// library: OP_ADD records the description exactly as written, whatever helper functions or
// macros the host code uses to spell it.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "eval/builder.h"

namespace aoc::imp {

struct ImportOptions {
  std::filesystem::path dir;  // the operator folder
  std::filesystem::path out;  // where op.toml and golden.cpp go (default: dir)
  bool force = false;         // overwrite an existing op.toml / golden.cpp
};

struct ImportResult {
  std::string name;     // package name: the file stem of op_host/<name>.cpp
  std::string op_type;  // the OpDef's type
  std::string kernel;   // the extern "C" kernel symbol
  std::filesystem::path op_toml, golden;
  std::vector<std::string> notes;  // what the user should check (skipped dtypes, optional inputs ...)
};

// Thrown with a message that says what is wrong and what to do.
class ImportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

ImportResult import_operator(const ImportOptions& opt, aoc::eval::Builder& builder);

// The generated texts, for the given folder (exposed for tests).
struct GeneratedPackage {
  ImportResult result;
  std::string op_toml, golden;
};
GeneratedPackage generate_package(const std::filesystem::path& dir, aoc::eval::Builder& builder);

}  // namespace aoc::imp
