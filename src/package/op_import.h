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
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace aoc::package {

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

// op_host/'s sources to compile against the AscendC headers into a shared object.
struct HostSources {
  std::string label;                          // for messages: "<name> op_host (import)"
  std::filesystem::path host, kernel;         // op_host/ and op_kernel/ (their headers are included)
  std::vector<std::filesystem::path> units;   // op_host/*.cpp
};
// The built library, or the compiler's first error when `library` is empty. Building belongs
// to the layer above packages: the caller passes its builder's (build/host_library.h).
struct HostLibrary {
  std::filesystem::path library;
  std::string first_error;
};
using HostBuild = std::function<HostLibrary(const HostSources&)>;

ImportResult import_operator(const ImportOptions& opt, const HostBuild& build);

// The generated texts, for the given folder (exposed for tests).
struct GeneratedPackage {
  ImportResult result;
  std::string op_toml, golden;
};
GeneratedPackage generate_package(const std::filesystem::path& dir, const HostBuild& build);

}  // namespace aoc::package
