// A temporary copy of ops/elementwise/add whose kernel source is replaced: tests run
// their own kernels through the real build, tiling, launch and checking path.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "eval/evaluator.h"
#include "ops/op_package.h"

namespace aoc::test {

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

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

  aoc::eval::OpReport run(const std::string& soc, std::vector<std::string> only = {}) const {
    static aoc::eval::Builder builder(aoc::eval::default_builder_options());
    aoc::eval::EvalOptions opt;
    opt.seed = 7;
    opt.soc = soc;
    opt.only_cases = std::move(only);
    return aoc::eval::evaluate_package(aoc::op::load_op_package(dir_), builder, opt);
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace aoc::test
