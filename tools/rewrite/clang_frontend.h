// Parses an operator's kernel and host translation units with clang and fills a KernelModel.
// The only part of the rewriter that includes clang headers.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "kernel_model.h"

namespace clang {
class ASTConsumer;
class CompilerInstance;
}  // namespace clang

namespace aoc::rewrite {

// The file's real path (links resolved), or `path` itself when it does not resolve.
std::string real_path(const std::string& path);

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
  // Extra flags of each build variant of the kernel units (the dtype macros of each variant):
  // run_pass parses the kernel units once per variant, since each variant compiles other code.
  // Empty: one parse with kernel_flags alone.
  std::vector<std::vector<std::string>> kernel_variants;
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

// Another analysis over the same parses (the API check): makes each unit's AST consumer.
class UnitPass {
 public:
  virtual ~UnitPass() = default;
  // `kernel`: a kernel unit (else a host unit). Called before the unit is parsed, so the pass
  // may watch the preprocessor too.
  virtual std::unique_ptr<clang::ASTConsumer> consumer(clang::CompilerInstance& ci, bool kernel) = 0;
  // A parse is thrown away and done again without the precompiled headers when they fail:
  // called before each attempt so the pass starts clean.
  virtual void reset() = 0;
};

// Parses every unit (kernel units once per variant) with the precompiled prefixes of
// parse_sources and runs `pass` on each; returns clang's errors (empty on success).
std::vector<ParseError> run_pass(const ParseInput& in, UnitPass& pass);

}  // namespace aoc::rewrite
