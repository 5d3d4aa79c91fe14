// `ascendopt bench` end to end on a small copy of relu: two methods, two budgets, two jobs;
// the figures are printed, a second invocation finds every run finished, and the HTML report
// renders in headless Chromium with its plots: the screenshot is not blank and shows the
// plot colours, and the rendered page holds the progress, per-operator and pipe plots (with
// the Task Duration of each pipe bar's case).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>

#include "cli_support.h"
#include "bench/png_pixels.h"
#include "optimize/small_package.h"
#include "scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using aoc::testing::run_ascendopt;

std::string shell(const std::string& cmd) {
  std::string out;
  FILE* f = ::popen(cmd.c_str(), "r");
  if (!f) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  ::pclose(f);
  return out;
}

// The logs of the runs that failed, so that a failure of the test says why they did.
std::string failed_run_logs(const fs::path& runs) {
  std::string out;
  std::error_code ec;
  for (const auto& run : fs::directory_iterator(runs, ec)) {
    const fs::path log = run.path() / "log.txt";
    std::ifstream in(log);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    if (text.find("error") != std::string::npos || text.find("fail") != std::string::npos)
      out += "--- " + log.string() + "\n" + text + "\n";
  }
  return out;
}

size_t pixels_near(const aoc::testing::Image& img, int r, int g, int b) {
  size_t n = 0;
  for (const auto& p : img.pixels)
    if (std::abs(p[0] - r) < 12 && std::abs(p[1] - g) < 12 && std::abs(p[2] - b) < 12) ++n;
  return n;
}

TEST(BenchReport, RunsResumesAndRendersInChromium) {
  aoc::testing::ScratchDir tmp("bench-report");
  const fs::path relu = aoc::testing::small_package_copy(fs::path(AOC_SOURCE_DIR) / "ops/activation/relu", tmp.path() / "relu");
  const fs::path html = tmp.path() / "report.html";
  const std::string args = "bench " + relu.string() + " --methods optimize,best-of-n --budgets 2,3 --seeds 1 --jobs 2 --out " +
                           (tmp.path() / "bench").string() + " --html " + html.string();
  const auto r = run_ascendopt(args);
  ASSERT_EQ(r.status, 0) << r.out << failed_run_logs(tmp.path() / "bench" / "runs");
  EXPECT_NE(r.out.find("geomean speedup over the baseline"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("best-of-n"), std::string::npos) << r.out;
  // Each run's progress line carries what it found, read back from its report.
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(relu-optimize-b2-s1: done, [0-9.]+ -> [0-9.]+ us, [0-9.]+x, verified)")))
      << r.out;
  const auto again = run_ascendopt(args);
  ASSERT_EQ(again.status, 0) << again.out;
  EXPECT_NE(again.out.find("4 of 4 run(s) already finished"), std::string::npos) << again.out;

  auto table = [](const std::string& out) { return out.substr(std::min(out.size(), out.find("geomean speedup"))); };
  // --finished runs nothing and reports on the operators whose every run has finished: relu,
  // not a second package that has none; it refuses a folder with no runs, and says so when no
  // operator is complete.
  const fs::path second = aoc::testing::small_package_copy(fs::path(AOC_SOURCE_DIR) / "ops/activation/relu", tmp.path() / "relu_copy");
  const std::string both = "bench " + relu.string() + " " + second.string() +
                           " --methods optimize,best-of-n --budgets 2,3 --seeds 1 --finished --out ";
  const auto partial = run_ascendopt(both + (tmp.path() / "bench").string());
  ASSERT_EQ(partial.status, 0) << partial.out;
  EXPECT_NE(partial.out.find("4 of 8 run(s) finished; the figures cover the 1 of 2 operator(s)"), std::string::npos)
      << partial.out;
  EXPECT_EQ(table(partial.out), table(again.out));
  EXPECT_FALSE(fs::exists(tmp.path() / "bench" / "runs" / "relu_copy-optimize-b2-s1"));
  const auto none_complete = run_ascendopt("bench " + second.string() +
                                           " --methods optimize --budgets 2 --finished --out " + (tmp.path() / "bench").string());
  EXPECT_EQ(none_complete.status, 1);
  EXPECT_NE(none_complete.out.find("no operator has every run finished yet (0 of 1 runs finished)"), std::string::npos)
      << none_complete.out;
  const auto no_runs = run_ascendopt(both + (tmp.path() / "empty").string());
  EXPECT_EQ(no_runs.status, 2);
  EXPECT_NE(no_runs.out.find("holds no benchmark runs"), std::string::npos) << no_runs.out;

  // The finished runs kept in one file (scripts/bench-runs.sh) and put back in a new folder are
  // skipped and reported the same; a folder verified with another hidden seed is refused.
  const std::string script = std::string(AOC_SOURCE_DIR) + "/scripts/bench-runs.sh";
  const fs::path kept = tmp.path() / "runs.tar.gz", moved = tmp.path() / "moved";
  EXPECT_NE(shell(script + " pack " + (tmp.path() / "bench").string() + " " + kept.string() + " 2>&1")
                .find("4 finished run(s)"),
            std::string::npos);
  EXPECT_NE(shell(script + " unpack " + kept.string() + " " + moved.string() + " 2>&1").find("4 finished run(s)"),
            std::string::npos);
  // One budget's runs alone.
  const fs::path budget3 = tmp.path() / "b3.tar.gz";
  EXPECT_NE(shell(script + " pack " + (tmp.path() / "bench").string() + " " + budget3.string() + " '*-b3-*' 2>&1")
                .find("2 finished run(s)"),
            std::string::npos);
  EXPECT_EQ(shell("tar -tzf " + budget3.string() + " | grep -c -- '-b3-s1/report.json'"), "2\n");
  EXPECT_NE(shell(script + " pack " + (tmp.path() / "bench").string() + " " + budget3.string() + " '*-b64-*' 2>&1")
                .find("no finished run matching"),
            std::string::npos);
  const auto restored = run_ascendopt("bench " + relu.string() + " --methods optimize,best-of-n --budgets 2,3 --seeds 1 --out " +
                                      moved.string());
  ASSERT_EQ(restored.status, 0) << restored.out;
  EXPECT_NE(restored.out.find("4 of 4 run(s) already finished"), std::string::npos) << restored.out;
  EXPECT_EQ(table(restored.out), table(again.out));
  const fs::path other = tmp.path() / "other";
  fs::create_directories(other);
  std::ofstream(other / "hidden_seed") << "12345\n";
  EXPECT_NE(shell(script + " unpack " + kept.string() + " " + other.string() + " 2>&1").find("another hidden seed"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(other / "runs"));

  std::ifstream in(html);
  const std::string page((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(page.find("<script"), std::string::npos) << "the report is self-contained";
  EXPECT_EQ(page.find("http://www.w3.org/2000/svg\"><link"), std::string::npos);

  const fs::path chromium = "/usr/bin/chromium";
  ASSERT_TRUE(fs::exists(chromium)) << "the Debian package chromium is needed (scripts/install-deps.sh)";
  const std::string flags = " --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=" +
                            (tmp.path() / "profile").string() + " --window-size=1000,1600 ";
  const std::string dom = shell(chromium.string() + flags + "--dump-dom file://" + html.string() + " 2>/dev/null");
  EXPECT_NE(dom.find("class=\"plot progress\""), std::string::npos);
  EXPECT_NE(dom.find("class=\"plot per-op\""), std::string::npos);
  EXPECT_NE(dom.find("class=\"plot pipes\""), std::string::npos);
  EXPECT_NE(dom.find("<polyline"), std::string::npos);
  EXPECT_NE(dom.find("class=\"task-duration\""), std::string::npos) << "the pipe bars have no Task Duration tick";

  const fs::path shot = tmp.path() / "shot.png";
  shell(chromium.string() + flags + "--screenshot=" + shot.string() + " file://" + html.string() + " 2>/dev/null");
  const auto img = aoc::testing::read_png(shot);
  ASSERT_TRUE(img.error.empty()) << img.error;
  ASSERT_EQ(img.pixels.size(), size_t(img.width) * img.height);
  size_t non_white = 0;
  for (const auto& p : img.pixels)
    if (p[0] < 235 || p[1] < 235 || p[2] < 235) ++non_white;
  EXPECT_GT(non_white, img.pixels.size() / 100) << "the screenshot is (nearly) blank";
  EXPECT_GT(pixels_near(img, 0x1f, 0x77, 0xb4), 50u) << "no pixels of the first method's colour: no plot drawn";
  EXPECT_GT(pixels_near(img, 0xd6, 0x27, 0x28), 50u) << "no pixels of the second method's colour";
}

// A method written M@bank runs M with its kernel motifs ordered by --bank's experience bank
// (a real bank file made by `ascendopt bank import`), the plain method at random; either flag
// without the other is a usage error that says what is missing.
TEST(BenchReport, BankMethodsRunWithTheBankAndNeedIt) {
  aoc::testing::ScratchDir tmp("bench-bank");
  const fs::path relu = aoc::testing::small_package_copy(fs::path(AOC_SOURCE_DIR) / "ops/activation/relu", tmp.path() / "relu");
  const fs::path bank = tmp.path() / "bank.sqlite";
  const fs::path entries = tmp.path() / "entries.json";
  std::ofstream(entries) << R"([{"title": "Unroll the tile loop", "description": "Two tiles per iteration.",
                               "bottleneck": "scalar-bound loops", "diff": "", "motif": "unroll"}])";
  const auto imported = run_ascendopt("bank import " + entries.string() + " --bank " + bank.string());
  ASSERT_EQ(imported.status, 0) << imported.out;

  const std::string out = " --out " + (tmp.path() / "bench").string();
  const auto no_bank = run_ascendopt("bench " + relu.string() + " --methods rewrite-only@bank --budgets 1" + out);
  EXPECT_EQ(no_bank.status, 2);
  EXPECT_NE(no_bank.out.find("M@bank needs --bank FILE"), std::string::npos) << no_bank.out;
  const auto unused = run_ascendopt("bench " + relu.string() + " --methods rewrite-only --budgets 1 --bank " +
                                    bank.string() + out);
  EXPECT_EQ(unused.status, 2);
  EXPECT_NE(unused.out.find("--bank is used by the methods written M@bank only"), std::string::npos) << unused.out;
  const auto missing = run_ascendopt("bench " + relu.string() + " --methods rewrite-only@bank --budgets 1 --bank " +
                                     (tmp.path() / "none.sqlite").string() + out);
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.out.find("no such file"), std::string::npos) << missing.out;

  const auto r = run_ascendopt("bench " + relu.string() + " --methods rewrite-only,rewrite-only@bank --budgets 1 --jobs 2 --bank " +
                               bank.string() + out);
  ASSERT_EQ(r.status, 0) << r.out << failed_run_logs(tmp.path() / "bench" / "runs");
  EXPECT_NE(r.out.find("rewrite-only@bank"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("rewrite-onlyrewrite-only@bank"), std::string::npos) << "columns run together:\n" << r.out;
  auto order = [&](const std::string& run) {
    std::ifstream in(tmp.path() / "bench" / "runs" / run / "report.json");
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    const auto at = text.find("\"motif_order\": \"");
    return at == std::string::npos ? std::string("(no motif_order in " + run + ")")
                                   : text.substr(at + 16, text.find('"', at + 16) - at - 16);
  };
  EXPECT_EQ(order("relu-rewrite-only-b1-s1"), "random");
  EXPECT_EQ(order("relu-rewrite-only@bank-b1-s1"), "bank " + fs::absolute(bank).string());
}

// A candidate folder (here relu without double buffering, as `rewrite --remove-all` or
// `rewrite --remove` write them) is benchmarked like a package, under its folder's name, also
// when given with a trailing slash.
TEST(BenchReport, ACandidateFolderIsBenchmarkedUnderItsName) {
  aoc::testing::ScratchDir tmp("bench-candidate");
  const fs::path relu = aoc::testing::small_package_copy(fs::path(AOC_SOURCE_DIR) / "ops/activation/relu", tmp.path() / "relu");
  const fs::path single = tmp.path() / "relu-single";
  const auto rewritten = run_ascendopt("rewrite " + relu.string() + " --remove double_buffer --out " + single.string());
  ASSERT_EQ(rewritten.status, 0) << rewritten.out;
  const auto r = run_ascendopt("bench " + single.string() + "/ --methods rewrite-only --budgets 1 --out " +
                               (tmp.path() / "bench").string());
  ASSERT_EQ(r.status, 0) << r.out << failed_run_logs(tmp.path() / "bench" / "runs");
  EXPECT_TRUE(fs::exists(tmp.path() / "bench" / "runs" / "relu-single-rewrite-only-b1-s1" / "report.json")) << r.out;
  EXPECT_NE(r.out.find("relu-single"), std::string::npos) << r.out;
}

}  // namespace
