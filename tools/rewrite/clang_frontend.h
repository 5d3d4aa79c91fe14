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
  // Where kernel_operator.h, parsed once, is kept as a precompiled header for the kernel units
  // (empty: parse it with every unit), and the include folder it is found in. A unit that
  // defines a macro before including it, or whose parse with it fails, is parsed without it.
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
