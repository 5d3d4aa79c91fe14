// The bank's train/test split (data/bank_split.toml) covers the whole suite: every package once,
// train exactly the packages with an expert kernel. A package added or given an expert without
// the split regenerated would otherwise be mined or measured on the wrong side.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "bank/split.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;

namespace {

struct SuitePackages {
  std::set<std::string> with_expert, without_expert;
};

SuitePackages suite_packages() {
  SuitePackages s;
  for (const auto& category : fs::directory_iterator(aoc::bank::suite_root())) {
    if (!category.is_directory()) continue;
    for (const auto& pkg : fs::directory_iterator(category.path())) {
      if (!fs::exists(pkg.path() / "op.toml")) continue;
      const std::string rel = category.path().filename().string() + "/" + pkg.path().filename().string();
      (fs::is_directory(pkg.path() / "expert") ? s.with_expert : s.without_expert).insert(rel);
    }
  }
  return s;
}

std::set<std::string> unique(const std::vector<std::string>& list, const char* what) {
  std::set<std::string> out(list.begin(), list.end());
  EXPECT_EQ(out.size(), list.size()) << what << " lists a package twice";
  return out;
}

}  // namespace

TEST(BankSplit, TrainIsEveryExpertAndTestEveryOtherPackage) {
  const aoc::bank::Split split = aoc::bank::read_split(aoc::bank::default_split_file());
  const SuitePackages suite = suite_packages();
  ASSERT_GT(suite.with_expert.size(), 10u);
  ASSERT_GT(suite.without_expert.size(), 10u);
  EXPECT_EQ(unique(split.train, "train"), suite.with_expert)
      << "regenerate data/bank_split.toml: train must list exactly the packages with an expert/ folder";
  EXPECT_EQ(unique(split.test, "test"), suite.without_expert)
      << "regenerate data/bank_split.toml: test must list exactly the packages without an expert/ folder";
}

TEST(BankSplit, AFileWithoutAListIsRefusedByName) {
  aoc::testing::ScratchDir dir("split");
  const fs::path file = dir.path() / "split.toml";
  std::ofstream(file) << "train = [\"elementwise/add\"]\n";
  try {
    aoc::bank::read_split(file);
    FAIL() << "a split without `test` was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("`test`"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
}
