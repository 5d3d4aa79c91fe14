// Golden outputs on disk: they come back bit for bit (narrowed only where exact); a damaged, truncated or foreign
// file reads as absent and is written again; the folder keeps to its budget, least recently
// used first; and a candidate evaluated in a process whose memory cache is empty takes its
// references from the files with results identical to computing them.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include "eval/reference_cache.h"
#include "eval/reference_files.h"
#include "eval_test_support.h"
#include "base/rng.h"
#include "scratch_dir.h"

using namespace aoc::eval;
using namespace aoc::eval::testing;
namespace fs = std::filesystem;

namespace {

// Two trials of two outputs: random doubles (kept as doubles) and values a half holds exactly
// (kept as halves), with a NaN and an infinity in each.
TrialReferences entry(uint64_t seed, size_t elements) {
  aoc::base::Xoshiro256 rng(seed);
  TrialReferences e;
  for (int t = 0; t < 2; ++t) {
    aoc::package::GoldenLibrary::Result r;
    r.ok = true;
    std::vector<double> wide(elements), half(elements);
    for (double& v : wide) v = static_cast<double>(rng.next() >> 11) * 0x1p-53 - 0.5;
    for (double& v : half) v = aoc::package::round_to(aoc::package::ElemType::F16, static_cast<double>(rng.next() % 4096) / 64.0);
    wide[0] = half[0] = std::numeric_limits<double>::quiet_NaN();
    wide[1] = half[1] = -std::numeric_limits<double>::infinity();
    half[2] = -0.0;
    r.outputs = {wide, half};
    e.push_back(r);
  }
  return e;
}

void expect_equal(const TrialReferences& a, const TrialReferences& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t t = 0; t < a.size(); ++t) {
    EXPECT_EQ(a[t].ok, b[t].ok);
    EXPECT_EQ(a[t].error, b[t].error);
    ASSERT_EQ(a[t].outputs.size(), b[t].outputs.size());
    for (size_t o = 0; o < a[t].outputs.size(); ++o) {
      const auto &x = a[t].outputs[o], &y = b[t].outputs[o];
      ASSERT_EQ(x.size(), y.size());
      for (size_t i = 0; i < x.size(); ++i) {
        if (std::isnan(x[i])) EXPECT_TRUE(std::isnan(y[i])) << "output " << o << " [" << i << "]";
        else EXPECT_EQ(0, std::memcmp(&x[i], &y[i], sizeof(double))) << "output " << o << " [" << i << "]: " << x[i] << " vs " << y[i];
      }
    }
  }
}

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& d : fs::directory_iterator(dir))
    if (d.path().extension() == ".ref") out.push_back(d.path());
  return out;
}

}  // namespace

TEST(ReferenceFiles, AnEntryComesBackExactly) {
  aoc::testing::ScratchDir dir("reffiles");
  const ReferenceFiles files(dir.path() / "references", 64 << 20);
  const TrialReferences e = entry(1, 1000);
  EXPECT_FALSE(files.load("case a", 1));
  files.save("case a", e);
  const auto back = files.load("case a", 2);
  ASSERT_TRUE(back);
  expect_equal(e, *back);
  const auto first = files.load("case a", 1);
  ASSERT_TRUE(first) << "a two-trial entry serves a one-trial run";
  EXPECT_EQ(first->size(), 1u);
  EXPECT_FALSE(files.load("case a", 3));
  EXPECT_FALSE(files.load("case b", 1));
  // The half-valued output is stored as halves: the file is much smaller than the doubles.
  const auto size = fs::file_size(files_in(files.dir()).at(0));
  EXPECT_LT(size, 2 * 1000 * (8 + 3)) << "the half-valued output was not narrowed";
  EXPECT_GT(size, 2 * 1000 * 8) << "the random doubles cannot be narrowed";
}

TEST(ReferenceFiles, DamagedFilesReadAsAbsentAndAreWrittenAgain) {
  aoc::testing::ScratchDir dir("reffiles");
  const ReferenceFiles files(dir.path() / "references", 64 << 20);
  const TrialReferences e = entry(2, 1000);
  files.save("k", e);
  const fs::path file = files_in(files.dir()).at(0);
  const auto size = fs::file_size(file);

  flip_byte(file, static_cast<std::streamoff>(size / 2));  // inside the compressed body
  EXPECT_FALSE(files.load("k", 1));
  files.save("k", e);
  ASSERT_TRUE(files.load("k", 2)) << "a damaged file is replaced";

  fs::resize_file(file, size - 7);
  EXPECT_FALSE(files.load("k", 1));
  std::ofstream(file, std::ios::trunc) << "not a reference file";
  EXPECT_FALSE(files.load("k", 1));
  fs::resize_file(file, 0);
  EXPECT_FALSE(files.load("k", 1));
  files.save("k", e);
  const auto back = files.load("k", 2);
  ASSERT_TRUE(back);
  expect_equal(e, *back);
}

TEST(ReferenceFiles, KeepsToItsBudgetLeastRecentlyUsedFirst) {
  aoc::testing::ScratchDir dir("reffiles");
  // Each entry is about 2 x (8000 + 2000) bytes of random data.
  const ReferenceFiles files(dir.path() / "references", 50000);
  const auto now = fs::file_time_type::clock::now();
  files.save("a", entry(3, 1000));
  files.save("b", entry(4, 1000));
  ASSERT_EQ(files_in(files.dir()).size(), 2u);
  for (const fs::path& f : files_in(files.dir())) fs::last_write_time(f, now - std::chrono::minutes(10));
  ASSERT_TRUE(files.load("a", 1));  // "a" is now the more recently used
  files.save("c", entry(5, 1000));
  EXPECT_TRUE(files.load("a", 1));
  EXPECT_FALSE(files.load("b", 1)) << "the least recently used entry should have gone";
  EXPECT_TRUE(files.load("c", 1));
  files.save("huge", entry(6, 3000));  // more than half the budget: not kept
  EXPECT_FALSE(files.load("huge", 1));
  const ReferenceFiles off(dir.path() / "off", 0);
  off.save("a", entry(3, 1000));
  EXPECT_FALSE(fs::exists(off.dir()));
}

TEST(ReferenceFiles, AFreshProcessCacheTakesReferencesFromFilesWithIdenticalResults) {
  const std::vector<std::string> cases = {"tiny_fp16", "prime_1021_fp16"};
  CandidateEvalOptions o = test_options(cases);
  o.seed = 0x5eedf11e;
  ReferenceCache& memory = ReferenceCache::shared();
  memory.clear();
  const CandidateReport first = evaluate_dir(add_package(), o);
  ASSERT_EQ(first.verdict, Verdict::Ok) << first.message;

  memory.clear();  // as a new process would start
  const size_t hits = ReferenceFiles::hits();
  const CandidateReport again = evaluate_dir(add_package(), o);
  EXPECT_EQ(ReferenceFiles::hits(), hits + cases.size()) << "the references were not read from files";
  ASSERT_EQ(again.cases.size(), first.cases.size());
  for (size_t i = 0; i < first.cases.size(); ++i) {
    EXPECT_EQ(again.cases[i].verdict, first.cases[i].verdict);
    EXPECT_EQ(again.cases[i].sim_us, first.cases[i].sim_us);
    ASSERT_EQ(again.cases[i].outputs.size(), first.cases[i].outputs.size());
    for (size_t k = 0; k < first.cases[i].outputs.size(); ++k) {
      EXPECT_EQ(again.cases[i].outputs[k].cmp.max_rel, first.cases[i].outputs[k].cmp.max_rel);
      EXPECT_EQ(again.cases[i].outputs[k].cmp.mean_rel, first.cases[i].outputs[k].cmp.mean_rel);
    }
  }

  // A wrong kernel is still caught with references from files.
  memory.clear();
  const size_t before_wrong = ReferenceFiles::hits();
  EXPECT_EQ(evaluate_dir(bad_kernel("wrong_result"), o).verdict, Verdict::WrongResult);
  EXPECT_GT(ReferenceFiles::hits(), before_wrong);
}

// Outputs compression barely shrinks are stored as they are; checked and read back the same way.
TEST(ReferenceFiles, AnIncompressibleEntryIsStoredAsItIsAndChecked) {
  aoc::testing::ScratchDir dir("reffiles");
  const ReferenceFiles files(dir.path() / "references", 64 << 20);
  TrialReferences e = entry(9, 4000);
  for (auto& trial : e) trial.outputs.resize(1);  // only the random doubles
  files.save("raw", e);
  const fs::path file = files_in(files.dir()).at(0);
  std::ifstream in(file, std::ios::binary);
  char magic[8] = {};
  in.read(magic, sizeof magic);
  EXPECT_EQ(std::string(magic, 8), std::string("AOCREFS\n")) << "stored compressed";
  const auto back = files.load("raw", 2);
  ASSERT_TRUE(back);
  expect_equal(e, *back);
  const auto size = fs::file_size(file);
  flip_byte(file, static_cast<std::streamoff>(size - 3));
  EXPECT_FALSE(files.load("raw", 1));
  flip_byte(file, static_cast<std::streamoff>(size - 3));
  EXPECT_TRUE(files.load("raw", 1));
  fs::resize_file(file, size - 8);
  EXPECT_FALSE(files.load("raw", 1));
}
