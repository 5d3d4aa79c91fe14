// A read-only shared cache ($AOC_SHARED_CACHE, docs/cluster.md): an evaluation whose own cache
// is empty takes the libraries, the API-check answers and the case inputs and golden outputs
// another evaluation left in the shared one, writes nothing there, compiles nothing of its own,
// and gives the same verdicts and Task Durations.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "scratch_dir.h"

namespace {

namespace fs = std::filesystem;

// Every file below `dir`: its size and modification time.
std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> listing(const fs::path& dir) {
  std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = {e.file_size(), e.last_write_time()};
  return out;
}

size_t files_named(const fs::path& dir, const std::string& extension) {
  size_t n = 0;
  if (!fs::exists(dir)) return 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) n += e.path().extension() == extension ? 1 : 0;
  return n;
}

// Per candidate and case: verdict and Task Duration.
nlohmann::json results(const std::string& out) {
  const auto j = nlohmann::json::parse(out);
  nlohmann::json r = nlohmann::json::array();
  for (const auto& c : j.at("candidates")) {
    nlohmann::json cases = nlohmann::json::array();
    for (const auto& k : c.at("cases")) cases.push_back({k.at("name"), k.at("verdict"), k.at("task_duration_us")});
    r.push_back({c.at("verdict"), cases});
  }
  return r;
}

TEST(SharedCache, AnEvaluationReadsItAndWritesOnlyItsOwnCache) {
  aoc::testing::ScratchDir tmp("shared-cache");
  const fs::path shared = tmp.path() / "shared", own = tmp.path() / "own";
  const std::string relu = std::string(AOC_SOURCE_DIR) + "/ops/activation/relu";
  const std::string eval = aoc::testing::ascendopt_binary().string() + " eval " + relu + " " + relu +
                           "/expert --no-store --seed 5 --json 2>/dev/null";
  const auto first = aoc::testing::run_command("AOC_CACHE_DIR=" + shared.string() + " " + eval);
  ASSERT_EQ(first.status, 0) << first.out;
  ASSERT_GT(files_named(shared, ".so"), 0u);
  ASSERT_GT(files_named(shared / "references", ".in"), 0u);
  const auto before = listing(shared);

  const auto second = aoc::testing::run_command("AOC_SHARED_CACHE=" + shared.string() + " AOC_CACHE_DIR=" + own.string() +
                                                " " + eval);
  ASSERT_EQ(second.status, 0) << second.out;
  EXPECT_EQ(results(second.out), results(first.out));
  EXPECT_EQ(listing(shared), before) << "nothing written to the shared cache, not even a file's time";
  EXPECT_EQ(files_named(own, ".so"), 0u) << "every library came from the shared cache";
  EXPECT_EQ(files_named(own, ".o"), 0u);
  EXPECT_EQ(files_named(own / "references", ".in"), 0u) << "the inputs came from the shared cache";
  EXPECT_EQ(files_named(own / "references", ".ref"), 0u) << "so did the golden outputs";
  EXPECT_EQ(files_named(own / "api-check", ".json"), 0u) << "and the API check's answers";
}

}  // namespace
