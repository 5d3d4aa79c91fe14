#include "build/op_build.h"

#include <algorithm>
#include <cctype>

#include "runtime/coverage.h"

namespace aoc::build {
namespace fs = std::filesystem;

namespace {

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

}  // namespace

std::vector<std::string> dtype_macros(const aoc::package::OpPackage& p, size_t v) {
  std::vector<std::string> out;
  auto add = [&](const aoc::package::TensorSpec& t) {
    const std::string arg = upper(t.name);
    const auto& i = aoc::package::info(t.dtypes[v]);
    out.push_back("-DDTYPE_" + arg + "=" + i.cpp);
    out.push_back("-DORIG_DTYPE_" + arg + "=" + i.ge);
    out.push_back("-DFORMAT_" + arg + "=FORMAT_" + t.format);
  };
  for (const auto& t : p.inputs) add(t);
  for (const auto& t : p.outputs) add(t);
  return out;
}

BuildRequest kernel_build_request(const aoc::package::OpPackage& p, size_t variant, const SourceDirs& dirs,
                                  const fs::path& root) {
  BuildRequest r;
  r.label = p.name + " " + p.variant_label(variant) + " kernel";
  r.flags = {"-I" + (root / "include" / "ascendc").string(), "-I" + dirs.host.string(), "-I" + dirs.kernel.string()};
  // The dtype macros are the kernel's alone: as in the device build, op_host is compiled once
  // for every dtype combination, so its object is shared by all the variants of a candidate.
  std::vector<std::string> kernel_flags = dtype_macros(p, variant);
  // The kernel reads its tiling struct through GET_TILING_DATA, which finds the class
  // registered by the op_host tiling header; as in the device build, that header is
  // made visible to the kernel translation unit.
  for (const auto& h : package::kernel_tiling_headers(dirs.host, p.name))
    kernel_flags.insert(kernel_flags.end(), {"-include", h.string()});
  // Kernel code between API calls costs scalar cycles: count its basic blocks.
  kernel_flags.push_back(aoc::runtime::kernel_sources_flag({dirs.kernel.string(), dirs.host.string()}));
  // op_host does not depend on its folder's path: a kernel-only change reuses its object. It
  // starts with the host API precompiled, as the kernel starts with kernel_operator.h.
  const fs::path host_header = root / "include" / "ascendc" / "aoc" / "host" / "precompiled.h";
  for (const auto& f : package::host_cpp_files(dirs.host)) r.units.push_back({f, {}, host_header, {}, /*relocatable=*/true});
  const fs::path kernel_header = root / "include" / "ascendc" / "kernel_operator.h";
  for (const auto& f : package::cpp_files(dirs.kernel))
    r.units.push_back({f, kernel_flags, kernel_header, aoc::runtime::scalar_coverage_flags()});
  r.hash_dirs = {dirs.host, dirs.kernel};
  r.read_dirs = {p.dir};  // includes may reach the package's folder (the static check's include rules)
  return r;
}

BuildRequest golden_build_request(const aoc::package::OpPackage& p, const fs::path& root, bool same_precision) {
  BuildRequest r;
  r.label = p.name + (same_precision ? " golden (float)" : " golden");
  r.flags = {"-I" + (root / "src" / "package").string()};
  if (same_precision) r.flags.push_back("-DAOC_GOLDEN_REAL=float");
  r.units.emplace_back().source = p.golden_source();
  r.hash_files = {root / "src" / "package" / "aoc_golden.h"};
  return r;
}

}  // namespace aoc::build
