// Running aoc-rewrite (tools/rewrite) on a candidate's sources: the compiler flags of its
// kernel and host units come from the package (dtype macros of its first variant, the
// AscendC headers, the tiling header the kernel build force-includes), the answer is JSON.
// ascendopt never links clang: the rewriter is a separate process.
#pragma once
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/candidate.h"

namespace aoc::rewrite {

// What went wrong running the rewriter, phrased for the user (missing program, sources
// that do not parse with file:line, ...).
class RewriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// $AOC_REWRITE, else aoc-rewrite beside the running program, else the build tree's.
std::filesystem::path rewrite_tool_path();

struct ToolAnswer {
  int exit_code = 0;     // 0 done, 3 refused
  nlohmann::json body;   // the program's JSON
};

// command: "detect", "apply", "remove" or "pin-config"; motif may be empty for detect and
// pin-config; `options` are the command's own (pin-config: {"--config", JSON}). `sources` are
// the folders to read (and, with write, to edit in place). Throws RewriteError unless the
// program answered (exit status 0 or 3). Answers come from the build cache when the same
// question was asked of the same sources before (rewrite/answer_cache.h).
ToolAnswer run_rewrite_tool(const aoc::eval::Candidate& c, const aoc::build::SourceDirs& sources,
                            const std::string& command, const std::string& motif, bool write,
                            const std::vector<std::string>& options = {});

// How many times this process ran the rewriter (answers from the cache do not count).
uint64_t rewrite_tool_runs();

}  // namespace aoc::rewrite
