// The tuning repository: entries by (operator, shape class, dtype, SoC), kept only when
// faster for the same candidate, surviving a damaged file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tune/repository.h"

namespace {

namespace fs = std::filesystem;
using namespace aoc::tune;

struct TempFile {
  fs::path path = fs::temp_directory_path() / ("aoc-repo-test-" + std::to_string(::getpid())) / "repo.json";
  ~TempFile() { fs::remove_all(path.parent_path()); }
};

RepoEntry entry(double t, uint32_t cores) {
  RepoEntry e;
  e.config.cores = cores;
  e.config.knobs["tile_cap"] = 2048;
  e.time_us = t;
  e.baseline_us = 10;
  e.candidate_hash = "h1";
  e.method = "evolve";
  e.evaluations = 16;
  return e;
}

TEST(TuneRepository, StoreLookupAndKeepTheFaster) {
  TempFile f;
  Repository repo(f.path);
  const RepoKey k{"relu", "largest-per-dtype", "fp16+fp32", "Ascend910B1"};
  EXPECT_FALSE(repo.lookup(k));
  EXPECT_TRUE(repo.store(k, entry(8, 24)));
  auto got = repo.lookup(k);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->config.cores, 24u);
  EXPECT_EQ(got->config.knobs.at("tile_cap"), 2048);
  EXPECT_DOUBLE_EQ(got->time_us, 8);

  EXPECT_FALSE(repo.store(k, entry(9, 12)));  // slower: kept the old one
  EXPECT_EQ(repo.lookup(k)->config.cores, 24u);
  EXPECT_TRUE(repo.store(k, entry(7, 12)));
  EXPECT_EQ(repo.lookup(k)->config.cores, 12u);

  // Other keys are independent; a new file object reads what the first wrote.
  const RepoKey other{"relu", "largest-per-dtype", "fp16+fp32", "Ascend910B4"};
  EXPECT_FALSE(Repository(f.path).lookup(other));
  EXPECT_TRUE(Repository(f.path).lookup(k));
}

TEST(TuneRepository, DamagedFileIsReplaced) {
  TempFile f;
  fs::create_directories(f.path.parent_path());
  std::ofstream(f.path) << "{ not json";
  Repository repo(f.path);
  const RepoKey k{"abs", "c", "fp32", "s"};
  EXPECT_FALSE(repo.lookup(k));
  EXPECT_TRUE(repo.store(k, entry(5, 8)));
  EXPECT_TRUE(repo.lookup(k));
}

}  // namespace
