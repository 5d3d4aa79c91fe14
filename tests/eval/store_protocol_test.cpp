// The result store (persist, find by key, survive reopening) and the harness wire
// format (traces round-trip; forged trace files are refused).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <fstream>

#include "eval/candidate_eval.h"
#include "eval/harness_protocol.h"
#include "eval/result_store.h"

using namespace aoc::eval;
namespace fs = std::filesystem;

namespace {
fs::path temp_path(const std::string& stem) {
  return fs::temp_directory_path() / (stem + "_" + std::to_string(::getpid()));
}
}  // namespace

TEST(ResultStore, PutFindAndReopen) {
  const fs::path file = temp_path("aoc_store") / "r.sqlite";
  fs::remove_all(file.parent_path());
  const ResultKey k{"abc", "add", "public", 7, "Ascend910B1"};
  {
    ResultStore s(file);
    EXPECT_FALSE(s.find(k).has_value());
    s.put(k, "ok", "{\"x\":1}");
    EXPECT_EQ(s.find(k).value(), "{\"x\":1}");
    ResultKey other = k;
    other.seed = 8;
    EXPECT_FALSE(s.find(other).has_value());
  }
  ResultStore again(file);
  EXPECT_EQ(again.count(), 1u);
  EXPECT_EQ(again.find(k).value(), "{\"x\":1}");
  fs::remove_all(file.parent_path());
}

// Parallel runs of a bench open one new store at the same moment: each process must get a usable
// store (a lock taken while another sets the store up is waited for, not reported as an error).
TEST(ResultStore, ProcessesOpeningANewStoreAtOnceAllSucceed) {
  const fs::path dir = temp_path("aoc_store_race");
  fs::remove_all(dir);
  fs::create_directories(dir);
  constexpr int kRounds = 20;
  constexpr int kProcesses = 6;
  int failed = 0;
  for (int round = 0; round < kRounds; ++round) {
    const fs::path file = dir / ("r" + std::to_string(round) + ".sqlite");
    std::vector<pid_t> children;
    for (int p = 0; p < kProcesses; ++p) {
      const pid_t pid = ::fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        try {
          ResultStore s(file);
          s.put(ResultKey{"c" + std::to_string(p), "add", "public", 1, "Ascend910B1"}, "ok", "{}");
          ::_exit(0);
        } catch (const std::exception&) {
          ::_exit(1);
        }
      }
      children.push_back(pid);
    }
    for (const pid_t pid : children) {
      int status = 0;
      ::waitpid(pid, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
    }
    EXPECT_EQ(ResultStore(file).count(), static_cast<size_t>(kProcesses - failed)) << file;
  }
  EXPECT_EQ(failed, 0) << "processes of " << kRounds * kProcesses << " could not open or write a new store";
  fs::remove_all(dir);
}

// A stored report holds NaN and infinite statistics (an output full of NaN has a NaN worst
// value) as JSON null; reading it back gives NaN instead of throwing, which ended a whole
// `ascendopt eval` of many candidates when one of them was recalled from the store.
TEST(ResultStore, ReportsWithNanStatisticsReadBack) {
  CandidateReport r;
  r.op = "muls";
  r.verdict = Verdict::WrongResult;
  CaseResult c;
  c.name = "hidden_1";
  c.verdict = Verdict::WrongResult;
  aoc::package::OutputCheck o;
  o.name = "y";
  o.cmp.worst_actual = std::numeric_limits<double>::quiet_NaN();
  o.cmp.worst_expected = -std::numeric_limits<double>::quiet_NaN();
  o.cmp.max_rel = std::numeric_limits<double>::infinity();
  o.cmp.mean_rel = 0.5;
  c.outputs.push_back(o);
  r.cases.push_back(c);
  const std::string text = to_json(r).dump();
  ASSERT_NE(text.find("\"worst_actual\":null"), std::string::npos) << text;
  const CandidateReport back = report_from_json(nlohmann::json::parse(text));
  ASSERT_EQ(back.cases.size(), 1u);
  ASSERT_EQ(back.cases[0].outputs.size(), 1u);
  const auto& cmp = back.cases[0].outputs[0].cmp;
  EXPECT_TRUE(std::isnan(cmp.worst_actual));
  EXPECT_TRUE(std::isnan(cmp.worst_expected));
  EXPECT_TRUE(std::isnan(cmp.max_rel));  // an infinity is written as null too
  EXPECT_EQ(cmp.mean_rel, 0.5);
  EXPECT_EQ(back.verdict, Verdict::WrongResult);
}

TEST(ResultStore, UnusableFileIsAClearError) {
  const fs::path file = temp_path("aoc_store_bad");
  std::ofstream(file) << "this is not a database, just text that is long enough to matter.....................";
  try {
    ResultStore s(file);
    s.count();
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
  fs::remove(file);
}

TEST(HarnessProtocol, TracesRoundTripWithTheirStrings) {
  std::vector<aoc::runtime::CoreRun> cores(2);
  cores[1].block_idx = 1;
  for (auto& c : cores) {
    aoc::TraceRecord r;
    r.kind = aoc::RecKind::Copy;
    r.pipe = aoc::Pipe::MTE2;
    r.op = "DataCopy";
    r.file = "add.cpp";
    r.line = 42;
    r.bytes = 4096;
    c.trace.records.push_back(r);
  }
  const fs::path p = temp_path("aoc_trace");
  write_traces(p, cores);
  const TraceSet t = read_traces(p);
  ASSERT_EQ(t.cores.size(), 2u);
  EXPECT_EQ(t.cores[1].block_idx, 1);
  ASSERT_EQ(t.cores[0].trace.records.size(), 1u);
  EXPECT_STREQ(t.cores[0].trace.records[0].op, "DataCopy");
  EXPECT_STREQ(t.cores[1].trace.records[0].file, "add.cpp");
  EXPECT_EQ(t.cores[1].trace.records[0].bytes, 4096u);
  // Truncated and forged files are errors, not crashes.
  fs::resize_file(p, fs::file_size(p) - 5);
  EXPECT_THROW(read_traces(p), std::runtime_error);
  // Bytes that are not a trace stream at all.
  std::ofstream(p, std::ios::binary | std::ios::trunc) << "not a trace";
  EXPECT_THROW(read_traces(p), std::runtime_error);
  fs::remove(p);
}

TEST(HarnessProtocol, LongTracesAreWrittenCompressed) {
  // 200k records of a double-buffered loop: the file is a small fraction of the records'
  // in-memory size (which is what an uncompressed file held), and reads back exactly.
  std::vector<aoc::runtime::CoreRun> cores(1);
  for (uint32_t i = 0; i < 200000; ++i) {
    aoc::TraceRecord r;
    r.kind = aoc::RecKind::Copy;
    r.pipe = i % 2 ? aoc::Pipe::MTE3 : aoc::Pipe::MTE2;
    r.op = "DataCopy";
    r.file = "add.cpp";
    r.line = 40 + i % 2;
    r.bytes = 32768;
    r.nreads = 1;
    r.reads[0] = {aoc::Space::GM, uint64_t(i) * 32768, uint64_t(i + 1) * 32768};
    cores[0].trace.records.push_back(r);
  }
  const fs::path p = temp_path("aoc_long_trace");
  write_traces(p, cores);
  const uint64_t raw = cores[0].trace.records.size() * sizeof(aoc::TraceRecord);
  EXPECT_LT(fs::file_size(p) * 10, raw) << fs::file_size(p) << " bytes for " << raw << " bytes of records";
  const TraceSet t = read_traces(p);
  ASSERT_EQ(t.cores[0].trace.records.size(), 200000u);
  EXPECT_EQ(t.cores[0].trace.records[199999].reads[0].lo, 199999ull * 32768);
  EXPECT_EQ(t.cores[0].trace.records[199999].pipe, aoc::Pipe::MTE3);
  fs::remove(p);
}
