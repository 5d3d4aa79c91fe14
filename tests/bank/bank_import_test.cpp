// Importing entries from JSON: the hand-written title/description/bottleneck/diff shape, the
// export format read back, and malformed files refused whole with the entry and field named.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "bank/import.h"
#include "bank/store.h"
#include "cli_support.h"

namespace fs = std::filesystem;
using aoc::testing::run_ascendopt;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("aoc-bank-import-" + std::to_string(::getpid())) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

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
    } catch (const aoc::bank::ImportError& e) {
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
