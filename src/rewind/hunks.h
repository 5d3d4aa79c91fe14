// The hunks of an expert kernel against its package's baseline (op_kernel/ and op_host/, files
// in both), and a candidate folder of the expert with some of them reverted: what hunk
// ablation rewinds (docs/rewind.md).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace aoc::rewind {

struct Hunk {
  std::string file;                 // relative to the package: "op_kernel/relu.cpp"
  size_t base_start = 0, base_count = 0;  // 1-based line range in the baseline file
  size_t exp_start = 0, exp_count = 0;    // the same in the expert file
  std::string text;                 // the hunk as `diff -u` prints it (baseline -> expert)
};

// Every hunk of `diff -U3` between <package>/<dir>/F and <package>/expert/<dir>/F.
std::vector<Hunk> expert_hunks(const std::filesystem::path& package_dir);

// Writes the expert's op_host/ and op_kernel/ to `out` with every hunk of `group` reverted (its
// expert lines replaced by the baseline's), plus candidate.toml naming the package. The hunks
// are expert_hunks' of this package (distinct, so never overlapping). `out` must not exist.
void write_reverted(const std::filesystem::path& package_dir, const std::vector<Hunk>& group,
                    const std::filesystem::path& out);

}  // namespace aoc::rewind
