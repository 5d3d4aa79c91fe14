// Hunks of an expert against its baseline, and the expert with one hunk reverted: the
// reverted file is the expert's with exactly that hunk's lines taken from the baseline, and
// reverting every hunk gives the baseline back.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "base/file_text.h"
#include "rewind/hunks.h"

namespace fs = std::filesystem;
using aoc::base::read_text;

TEST(Hunks, EachHunkOfReluRevertsAloneAndAllGiveTheBaseline) {
  const fs::path pkg = fs::path(AOC_SOURCE_DIR) / "ops" / "activation" / "relu";
  const auto hunks = aoc::rewind::expert_hunks(pkg);
  ASSERT_GE(hunks.size(), 2u);
  const fs::path dir = fs::temp_directory_path() / ("aoc-hunks-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  for (size_t i = 0; i < hunks.size(); ++i) {
    const auto& h = hunks[i];
    EXPECT_EQ(h.text.rfind("--- a/" + h.file, 0), 0u);
    const fs::path out = dir / ("h" + std::to_string(i));
    aoc::rewind::write_reverted(pkg, {h}, out);
    EXPECT_TRUE(fs::exists(out / "candidate.toml"));
    EXPECT_NE(read_text(out / h.file), read_text(pkg / "expert" / h.file)) << "hunk " << i << " changed nothing";
    // Files the hunk is not in stay the expert's.
    for (const auto& other : hunks) {
      if (other.file != h.file) {
        EXPECT_EQ(read_text(out / other.file), read_text(pkg / "expert" / other.file));
      }
    }
  }
  EXPECT_THROW(aoc::rewind::write_reverted(pkg, {hunks[0]}, dir / "h0"), std::runtime_error);
  // Reverting the hunks of a file from last to first (line numbers stay valid) gives the baseline.
  const std::string file = hunks[0].file;
  std::vector<aoc::rewind::Hunk> of_file;
  for (const auto& h : hunks)
    if (h.file == file) of_file.push_back(h);
  fs::path stage = dir / "all";
  fs::create_directories(stage);
  fs::copy(pkg, stage / "pkg", fs::copy_options::recursive);
  for (auto it = of_file.rbegin(); it != of_file.rend(); ++it) {
    const fs::path out = dir / ("step" + std::to_string(it->exp_start));
    aoc::rewind::write_reverted(stage / "pkg", {*it}, out);
    fs::copy_file(out / file, stage / "pkg" / "expert" / file, fs::copy_options::overwrite_existing);
  }
  std::string expect = read_text(pkg / file);
  if (!expect.empty() && expect.back() != '\n') expect += "\n";
  EXPECT_EQ(read_text(stage / "pkg" / "expert" / file), expect);
  fs::remove_all(dir);
}
