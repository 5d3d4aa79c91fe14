// The benchmark summary sums the LLM use of its runs (requests, cache hits, tokens, cost) per
// method and budget, from each run's report.json, and shows none for methods run without one.
#include <gtest/gtest.h>

#include <fstream>

#include "bench/metrics.h"
#include "scratch_dir.h"

namespace aoc::bench {
namespace {

namespace fs = std::filesystem;

void write_report(const fs::path& out, const aoc::bench::BenchRun& r, const nlohmann::json& llm) {
  const fs::path dir = out / "runs" / r.name();
  fs::create_directories(dir);
  nlohmann::json j = {{"verified", true}, {"speedup", 1.2}, {"best_us", 1.0}, {"progress", {1.0, 1.2}}};
  if (!llm.is_null()) j["llm"] = llm;
  std::ofstream(dir / "report.json") << j.dump();
}

nlohmann::json usage(int64_t requests, int64_t hits, int64_t prompt, int64_t completion, double cost) {
  return {{"usage",
           {{"requests", requests},
            {"cache_hits", hits},
            {"prompt_tokens", prompt},
            {"completion_tokens", completion},
            {"cost", cost}}}};
}

TEST(BenchLlm, UsageIsSummedPerMethodAndBudget) {
  testing::ScratchDir dir("bench-llm-usage");
  aoc::bench::BenchOptions o;
  o.ops = {dir.path() / "add"};
  o.methods = {"best-of-n", "tune-only"};
  o.budgets = {2};
  o.seeds = 2;
  o.out_dir = dir.path();
  const auto runs = aoc::bench::bench_runs(o);
  ASSERT_EQ(runs.size(), 4u);
  for (const auto& r : runs) {
    if (r.method != "best-of-n") write_report(o.out_dir, r, nullptr);
    else if (r.seed == 1) write_report(o.out_dir, r, usage(3, 0, 900, 60, 0.25));
    else write_report(o.out_dir, r, usage(1, 2, 300, 20, 0.5));
  }
  const auto s = aoc::bench::summarize_bench(o, runs);
  ASSERT_EQ(s.figures.size(), 2u);
  const auto& bon = s.figures[0];
  EXPECT_EQ(bon.llm_runs, 2u);
  EXPECT_EQ(bon.llm_requests, 4);
  EXPECT_EQ(bon.llm_cache_hits, 2);
  EXPECT_EQ(bon.llm_prompt_tokens, 1200);
  EXPECT_EQ(bon.llm_completion_tokens, 80);
  EXPECT_DOUBLE_EQ(bon.llm_cost, 0.75);
  EXPECT_EQ(s.figures[1].llm_runs, 0u);

  const nlohmann::json j = aoc::bench::to_json(s);
  EXPECT_EQ(j["figures"][0]["llm"]["requests"], 4);
  EXPECT_FALSE(j["figures"][1].contains("llm"));
  const std::string table = aoc::bench::bench_table(s);
  EXPECT_NE(table.find("LLM use, summed over the runs:"), std::string::npos) << table;
  EXPECT_NE(table.find("4 request(s), 2 from the cache, 1200 prompt + 80 completion tokens, cost 0.7500"),
            std::string::npos)
      << table;
}

}  // namespace
}  // namespace aoc::bench
