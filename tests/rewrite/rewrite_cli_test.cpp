// `ascendopt motifs` and `ascendopt rewrite` on real suite packages: the states the add
// expert carries with their file:line, a removal written as a candidate that the evaluator
// accepts and times, a refusal that leaves nothing behind, and usage errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using aoc::testing::run_ascendopt;
using nlohmann::json;

namespace {

const std::string kRoot = AOC_SOURCE_DIR;

// A folder that does not exist yet (the rewriter makes its output folder).
fs::path fresh_dir(const std::string& name) {
  const fs::path d = aoc::testing::process_scratch_dir() / name;
  fs::remove_all(d);
  return d;
}

TEST(MotifsCommand, AddExpertStatesWithPlaces) {
  auto r = run_ascendopt("motifs " + kRoot + "/ops/elementwise/add/expert --json", false);
  ASSERT_EQ(r.status, 0) << r.out;
  const json j = json::parse(r.out);
  std::map<std::string, json> by;
  for (const auto& m : j.at("motifs")) by[m.at("motif")] = m;
  EXPECT_EQ(by.at("double_buffer").at("state"), "present");
  EXPECT_EQ(by.at("double_buffer").at("places").at(0).at("file"), "op_kernel/add.cpp");
  EXPECT_EQ(by.at("double_buffer").at("places").at(0).at("line"), 6);
  EXPECT_EQ(by.at("double_buffer").at("places").at(1).at("file"), "op_host/add.cpp");
  EXPECT_EQ(by.at("ub_bank_pad").at("state"), "present");
  EXPECT_EQ(by.at("ub_bank_pad").at("places").at(0).at("line"), 40);
  EXPECT_EQ(by.at("event_sync").at("state"), "not_applicable");
}

// The kernel units' kernel_operator.h and the host units' API headers, each parsed once into a
// precompiled header in the cache, give the same answer as parsing them with every unit; a
// corrupt one is parsed around, removed and built again.
TEST(MotifsCommand, PrecompiledPrefixesFindTheSameStates) {
  const fs::path cache = fresh_dir("pch-cache");
  ::setenv("AOC_CACHE_DIR", cache.c_str(), 1);
  const std::string base = "motifs " + kRoot + "/ops/elementwise/add/expert --json";
  // Without its kept answers, so that every run parses.
  const auto run = [&]() {
    fs::remove_all(cache / "rewrite-answers");
    return run_ascendopt(base, false);
  };
  ::setenv("AOC_NO_PCH", "1", 1);
  const auto plain = run();
  ::unsetenv("AOC_NO_PCH");
  ASSERT_EQ(plain.status, 0) << plain.out;
  EXPECT_FALSE(fs::exists(cache / "rewrite-pch")) << "AOC_NO_PCH=1 still made a precompiled header";

  auto pch_files = [&] {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(cache / "rewrite-pch"))
      if (e.path().extension() == ".pch") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
  };
  const auto built = run();  // builds them
  EXPECT_EQ(built.out, plain.out);
  const auto pchs = pch_files();
  ASSERT_EQ(pchs.size(), 2u);
  EXPECT_EQ(pchs[0].filename().string().rfind("host-", 0), 0u) << pchs[0];
  EXPECT_EQ(pchs[1].filename().string().rfind("kernel-", 0), 0u) << pchs[1];
  const auto reused = run();
  EXPECT_EQ(reused.out, plain.out);

  for (const fs::path& pch : pchs) {
    { std::ofstream(pch, std::ios::trunc) << "not a precompiled header"; }
    const auto corrupt = run();
    EXPECT_EQ(corrupt.status, 0) << corrupt.out;
    EXPECT_EQ(corrupt.out, plain.out) << pch;
    EXPECT_FALSE(fs::exists(pch)) << "the corrupt precompiled header was kept: " << pch;
    EXPECT_EQ(run().out, plain.out);
    EXPECT_TRUE(fs::exists(pch)) << "the precompiled header was not built again: " << pch;
  }
  ::unsetenv("AOC_CACHE_DIR");
  fs::remove_all(cache.parent_path());
}

TEST(RewriteCommand, RemovedBankPadIsAnEvaluableCandidate) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);  // the SoC files of this tree
  const fs::path out = fresh_dir("add-no-pad");
  auto r = run_ascendopt("rewrite " + kRoot + "/ops/elementwise/add/expert --remove ub_bank_pad --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("-        pipe.InitBuffer(bankPad, BANK_PAD);"), std::string::npos) << r.out;
  ASSERT_TRUE(fs::exists(out / "candidate.toml"));
  ASSERT_TRUE(fs::exists(out / "op_host" / "add.cpp"));
  auto e = run_ascendopt("eval " + out.string() + " --case aligned_2d_fp16 --no-store --json -j 1", false);
  EXPECT_EQ(e.status, 0) << e.out;
  EXPECT_NE(e.out.find("\"ok\""), std::string::npos) << e.out;
  fs::remove_all(out.parent_path());
}

TEST(RewriteCommand, RefusalWritesNothing) {
  const fs::path out = fresh_dir("add-pad");
  auto r = run_ascendopt("rewrite " + kRoot + "/ops/elementwise/add --apply ub_bank_pad --out " + out.string());
  EXPECT_EQ(r.status, 3) << r.out;
  EXPECT_NE(r.out.find("refused"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out));
  fs::remove_all(out.parent_path());
}

// neg's expert unrolls its tile loop over two buffers of each queue, so double buffering can
// only come out once the unrolling has: --remove-all retries it after each removal.
TEST(RewriteCommand, RemoveAllTakesOutEveryMotifOfNegExpert) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  const fs::path out = fresh_dir("neg-plain");
  auto r = run_ascendopt("rewrite " + kRoot + "/ops/elementwise/neg/expert --remove-all --keep vector_loop --json --out " +
                             out.string(),
                         false);
  ASSERT_EQ(r.status, 0) << r.out;
  const json j = json::parse(r.out);
  const auto removed = j.at("removed").get<std::vector<std::string>>();
  const auto at = [&](const std::string& m) { return std::find(removed.begin(), removed.end(), m) - removed.begin(); };
  ASSERT_LT(at("unroll"), static_cast<long>(removed.size())) << r.out;
  ASSERT_LT(at("double_buffer"), static_cast<long>(removed.size())) << r.out;
  EXPECT_LT(at("unroll"), at("double_buffer"));
  EXPECT_EQ(at("vector_loop"), static_cast<long>(removed.size())) << "kept, yet removed";
  EXPECT_NE(j.at("diff").get<std::string>().find("b/op_host/"), std::string::npos) << "the host's buffer count";
  // What is left present is what was kept or refused on the final kernel.
  auto m = run_ascendopt("motifs " + out.string() + " --json", false);
  ASSERT_EQ(m.status, 0) << m.out;
  const json states = json::parse(m.out);
  for (const auto& s : states.at("motifs"))
    if (s.at("state") == "present")
      EXPECT_TRUE(s.at("motif") == "vector_loop" || j.at("refused").contains(s.at("motif").get<std::string>())) << s.dump();
  // Only the result is left; its steps are gone.
  for (const auto& e : fs::directory_iterator(out.parent_path()))
    EXPECT_EQ(e.path().filename().string().find("neg-plain.step"), std::string::npos) << e.path();
  auto e = run_ascendopt("eval " + out.string() + " --case prime_1021_fp16 --no-store --json -j 1", false);
  EXPECT_EQ(e.status, 0) << e.out;
  EXPECT_NE(e.out.find("\"ok\""), std::string::npos) << e.out;

  // Everything kept: nothing to remove, nothing written.
  std::string all;
  for (const auto& s : states.at("motifs")) all += (all.empty() ? "" : ",") + s.at("motif").get<std::string>();
  const fs::path none = fresh_dir("neg-none");
  auto n = run_ascendopt("rewrite " + kRoot + "/ops/elementwise/neg/expert --remove-all --keep " + all + " --out " +
                         none.string());
  EXPECT_EQ(n.status, 3) << n.out;
  EXPECT_NE(n.out.find("no motif could be removed"), std::string::npos) << n.out;
  EXPECT_FALSE(fs::exists(none));
  fs::remove_all(out.parent_path());
}

TEST(RewriteCommand, UsageErrors) {
  auto both = run_ascendopt("rewrite " + kRoot + "/ops/elementwise/add --apply a --remove b");
  EXPECT_EQ(both.status, 2);
  EXPECT_NE(both.out.find("exactly one of --apply"), std::string::npos) << both.out;
  auto mixed = run_ascendopt("rewrite " + kRoot + "/ops/elementwise/add --remove-all --remove ub_bank_pad");
  EXPECT_EQ(mixed.status, 2);
  EXPECT_NE(mixed.out.find("drop --apply/--remove"), std::string::npos) << mixed.out;
  auto keep = run_ascendopt("rewrite " + kRoot + "/ops/elementwise/add --remove ub_bank_pad --keep unroll");
  EXPECT_EQ(keep.status, 2);
  EXPECT_NE(keep.out.find("--keep goes with --remove-all"), std::string::npos) << keep.out;
  auto missing = run_ascendopt("motifs /nonexistent/op");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.out.find("is not a folder"), std::string::npos) << missing.out;
}

}  // namespace
