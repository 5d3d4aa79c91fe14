// Rewinding a real kernel through the program: tril's strided row copies are worth about 3%
// on a 1021x1021 case (a positive entry at the default threshold, a negative one at 5%);
// removing its TBuf temporaries does not compile, which is reported and not stored. Run again,
// the bank's measurements are recognised and nothing is measured or stored twice. Then the
// bank guides a rewrite of tril without double buffering: the motif is applied back, the
// candidate evaluated and the adoption recorded.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "bank/store.h"
#include "cli_support.h"
#include "llm/experience.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using aoc::testing::run_ascendopt;

namespace {

const std::string kTril = std::string(AOC_SOURCE_DIR) + "/ops/conversion/tril";

fs::path fresh_dir(const std::string& name) { return aoc::testing::fresh_scratch_subdir(name); }

nlohmann::json run_json(const std::string& args) {
  auto r = run_ascendopt(args, false);
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out;
  return j;
}

}  // namespace

// tril's strided multi-row copies pay; its TBuf temporaries do not (their removal compiles and
// runs as fast), which is kept as a negative entry.
TEST(Rewind, StridedCopyOfTrilIsPositiveAndItsTbufTemporariesNegative) {
  const fs::path dir = fresh_dir("tril");
  const std::string common = " --case prime_1021_fp16 --no-store -j 2 --json --work-dir " + (dir / "work").string();
  const std::string bank = (dir / "bank.sqlite").string();
  auto j = run_json("rewind " + kTril + " --motif strided_copy --motif tbuf_temporaries --bank " + bank + common);
  ASSERT_EQ(j["kernels"].size(), 1u) << j.dump(2);
  const auto& motifs = j["kernels"][0]["motifs"];
  ASSERT_EQ(motifs.size(), 2u) << j.dump(2);
  std::map<std::string, nlohmann::json> by;
  for (const auto& m : motifs) by[m["motif"]] = m;
  EXPECT_EQ(by["strided_copy"]["status"], "positive") << j.dump(2);
  EXPECT_GT(by["strided_copy"]["speedup"].get<double>(), 1.02);
  EXPECT_EQ(by["tbuf_temporaries"]["status"], "negative") << j.dump(2);
  EXPECT_EQ(j["entries_stored"], 2);

  aoc::bank::Bank b(bank);
  ASSERT_EQ(b.count(), 2u);
  const auto all = b.entries();
  const auto found = std::find_if(all.begin(), all.end(), [](const auto& x) { return x.kind == "positive"; });
  ASSERT_NE(found, all.end());
  const auto e = *found;
  EXPECT_EQ(e.kind, "positive");
  EXPECT_EQ(e.motif, "strided_copy");
  EXPECT_EQ(e.category, "conversion");
  ASSERT_EQ(e.cases.size(), 1u);
  EXPECT_EQ(e.cases[0].name, "prime_1021_fp16");
  EXPECT_GT(e.cases[0].rewound_us, e.cases[0].optimized_us);
  EXPECT_NE(e.diff.find("aocRow"), std::string::npos);
  EXPECT_FALSE(e.profile.before.empty());
  EXPECT_EQ(e.context.dtypes, std::vector<std::string>{"float16"});
  EXPECT_EQ(e.provenance["soc"], "Ascend910B1");

  // Run again (an interrupted mining run started over): the bank holds both measurements, so
  // nothing is evaluated or stored twice and the rows point at the entries already there.
  auto again = run_json("rewind " + kTril + " --motif strided_copy --motif tbuf_temporaries --bank " + bank + common);
  EXPECT_EQ(again["entries_stored"], 0) << again.dump(2);
  EXPECT_EQ(again["entries_already_in_bank"], 2) << again.dump(2);
  for (const auto& m : again["kernels"][0]["motifs"]) {
    EXPECT_TRUE(m.value("from_bank", false)) << m.dump(2);
    EXPECT_EQ(m["status"], by[m["motif"]]["status"]);
    EXPECT_EQ(m["entry_id"], by[m["motif"]]["entry_id"]);
  }
  EXPECT_EQ(b.count(), 2u);

  // The same measurement (the rewound folder and the builds are reused) under a threshold just above
  // the gain it measured.
  const double gain = by["strided_copy"]["speedup"].get<double>() - 1.0;
  auto strict = run_json("rewind " + kTril + " --motif strided_copy --threshold " + std::to_string(gain + 0.01) +
                         " --bank " + bank + common);
  EXPECT_EQ(strict["kernels"][0]["motifs"][0]["status"], "negative") << strict.dump(2);
  EXPECT_EQ(b.count(), 3u);
}

TEST(Rewind, BankGuidesDoubleBufferBackIntoTril) {
  const fs::path dir = fresh_dir("guided");
  const std::string bank = (dir / "bank.sqlite").string();
  const std::string common = " --case prime_1021_fp16 --no-store -j 2";
  // Mine tril's double buffering, then rewrite the rewound tril (one buffer) under the bank.
  auto mined = run_json("rewind " + kTril + " --motif double_buffer --json --bank " + bank + common + " --work-dir " +
                        (dir / "work").string());
  const std::string single = mined["kernels"][0]["motifs"][0]["dir"];
  ASSERT_TRUE(fs::exists(fs::path(single) / "candidate.toml")) << mined.dump(2);

  auto q = run_ascendopt("bank query " + single + " --no-profile --bank " + bank);
  EXPECT_EQ(q.status, 0) << q.out;
  EXPECT_NE(q.out.find("applicable motifs: double_buffer"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("double_buffer applicable in target (+2.00)"), std::string::npos) << q.out;

  // The same ranking as the LLM proposer's experience file.
  auto x = run_json("bank query " + single + " --no-profile --experience -k 1 --bank " + bank);
  ASSERT_EQ(x.size(), 1u) << x.dump(2);
  const auto experiences = aoc::llm::experiences_from_json(x);
  EXPECT_EQ(experiences.at(0).title, "double_buffer in tril (not worth 1.000x)");
  EXPECT_NE(experiences.at(0).diff.find("BUFFER_NUM = 1"), std::string::npos);
  EXPECT_NE(experiences.at(0).effect.find("geomean over 1 cases of tril"), std::string::npos);

  auto g = run_json("rewrite " + single + " --guided -k 2 --json --bank " + bank + common + " --out " +
                    (dir / "guided").string());
  ASSERT_EQ(g["tries"].size(), 1u) << g.dump(2);
  EXPECT_EQ(g["tries"][0]["motifs"][0], "double_buffer");
  EXPECT_EQ(g["tries"][0]["status"], "ok") << g.dump(2);
  EXPECT_GT(g["tries"][0]["speedup"].get<double>(), 0.9);
  EXPECT_TRUE(fs::exists(fs::path(g["tries"][0]["dir"].get<std::string>()) / "guided.diff"));
  aoc::bank::Bank b(bank);
  const auto adoptions = b.adoptions();
  ASSERT_EQ(adoptions.size(), 1u);
  EXPECT_EQ(adoptions[0].motif, "double_buffer");
  EXPECT_EQ(adoptions[0].entry_id, std::optional<int64_t>(1));
  EXPECT_NEAR(adoptions[0].speedup, g["tries"][0]["speedup"].get<double>(), 1e-9);
}

// neg's expert unrolls its tile loop (two tiles in flight per iteration), so double buffering
// cannot be removed alone; it is removed from the expert without the unrolling instead, and
// what it is worth there is stored against that kernel.
TEST(Rewind, DoubleBufferOfAnUnrolledKernelIsRemovedOnceTheUnrollingIs) {
  const fs::path dir = fresh_dir("pair");
  const std::string bank = (dir / "bank.sqlite").string();
  const std::string neg = std::string(AOC_SOURCE_DIR) + "/ops/elementwise/neg/expert";
  const std::string args = "rewind " + neg + " --motif double_buffer --case prime_1021_fp16 --no-store -j 2 --json --bank " +
                           bank + " --work-dir " + (dir / "work").string();
  auto j = run_json(args);
  const auto& motifs = j["kernels"][0]["motifs"];
  ASSERT_EQ(motifs.size(), 2u) << j.dump(2);
  EXPECT_EQ(motifs[0]["motif"], "double_buffer");
  EXPECT_EQ(motifs[0]["status"], "refused");
  EXPECT_NE(motifs[0]["reason"].get<std::string>().find("two buffers of its queue are in use at once"), std::string::npos);
  EXPECT_EQ(motifs[1]["motif"], "double_buffer");
  EXPECT_EQ(motifs[1]["after"], "unroll") << j.dump(2);
  ASSERT_TRUE(motifs[1]["status"] == "positive" || motifs[1]["status"] == "negative") << j.dump(2);
  EXPECT_EQ(j["entries_stored"], 1);
  const std::string pair_dir = motifs[1]["dir"];
  EXPECT_NE(pair_dir.find("-remove-unroll-then-double_buffer"), std::string::npos);

  aoc::bank::Bank b(bank);
  ASSERT_EQ(b.count(), 1u);
  const auto e = b.entries().at(0);
  EXPECT_EQ(e.motif, "double_buffer");
  EXPECT_EQ(e.source_path, "ops/elementwise/neg/expert without unroll");
  EXPECT_EQ(e.provenance["removed_first"], "unroll");
  EXPECT_EQ(e.title.rfind("double_buffer (unroll removed first) in neg", 0), 0u) << e.title;
  EXPECT_NE(e.diff.find("BUFFER_NUM"), std::string::npos) << e.diff;
  ASSERT_EQ(e.cases.size(), 1u);
  EXPECT_NEAR(e.cases[0].rewound_us / e.cases[0].optimized_us, motifs[1]["speedup"].get<double>(), 1e-9);

  // Again: the pair is recognised in the bank and not measured twice.
  auto again = run_json(args);
  EXPECT_EQ(again["entries_stored"], 0) << again.dump(2);
  EXPECT_EQ(again["entries_already_in_bank"], 1) << again.dump(2);
  EXPECT_TRUE(again["kernels"][0]["motifs"][1].value("from_bank", false)) << again.dump(2);
  EXPECT_EQ(b.count(), 1u);
}
