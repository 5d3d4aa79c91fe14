// The rewriter's answers from the build cache: the same question of the same sources in
// another folder runs no clang and answers in that folder's names, an applied motif writes the
// same files, an edited source or a corrupt stored answer runs the rewriter again.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/content_hash.h"
#include "base/file_text.h"
#include "eval/candidate.h"
#include "rewrite/motif_states.h"
#include "rewrite/rewrite_candidate.h"
#include "rewrite/rewrite_tool.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using aoc::base::read_text;
using namespace aoc::rewrite;

namespace {

const fs::path kRoot = AOC_SOURCE_DIR;

// relu's package copied to `dir`, loaded as a candidate.
aoc::eval::Candidate relu_copy(const fs::path& dir) {
  fs::copy(kRoot / "ops" / "activation" / "relu", dir, fs::copy_options::recursive);
  return aoc::eval::load_candidate(dir, aoc::base::tree_hash(kRoot / "include" / "ascendc"));
}

std::string states_text(const std::vector<MotifState>& s) { return to_json(s).dump(); }

class AnswerCacheTest : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("AOC_CACHE_DIR", cache_.path().c_str(), 1); }
  void TearDown() override { ::unsetenv("AOC_CACHE_DIR"); }
  aoc::testing::ScratchDir cache_{"rewrite-cache"};
  aoc::testing::ScratchDir work_{"rewrite-work"};
};

TEST_F(AnswerCacheTest, DetectInAnotherFolderIsAnsweredWithoutTheRewriter) {
  const auto a = relu_copy(work_.path() / "a");
  const auto b = relu_copy(work_.path() / "b");
  const uint64_t runs = rewrite_tool_runs();
  const auto first = detect_motifs(a);
  EXPECT_EQ(rewrite_tool_runs(), runs + 1);
  const auto second = detect_motifs(b);
  EXPECT_EQ(rewrite_tool_runs(), runs + 1);
  ASSERT_FALSE(first.empty());
  // Places are relative to each candidate, so the two answers read the same.
  EXPECT_EQ(states_text(second), states_text(first));
  bool has_place = false;
  for (const auto& s : second)
    for (const auto& p : s.places) {
      has_place = true;
      EXPECT_EQ(p.file.find(work_.path().string()), std::string::npos) << p.file;
    }
  EXPECT_TRUE(has_place);

  // An edited kernel is another question.
  std::ofstream(b.sources.kernel / "relu.cpp", std::ios::app) << "\n// edited\n";
  detect_motifs(b);
  EXPECT_EQ(rewrite_tool_runs(), runs + 2);
}

TEST_F(AnswerCacheTest, AnAppliedMotifWritesTheSameFilesFromTheCache) {
  const auto a = relu_copy(work_.path() / "a");
  const auto b = relu_copy(work_.path() / "b");
  const uint64_t runs = rewrite_tool_runs();
  const auto ra = rewrite_candidate(a, "apply", "unroll", work_.path() / "a-unrolled");
  ASSERT_TRUE(ra.done) << ra.refused;
  EXPECT_EQ(rewrite_tool_runs(), runs + 1);
  const auto rb = rewrite_candidate(b, "apply", "unroll", work_.path() / "b-unrolled");
  ASSERT_TRUE(rb.done) << rb.refused;
  EXPECT_EQ(rewrite_tool_runs(), runs + 1);
  EXPECT_EQ(rb.changed, ra.changed);
  EXPECT_EQ(rb.diff, ra.diff);
  ASSERT_FALSE(ra.changed.empty());
  for (const auto& f : ra.changed) {
    EXPECT_EQ(read_text(work_.path() / "b-unrolled" / f), read_text(work_.path() / "a-unrolled" / f)) << f;
    EXPECT_NE(read_text(work_.path() / "b-unrolled" / f), read_text(work_.path() / "b" / f)) << f;
  }
  // A refusal is an answer too: asked twice, the rewriter runs once.
  const auto refused = rewrite_candidate(a, "remove", "unroll", work_.path() / "a-refused");
  EXPECT_FALSE(refused.done);
  const auto again = rewrite_candidate(b, "remove", "unroll", work_.path() / "b-refused");
  EXPECT_FALSE(again.done);
  EXPECT_EQ(again.refused, refused.refused);
  EXPECT_EQ(rewrite_tool_runs(), runs + 2);
}

TEST_F(AnswerCacheTest, ACorruptStoredAnswerIsAskedAgainAndReplaced) {
  const auto a = relu_copy(work_.path() / "a");
  const std::string fresh = states_text(detect_motifs(a));
  const uint64_t runs = rewrite_tool_runs();
  size_t corrupted = 0;
  for (const auto& e : fs::recursive_directory_iterator(cache_.path() / "rewrite-answers"))
    if (e.path().extension() == ".json") {
      std::ofstream(e.path(), std::ios::trunc) << "{\"version\": 1, \"exit_code\": 0, \"body\": [";
      ++corrupted;
    }
  ASSERT_EQ(corrupted, 1u);
  EXPECT_EQ(states_text(detect_motifs(a)), fresh);
  EXPECT_EQ(rewrite_tool_runs(), runs + 1);
  EXPECT_EQ(states_text(detect_motifs(a)), fresh);  // stored again, whole
  EXPECT_EQ(rewrite_tool_runs(), runs + 1);
}

}  // namespace
