// The train/test split of the operator suite for the experience bank (data/bank_split.toml,
// docs/bank.md): train operators have an expert kernel that rewinding mines; test operators
// have none and are never mined, so the bank's help on them is measured on unseen kernels.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace aoc::bank {

struct Split {
  std::vector<std::string> train, test;  // package paths relative to ops/ ("elementwise/add")
};

std::filesystem::path default_split_file();  // <source root>/data/bank_split.toml
std::filesystem::path suite_root();          // <source root>/ops
// Throws std::runtime_error naming the file and the problem.
Split read_split(const std::filesystem::path& file);

}  // namespace aoc::bank
