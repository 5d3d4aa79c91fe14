// A temporary copy of ops/elementwise/add whose kernel source is replaced: tests run
// their own kernels through the real build and the evaluator's isolated tiling, launch and
// checking path (eval/candidate_eval.h).
#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "eval/eval_test_support.h"
#include "base/file_text.h"

namespace aoc::test {

// The bytes of `p` ("" when it cannot be read).
using aoc::base::read_text;

class AddPackageCopy {
 public:
  explicit AddPackageCopy(const std::string& kernel_source) {
    static int n = 0;
    dir_ = std::filesystem::temp_directory_path() /
           ("aoc_add_copy_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    std::filesystem::copy(std::filesystem::path(AOC_SOURCE_DIR) / "ops/elementwise/add", dir_,
                          std::filesystem::copy_options::recursive);
    std::ofstream(dir_ / "op_kernel/add.cpp") << kernel_source;
  }
  ~AddPackageCopy() { std::filesystem::remove_all(dir_); }
  const std::filesystem::path& dir() const { return dir_; }

  aoc::eval::CandidateReport run(const std::string& soc, std::vector<std::string> only = {}) const {
    aoc::eval::CandidateEvalOptions opt = aoc::eval::testing::test_options(std::move(only));
    opt.seed = 7;
    opt.soc = soc;
    opt.limits.wall_seconds = 120;
    return aoc::eval::testing::evaluate_dir(dir_, opt);
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace aoc::test
