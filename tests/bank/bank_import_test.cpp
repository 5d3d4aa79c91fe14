// Importing entries from JSON: the hand-written title/description/bottleneck/diff shape, the
// export format read back, and malformed files refused whole with the entry and field named.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "bank/import.h"
#include "bank/store.h"
#include "cli_support.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using aoc::testing::run_ascendopt;

namespace {

fs::path fresh_dir(const std::string& name) { return aoc::testing::fresh_scratch_subdir(name); }

fs::path write(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
  return p;
}

const char* kGood = R"([
  {"title": "Double-buffer the copy queues", "description": "Two buffers per queue let MTE2 load tile i+1 while the vector unit works on tile i.",
   "bottleneck": "MTE2-bound elementwise kernels with many tiles", "diff": "-  BUFFER_NUM = 1;\n+  BUFFER_NUM = 2;\n"},
  {"title": "Fuse Muls and Add into Axpy", "description": "One vector instruction instead of two.", "bottleneck": "vector-bound",
   "diff": "", "motif": "fused_axpy", "category": "elementwise"}
])";

}  // namespace

TEST(BankImport, HandWrittenEntriesAreTextEntries) {
  const auto es = aoc::bank::entries_from_json(nlohmann::json::parse(kGood));
  ASSERT_EQ(es.size(), 2u);
  EXPECT_EQ(es[0].kind, "text");
  EXPECT_EQ(es[0].motif, "unclassified");
  EXPECT_EQ(es[1].motif, "fused_axpy");
  EXPECT_EQ(es[1].category, "elementwise");
  EXPECT_FALSE(es[0].geomean);
}

TEST(BankImport, MalformedEntriesNameTheIndexAndField) {
  auto error = [](const std::string& text) {
    try {
      aoc::bank::entries_from_json(nlohmann::json::parse(text));
    } catch (const aoc::bank::EntryImportError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error(R"([{"title": "a", "description": "b", "bottleneck": "c", "diff": ""},
                      {"title": "a", "description": "b", "bottleneck": "c"}])"),
            "entry 1: field \"diff\" is missing (a string is required)");
  EXPECT_EQ(error(R"([{"title": 3, "description": "b", "bottleneck": "c", "diff": ""}])"),
            "entry 0: field \"title\" must be a string, not a number");
  EXPECT_EQ(error(R"([{"title": "a", "description": "b", "bottleneck": "c", "diff": "", "kind": "great"}])"),
            "entry 0: field \"kind\" is \"great\"; use positive, negative or text");
  EXPECT_EQ(error(R"([{"title": "a", "description": "b", "bottleneck": "c", "diff": "", "cases": [{"name": 1}]}])"),
            "entry 0: field \"cases[0]\" must be an object with a string name and numbers optimized_us and rewound_us");
  EXPECT_EQ(error(R"([{"title": "a", "description": "b", "bottleneck": "c", "diff": "", "kind": "positive"}])"),
            "entry 0: field \"geomean\" is missing: a positive entry is a measurement (use kind text for advice)");
  EXPECT_EQ(error(R"([1])"), "entry 0 is a number, not an object with title, description, bottleneck and diff");
  EXPECT_EQ(error(R"({"x": 1})"), "the JSON must be a list of entries or an object {\"entries\": [...]}, not an object");
}

// Through the program: a bad file imports nothing (the bank keeps what it had), a good one
// imports all, and export --json reads back in as the same entries.
TEST(BankImport, CommandImportsAllOrNothingAndExportRoundTrips) {
  const fs::path dir = fresh_dir("cli");
  const std::string bank = (dir / "bank.sqlite").string();
  auto ok = run_ascendopt("bank import " + write(dir / "good.json", kGood).string() + " --bank " + bank);
  ASSERT_EQ(ok.status, 0) << ok.out;
  EXPECT_NE(ok.out.find("imported 2 entries"), std::string::npos) << ok.out;

  const std::string bad_json = std::string(kGood).substr(0, std::string(kGood).size() - 2) +
                               R"(, {"title": "x", "description": "y", "bottleneck": 5, "diff": ""}])";
  auto bad = run_ascendopt("bank import " + write(dir / "bad.json", bad_json).string() + " --bank " + bank);
  EXPECT_EQ(bad.status, 1) << bad.out;
  EXPECT_NE(bad.out.find("entry 2: field \"bottleneck\" must be a string, not a number"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("nothing was imported"), std::string::npos) << bad.out;
  auto broken = run_ascendopt("bank import " + write(dir / "broken.json", "[{\"title\": ").string() + " --bank " + bank);
  EXPECT_EQ(broken.status, 1);
  EXPECT_NE(broken.out.find("is not valid JSON"), std::string::npos) << broken.out;
  EXPECT_EQ(aoc::bank::Bank(bank).count(), 2u);

  auto exported = run_ascendopt("bank export --json --bank " + bank, false);
  ASSERT_EQ(exported.status, 0);
  const std::string bank2 = (dir / "bank2.sqlite").string();
  auto again = run_ascendopt("bank import " + write(dir / "export.json", exported.out).string() + " --bank " + bank2);
  ASSERT_EQ(again.status, 0) << again.out;
  auto a = aoc::bank::Bank(bank).entries(), b = aoc::bank::Bank(bank2).entries();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].title, b[i].title);
    EXPECT_EQ(a[i].motif, b[i].motif);
    EXPECT_EQ(a[i].diff, b[i].diff);
    EXPECT_EQ(a[i].kind, b[i].kind);
  }

  auto list = run_ascendopt("bank list --bank " + bank);
  EXPECT_EQ(list.status, 0);
  EXPECT_NE(list.out.find("Fuse Muls and Add into Axpy"), std::string::npos) << list.out;
  auto show = run_ascendopt("bank show 2 --bank " + bank);
  EXPECT_EQ(show.status, 0);
  EXPECT_NE(show.out.find("motif       fused_axpy"), std::string::npos) << show.out;
  auto missing = run_ascendopt("bank show 9 --bank " + bank);
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.out.find("has no entry 9"), std::string::npos) << missing.out;
  auto not_bank = run_ascendopt("bank list --bank " + (dir / "good.json").string());
  EXPECT_EQ(not_bank.status, 1);
  EXPECT_NE(not_bank.out.find("is not a SQLite database"), std::string::npos) << not_bank.out;
}

// A mined entry exported and imported again is the same entry in every field but its id and
// creation time, so an exported bank can stand in for the file it came from (its measured
// effect, profile and context are what retrieval ranks by).
TEST(BankImport, MinedEntrySurvivesExportAndImport) {
  aoc::bank::Entry e;
  e.kind = aoc::bank::kPositive;
  e.motif = "double_buffer";
  e.op = "relu";
  e.category = "activation";
  e.source_path = "ops/activation/relu/expert";
  e.source_hash = "0123456789ab";
  e.diff = "--- a/op_kernel/relu.cpp\n+++ b/op_kernel/relu.cpp\n@@ -1 +1 @@\n-constexpr int32_t BUFFER_NUM = 2;\n+constexpr int32_t BUFFER_NUM = 1;\n";
  e.cases = {{"tiny_fp16", 3.25, 3.5}, {"bert_base_b4_s512", 101.5, 110.25}};
  e.geomean = aoc::bank::geomean_speedup(e.cases);
  e.profile.before = {{"aiv_mte2_time", 80.5}, {"aiv_vec_time", 20.0}};
  e.profile.after = {{"aiv_mte2_time", 81.0}, {"aiv_vec_time", 20.0}};
  e.profile.bound_before = "aiv_mte2_time";
  e.profile.bound_after = "aiv_mte2_time";
  e.context.dtypes = {"float16", "float32"};
  e.context.shape_class = "large";
  e.context.bound = "aiv_mte2_time";
  e.context.cores = 40;
  e.context.vec_mte2_ratio = 0.25;
  e.provenance = {{"kernel_hash", "0123456789ab"}, {"soc", "ascend910b"}, {"seed", 1}, {"threshold", 0.02}};
  e.title = "double_buffer in relu (worth 1.045x)";
  e.description = "Two buffers per queue overlap copy-in with compute.";
  e.bottleneck = "aiv_mte2_time";

  const fs::path dir = fresh_dir("mined");
  aoc::bank::Bank mined(dir / "mined.sqlite");
  mined.insert(e);
  auto exported = run_ascendopt("bank export --json --bank " + (dir / "mined.sqlite").string(), false);
  ASSERT_EQ(exported.status, 0) << exported.out;
  const std::string copy = (dir / "copy.sqlite").string();
  auto imported = run_ascendopt("bank import " + write(dir / "export.json", exported.out).string() + " --bank " + copy);
  ASSERT_EQ(imported.status, 0) << imported.out;

  auto without_identity = [](const aoc::bank::Entry& x) {
    auto j = aoc::bank::to_json(x);
    j.erase("id");
    j.erase("created");
    return j;
  };
  const auto a = mined.entries(), b = aoc::bank::Bank(copy).entries();
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(without_identity(a[0]), without_identity(b[0]));
  EXPECT_EQ(b[0].kind, "positive");
  ASSERT_TRUE(b[0].context.vec_mte2_ratio);
  EXPECT_DOUBLE_EQ(*b[0].context.vec_mte2_ratio, 0.25);
}
