// Inputs kept on disk beside the golden outputs: an entry maps back bit for bit; a damaged,
// truncated or foreign file reads as absent; an evaluation whose memory cache is empty (as in a
// new process) takes the inputs from the files without drawing them and judges the same; a
// corrupted file is drawn and written again with identical results; another seed or another
// case is another file.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <set>

#include "eval/reference_cache.h"
#include "eval/reference_files.h"
#include "eval_test_support.h"
#include "package/case_inputs.h"
#include "scratch_dir.h"

using namespace aoc::eval;
using namespace aoc::eval::testing;
namespace fs = std::filesystem;

namespace {

CaseInputs drawn_inputs(uint64_t seed) {
  std::vector<std::vector<aoc::package::CaseTensor>> trials;
  for (int t = 0; t < 2; ++t) {
    std::vector<aoc::package::CaseTensor> tensors;
    for (const auto type : {aoc::package::ElemType::F16, aoc::package::ElemType::F32}) {
      aoc::package::CaseTensor x;
      x.name = type == aoc::package::ElemType::F16 ? "x" : "y";
      x.shape = {3, 337};
      x.data = aoc::package::TypedBuffer(type, 3 * 337);
      aoc::package::ValueRange range;
      aoc::package::fill_values(x.data, range, seed + static_cast<uint64_t>(t));
      tensors.push_back(std::move(x));
    }
    trials.push_back(std::move(tensors));
  }
  return CaseInputs(std::move(trials));
}

void expect_same_inputs(const CaseInputs& a, const CaseInputs& b, size_t trials) {
  ASSERT_GE(a.trials(), trials);
  ASSERT_EQ(b.trials(), trials);
  for (size_t t = 0; t < trials; ++t) {
    ASSERT_EQ(a.count(t), b.count(t));
    for (size_t i = 0; i < a.count(t); ++i) {
      EXPECT_EQ(a.shape(t, i), b.shape(t, i));
      ASSERT_EQ(a.bytes(t, i).size(), b.bytes(t, i).size());
      EXPECT_EQ(0, std::memcmp(a.bytes(t, i).data(), b.bytes(t, i).data(), a.bytes(t, i).size()));
      EXPECT_EQ(a.tensors(t)[i].name, b.tensors(t)[i].name);
      EXPECT_EQ(a.tensors(t)[i].data.type, b.tensors(t)[i].data.type);
      EXPECT_EQ(a.tensors(t)[i].data.bytes, b.tensors(t)[i].data.bytes) << "the copy made for the golden";
    }
  }
}

std::set<fs::path> input_files_in(const fs::path& dir) {
  std::set<fs::path> out;
  std::error_code ec;
  for (const auto& d : fs::directory_iterator(dir, ec))
    if (d.path().extension() == ".in") out.insert(d.path());
  return out;
}

std::set<fs::path> added(const std::set<fs::path>& before, const std::set<fs::path>& after) {
  std::set<fs::path> out;
  for (const auto& f : after)
    if (!before.count(f)) out.insert(f);
  return out;
}

// A seed no earlier run of the tests used, so the first evaluation must draw.
uint64_t fresh_seed() {
  return static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) * 2654435761u + 17;
}

// A folder of their own for the evaluations of this test program, since other test programs
// evaluating at the same time write theirs to the build cache's.
const fs::path& reference_dir() {
  static const aoc::testing::ScratchDir dir("inputfiles-eval");
  return dir.path();
}

CandidateEvalOptions options(std::vector<std::string> cases) {
  CandidateEvalOptions o = test_options(std::move(cases));
  o.reference_dir = reference_dir();
  o.seed = fresh_seed();
  return o;
}

void expect_same_results(const CandidateReport& a, const CandidateReport& b) {
  ASSERT_EQ(a.cases.size(), b.cases.size());
  for (size_t i = 0; i < a.cases.size(); ++i) {
    EXPECT_EQ(a.cases[i].verdict, b.cases[i].verdict) << a.cases[i].name;
    EXPECT_EQ(a.cases[i].sim_us, b.cases[i].sim_us) << a.cases[i].name;
    EXPECT_EQ(a.cases[i].t_hw_us, b.cases[i].t_hw_us) << a.cases[i].name;
    ASSERT_EQ(a.cases[i].outputs.size(), b.cases[i].outputs.size());
    for (size_t k = 0; k < a.cases[i].outputs.size(); ++k) {
      EXPECT_EQ(a.cases[i].outputs[k].cmp.max_rel, b.cases[i].outputs[k].cmp.max_rel);
      EXPECT_EQ(a.cases[i].outputs[k].cmp.mean_rel, b.cases[i].outputs[k].cmp.mean_rel);
      EXPECT_EQ(a.cases[i].outputs[k].cmp.worst_index, b.cases[i].outputs[k].cmp.worst_index);
    }
  }
}

}  // namespace

TEST(InputFiles, AnEntryMapsBackExactly) {
  aoc::testing::ScratchDir dir("inputfiles");
  const ReferenceFiles files(dir.path() / "references", 64 << 20);
  const CaseInputs in = drawn_inputs(1);
  EXPECT_EQ(files.load_inputs("case a", 1), nullptr);
  files.save_inputs("case a", in);
  const auto back = files.load_inputs("case a", 2);
  ASSERT_NE(back, nullptr);
  EXPECT_TRUE(back->mapped());
  expect_same_inputs(in, *back, 2);
  const auto first = files.load_inputs("case a", 1);
  ASSERT_NE(first, nullptr) << "a two-trial entry serves a one-trial run";
  expect_same_inputs(in, *first, 1);
  EXPECT_EQ(files.load_inputs("case a", 3), nullptr);
  EXPECT_EQ(files.load_inputs("case b", 1), nullptr);
  const ReferenceFiles off(dir.path() / "off", 0);
  off.save_inputs("case a", in);
  EXPECT_FALSE(fs::exists(off.dir()));
}

TEST(InputFiles, DamagedFilesReadAsAbsentAndAreWrittenAgain) {
  aoc::testing::ScratchDir dir("inputfiles");
  const ReferenceFiles files(dir.path() / "references", 64 << 20);
  const CaseInputs in = drawn_inputs(2);
  files.save_inputs("k", in);
  const std::set<fs::path> written = input_files_in(files.dir());
  ASSERT_EQ(written.size(), 1u);
  const fs::path file = *written.begin();
  const auto size = static_cast<std::streamoff>(fs::file_size(file));
  for (const std::streamoff at : {std::streamoff{3}, std::streamoff{12}, std::streamoff{30}, size / 2, size - 1}) {
    flip_byte(file, at);
    EXPECT_EQ(files.load_inputs("k", 1), nullptr) << "byte " << at << " changed";
    flip_byte(file, at);
    ASSERT_NE(files.load_inputs("k", 2), nullptr) << "byte " << at << " restored";
  }
  fs::resize_file(file, static_cast<uintmax_t>(size - 7));
  EXPECT_EQ(files.load_inputs("k", 1), nullptr);
  fs::resize_file(file, static_cast<uintmax_t>(size + 64));
  EXPECT_EQ(files.load_inputs("k", 1), nullptr);
  std::ofstream(file, std::ios::trunc) << "not an inputs file";
  EXPECT_EQ(files.load_inputs("k", 1), nullptr);
  fs::resize_file(file, 0);
  EXPECT_EQ(files.load_inputs("k", 1), nullptr);
  files.save_inputs("k", in);
  const auto back = files.load_inputs("k", 2);
  ASSERT_NE(back, nullptr) << "a damaged file is replaced";
  expect_same_inputs(in, *back, 2);
}

TEST(InputFiles, ASecondEvaluationTakesTheInputsFromFilesWithoutDrawing) {
  const std::vector<std::string> cases = {"tiny_fp16", "prime_1021_fp16"};
  const CandidateEvalOptions o = options(cases);
  ReferenceCache& memory = ReferenceCache::shared();
  memory.clear();
  const std::set<fs::path> before = input_files_in(reference_dir());
  const size_t drawn = case_inputs_drawn();
  const CandidateReport first = evaluate_dir(add_package(), o);
  ASSERT_EQ(first.verdict, Verdict::Ok) << first.message;
  EXPECT_EQ(case_inputs_drawn(), drawn + cases.size()) << "a new seed must draw its inputs";
  EXPECT_EQ(added(before, input_files_in(reference_dir())).size(), cases.size()) << "one inputs file per case";

  memory.clear();  // as a new process would start
  const size_t hits = ReferenceFiles::input_hits();
  const CandidateReport again = evaluate_dir(add_package(), o);
  EXPECT_EQ(case_inputs_drawn(), drawn + cases.size()) << "the second evaluation drew its inputs again";
  EXPECT_EQ(ReferenceFiles::input_hits(), hits + cases.size());
  expect_same_results(first, again);

  // A wrong kernel is still caught with inputs from files.
  memory.clear();
  EXPECT_EQ(evaluate_dir(bad_kernel("wrong_result"), o).verdict, Verdict::WrongResult);
  EXPECT_EQ(case_inputs_drawn(), drawn + cases.size());
}

TEST(InputFiles, ACorruptedFileIsDrawnAgainWithIdenticalResults) {
  const CandidateEvalOptions o = options({"prime_1021_fp16"});
  ReferenceCache& memory = ReferenceCache::shared();
  memory.clear();
  const std::set<fs::path> before = input_files_in(reference_dir());
  const CandidateReport first = evaluate_dir(add_package(), o);
  ASSERT_EQ(first.verdict, Verdict::Ok) << first.message;
  const std::set<fs::path> mine = added(before, input_files_in(reference_dir()));
  ASSERT_EQ(mine.size(), 1u);
  const fs::path file = *mine.begin();
  const auto size = static_cast<std::streamoff>(fs::file_size(file));

  for (int damage = 0; damage < 2; ++damage) {
    if (damage == 0) flip_byte(file, size - 5);  // inside the last tensor's bytes
    else fs::resize_file(file, static_cast<uintmax_t>(size / 2));
    memory.clear();
    const size_t drawn = case_inputs_drawn(), hits = ReferenceFiles::input_hits();
    const CandidateReport again = evaluate_dir(add_package(), o);
    EXPECT_EQ(case_inputs_drawn(), drawn + 1) << "damage " << damage << ": the damaged file was trusted";
    EXPECT_EQ(ReferenceFiles::input_hits(), hits);
    expect_same_results(first, again);
    EXPECT_EQ(static_cast<std::streamoff>(fs::file_size(file)), size) << "the file is written again";

    memory.clear();
    const size_t drawn_after = case_inputs_drawn();
    expect_same_results(first, evaluate_dir(add_package(), o));
    EXPECT_EQ(case_inputs_drawn(), drawn_after) << "the rewritten file serves the next evaluation";
  }
}

TEST(InputFiles, AnotherSeedOrCaseIsAnotherFile) {
  ReferenceCache& memory = ReferenceCache::shared();
  memory.clear();
  const uint64_t seed = fresh_seed();
  auto files_of = [&](const std::string& name, uint64_t s) {
    CandidateEvalOptions o = options({name});
    o.seed = s;
    const std::set<fs::path> before = input_files_in(reference_dir());
    EXPECT_EQ(evaluate_dir(add_package(), o).verdict, Verdict::Ok);
    return added(before, input_files_in(reference_dir()));
  };
  const std::set<fs::path> a = files_of("prime_1021_fp16", seed);
  const std::set<fs::path> b = files_of("prime_1021_fp16", seed + 1);
  const std::set<fs::path> c = files_of("rank1_small_fp32", seed);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u) << "another seed wrote no file of its own";
  ASSERT_EQ(c.size(), 1u) << "another case wrote no file of its own";
  const std::string ta = aoc::base::read_text(*a.begin()), tb = aoc::base::read_text(*b.begin());
  ASSERT_EQ(ta.size(), tb.size()) << "the same shapes";
  EXPECT_NE(ta, tb);
  EXPECT_NE(aoc::base::read_text(*c.begin()).size(), ta.size()) << "another case, other shapes";
}
