// Parses an operator's kernel and host translation units with clang and fills a KernelModel.
// The only part of the rewriter that includes clang headers.
#pragma once
#include <string>
#include <vector>

#include "kernel_model.h"

namespace aoc::rewrite {

struct ParseInput {
  std::vector<std::string> kernel_files;  // kernel translation units (.cpp)
  std::vector<std::string> host_files;    // host tiling translation units (.cpp)
  std::vector<std::string> kernel_flags;  // compiler flags of the kernel units (-I, -D, -include ...)
  std::vector<std::string> host_flags;
  std::vector<std::string> editable_roots;  // only files under these folders are operator sources
  // Where the units' common headers, parsed once, are kept as precompiled headers (kernel
  // units: kernel_operator.h; host units: register/op_def_registry.h and
  // tiling/platform/platform_ascendc.h; empty: parse them with every unit), and the include
  // folder they are found in. Units that define a macro before including them, or whose parse
  // with them fails, are parsed without them.
  std::string pch_dir;
  std::string pch_include_dir;
};

struct ParseError {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string message;
};

// Fills `model`; returns the errors clang reported (empty on success). Never throws on
// source errors: a source clang cannot parse is reported, with its file and line.
std::vector<ParseError> parse_sources(const ParseInput& in, KernelModel& model);

}  // namespace aoc::rewrite
