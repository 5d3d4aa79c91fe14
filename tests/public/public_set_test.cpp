// Public operator collections as a workload (docs/public-set.md), end to end with the program
// and no network: a local git repository made here holds two msopgen operators (the import
// fixtures axpy and exp) and one whose kernel has no entry; a manifest pins its commit. The
// export writes the packages with their splits, goldens and cases and an index, skips them on a
// second run, and records the broken one as failed; bad manifests and a commit the repository
// lacks are refused with what to do; bench and optimize take the set's train split.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "base/file_text.h"
#include "cli_support.h"
#include "scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using aoc::testing::run_ascendopt;
using aoc::testing::run_command;

const fs::path kSource = AOC_SOURCE_DIR;
const fs::path kGoldens = kSource / "tests/data/public";

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

// A git repository in `dir` with ops/math/exp, contrib/axpy_custom and ops/broken (an op_kernel
// without an extern "C" entry); its commit.
std::string make_repository(const fs::path& dir) {
  for (const char* d : {"ops/math/exp", "contrib/axpy_custom", "ops/broken/op_kernel"}) fs::create_directories(dir / d);
  for (const char* sub : {"op_host", "op_kernel"}) {
    fs::copy(kSource / "tests/data/compat/exp" / sub, dir / "ops/math/exp" / sub, fs::copy_options::recursive);
    fs::copy(kSource / "tests/data/compat/msopgen_axpy" / sub, dir / "contrib/axpy_custom" / sub,
             fs::copy_options::recursive);
  }
  fs::copy(kSource / "tests/data/compat/exp/op_host", dir / "ops/broken/op_host", fs::copy_options::recursive);
  std::ofstream(dir / "ops/broken/op_kernel/broken.cpp") << "// no kernel entry here\n";
  const std::string env = "GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com GIT_COMMITTER_NAME=test "
                          "GIT_COMMITTER_EMAIL=test@example.com ";
  const auto r = run_command("cd " + quoted(dir) + " && git init -q . && git add -A && " + env +
                             "git commit -q -m fixture && git rev-parse HEAD");
  EXPECT_EQ(r.status, 0) << r.out;
  return r.out.substr(0, 40);
}

std::string manifest_text(const std::string& commit, const std::string& extra_operator_key = "") {
  return "[collection]\nname = \"fixture\"\nurl = \"https://example.invalid/fixture.git\"\ncommit = \"" + commit +
         "\"\n\n[[operator]]\nfolder = \"contrib/axpy_custom\"\nsplit = \"train\"\ngolden = \"" +
         (kGoldens / "axpy_custom.cpp").string() + "\"\ncases = \"" + (kGoldens / "axpy_custom.cases.toml").string() +
         "\"\n" + extra_operator_key + "\n[[operator]]\nfolder = \"ops/math/exp\"\nsplit = \"test\"\ngolden = \"" +
         (kSource / "tests/data/compat/exp/golden.cpp").string() + "\"\ncases = \"" +
         (kGoldens / "exp.cases.toml").string() + "\"\n\n[[operator]]\nfolder = \"ops/broken\"\nsplit = \"train\"\n";
}

struct Fixture {
  aoc::testing::ScratchDir tmp{"public-set"};
  fs::path repo = tmp.path() / "repo", manifest = tmp.path() / "fixture.toml";
  std::string commit = make_repository(repo);
  Fixture() { std::ofstream(manifest) << manifest_text(commit); }
  std::string source() const { return " --source fixture=" + quoted(repo); }
  std::string dirs(const std::string& tag) const {
    return " --public-dir " + quoted(tmp.path() / (tag + "-public")) + " --public-work " + quoted(tmp.path() / (tag + "-work"));
  }
};

TEST(PublicSet, ExportWritesThePackagesWithTheirSplitsAndSkipsThemOnARerun) {
  Fixture f;
  const fs::path out = f.tmp.path() / "public";
  const std::string args = "public export --manifest " + quoted(f.manifest) + f.source() + " --out " + quoted(out) +
                           " --work " + quoted(f.tmp.path() / "work");
  const auto r = run_ascendopt(args + " --json", false);
  EXPECT_EQ(r.status, 1) << r.out;  // the broken operator failed
  const auto index = nlohmann::json::parse(r.out);
  ASSERT_EQ(index["operators"].size(), 3u) << r.out;
  std::map<std::string, nlohmann::json> by;
  for (const auto& e : index["operators"]) by[e["package"]] = e;
  EXPECT_EQ(by["axpy_custom"]["split"], "train");
  EXPECT_EQ(by["axpy_custom"]["status"], "ok");
  EXPECT_EQ(by["axpy_custom"]["commit"], f.commit);
  EXPECT_EQ(by["axpy_custom"]["folder"], "contrib/axpy_custom");
  EXPECT_EQ(by["exp"]["split"], "test");
  EXPECT_EQ(by["exp"]["status"], "ok");
  EXPECT_EQ(by["broken"]["status"], "failed");
  EXPECT_NE(by["broken"]["error"].get<std::string>().find("no kernel entry"), std::string::npos) << by["broken"];
  EXPECT_FALSE(fs::exists(out / "broken"));
  EXPECT_EQ(aoc::base::read_text(out / "axpy_custom/golden.cpp"), aoc::base::read_text(kGoldens / "axpy_custom.cpp"));
  const std::string op_toml = aoc::base::read_text(out / "exp/op.toml");
  EXPECT_NE(op_toml.find("cores_fp32"), std::string::npos) << op_toml;
  EXPECT_EQ(op_toml.find("aligned_float16_v0"), std::string::npos) << "the generated cases were not replaced";
  EXPECT_TRUE(fs::exists(out / "public-set.json"));

  const auto again = run_ascendopt(args);
  EXPECT_EQ(again.status, 1) << again.out;
  EXPECT_NE(again.out.find("0 exported, 2 already exported, 1 failed"), std::string::npos) << again.out;
  const auto forced = run_ascendopt(args + " --force");
  EXPECT_NE(forced.out.find("2 exported, 0 already exported, 1 failed"), std::string::npos) << forced.out;
}

TEST(PublicSet, BadManifestsAndAMissingCommitAreRefusedWithWhatToDo) {
  Fixture f;
  const auto export_with = [&](const std::string& text) {
    std::ofstream(f.manifest) << text;
    return run_ascendopt("public export --manifest " + quoted(f.manifest) + f.source() + " --out " +
                         quoted(f.tmp.path() / "public") + " --work " + quoted(f.tmp.path() / "work"));
  };
  std::string no_split = manifest_text(f.commit);
  no_split.erase(no_split.find("split = \"test\"\n"), 15);
  auto r = export_with(no_split);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("fixture.toml: [[operator]] #2 (folder ops/math/exp): no `split`; write split = \"train\" or "
                       "split = \"test\""),
            std::string::npos)
      << r.out;
  r = export_with(manifest_text(f.commit, "spilt = \"train\"\n"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("[[operator]] #1 (folder contrib/axpy_custom): unknown key `spilt`; the keys are cases, folder, "
                       "golden, package, split"),
            std::string::npos)
      << r.out;
  r = export_with(manifest_text(f.commit.substr(0, 12)));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("[collection]: commit `" + f.commit.substr(0, 12) + "` is not a full commit id"), std::string::npos)
      << r.out;
  r = export_with(manifest_text(f.commit, "package = \"exp\"\n"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("package `exp` is already the package of [[operator]] #1"), std::string::npos) << r.out;
  r = export_with(manifest_text(std::string(40, 'a')));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("commit " + std::string(40, 'a') + " of collection fixture is not in " + f.repo.string()),
            std::string::npos)
      << r.out;
}

TEST(PublicSet, BenchAndOptimizeTakeTheTrainSplit) {
  Fixture f;
  // Not exported yet and no repository given: the error says how to export.
  auto r = run_ascendopt("bench --set " + quoted(f.manifest) + ":train" + f.dirs("none") +
                         " --methods best-of-n --budgets 2 --out " + quoted(f.tmp.path() / "bench-none"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("export it first with `ascendopt public export --manifest"), std::string::npos) << r.out;

  r = run_ascendopt("bench --set " + quoted(f.manifest) + ":train" + f.source() + f.dirs("set") +
                    " --methods best-of-n --budgets 2 --seeds 1 --out " + quoted(f.tmp.path() / "bench"));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("skipped broken"), std::string::npos) << r.out;
  const std::string table = r.out.substr(r.out.find("per operator"));
  EXPECT_NE(table.find("axpy_custom"), std::string::npos) << r.out;
  EXPECT_EQ(table.find("exp"), std::string::npos) << "exp is a test operator\n" << r.out;
  const auto summary = nlohmann::json::parse(aoc::base::read_text(f.tmp.path() / "bench/summary.json"));
  EXPECT_NE(summary.dump().find("axpy_custom"), std::string::npos);

  // optimize: the set is exported now, so no --source is needed.
  r = run_ascendopt("optimize --set " + quoted(f.manifest) + " --op axpy_custom" + f.dirs("set") +
                    " --method best-of-n --budget 1 --out " + quoted(f.tmp.path() / "opt"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(fs::exists(f.tmp.path() / "opt/report.json"));
  r = run_ascendopt("optimize --set " + quoted(f.manifest) + " --op broken" + f.dirs("set") + " --budget 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("broken of the set"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no kernel entry"), std::string::npos) << r.out;
}

}  // namespace
