// The experience bank file: round trip of entries, refusal of files that are not a bank of
// this schema version (their bytes unchanged), concurrent writers losing nothing.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "bank/store.h"
#include "base/file_text.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using aoc::base::read_text;
using aoc::bank::Bank;
using aoc::bank::BankError;
using aoc::bank::Entry;

namespace {

fs::path fresh_dir(const std::string& name) { return aoc::testing::fresh_scratch_subdir(name); }

Entry measured(const std::string& motif, double slow) {
  Entry e;
  e.kind = slow > 1.02 ? aoc::bank::kPositive : aoc::bank::kNegative;
  e.motif = motif;
  e.op = "add";
  e.category = "elementwise";
  e.source_path = "ops/elementwise/add/expert";
  e.source_hash = "abc123";
  e.cases = {{"c1", 10.0, 10.0 * slow}, {"c2", 20.0, 20.0 * slow}};
  e.geomean = aoc::bank::geomean_speedup(e.cases);
  e.context.dtypes = {"float16", "float32"};
  e.context.bound = "aiv_mte2_time";
  e.context.cores = 40;
  e.context.vec_mte2_ratio = 0.5;
  e.profile.before = {{"aiv_mte2_time", 5.0}};
  e.profile.after = {{"aiv_mte2_time", 6.0}};
  e.provenance = {{"soc", "Ascend910B1"}, {"seed", 1}};
  e.title = "remove " + motif;
  e.diff = "--- a\n+++ b\n";
  return e;
}

// Bytes of a file before and after trying to open it as a bank; the open must fail with a
// message naming the file and containing `expect`.
void expect_refused_unchanged(const fs::path& file, const std::string& expect) {
  const std::string before = read_text(file);
  try {
    Bank b(file);
    FAIL() << "opened " << file;
  } catch (const BankError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(file.string()), std::string::npos) << msg;
    EXPECT_NE(msg.find(expect), std::string::npos) << msg;
    EXPECT_NE(msg.find("untouched"), std::string::npos) << msg;
  }
  EXPECT_EQ(read_text(file), before);
  EXPECT_FALSE(fs::exists(file.string() + "-wal") && fs::file_size(file.string() + "-wal") > 0);
}

void sqlite_exec(const fs::path& file, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

}  // namespace

TEST(BankStore, EntriesAndAdoptionsRoundTrip) {
  const fs::path file = fresh_dir("roundtrip") / "sub" / "bank.sqlite";
  {
    Bank b(file);
    EXPECT_EQ(b.insert(measured("double_buffer", 1.10)), 1);
    EXPECT_EQ(b.insert(measured("ub_bank_pad", 1.00)), 2);
    b.record({1, "double_buffer", "hash1", "abs", true, 1.07});
    b.record({std::nullopt, "double_buffer", "hash2", "relu", false, 0.98});
  }
  Bank b(file);  // reopened: the schema is there
  ASSERT_EQ(b.count(), 2u);
  const auto e = b.find(1);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, "positive");
  EXPECT_EQ(e->motif, "double_buffer");
  ASSERT_EQ(e->cases.size(), 2u);
  EXPECT_NEAR(e->cases[1].speedup(), 1.10, 1e-9);
  EXPECT_NEAR(*e->geomean, 1.10, 1e-9);
  EXPECT_EQ(e->context.bound, "aiv_mte2_time");
  EXPECT_EQ(e->context.cores, 40u);
  EXPECT_NEAR(*e->context.vec_mte2_ratio, 0.5, 1e-12);
  EXPECT_EQ(e->profile.after.at("aiv_mte2_time"), 6.0);
  EXPECT_EQ(e->provenance["soc"], "Ascend910B1");
  EXPECT_FALSE(e->created.empty());
  EXPECT_EQ(b.find(2)->kind, "negative");
  EXPECT_FALSE(b.find(3));
  const auto st = b.stats("double_buffer");
  EXPECT_EQ(st.tried, 2u);
  EXPECT_EQ(st.helped, 1u);
  ASSERT_EQ(b.adoptions().size(), 2u);
  EXPECT_EQ(*b.adoptions()[0].entry_id, 1);
  EXPECT_FALSE(b.adoptions()[1].entry_id);
}

TEST(BankStore, FileThatIsNotSqliteIsRefusedAndUnchanged) {
  const fs::path file = fresh_dir("corrupt") / "bank.sqlite";
  std::ofstream(file, std::ios::binary) << "this is not a database, it is a text file with some bytes\n";
  expect_refused_unchanged(file, "is not a SQLite database");
  // A file with the SQLite magic but garbage after it.
  const fs::path torn = file.parent_path() / "torn.sqlite";
  std::string bytes("SQLite format 3", 16);
  bytes += std::string(5000, '\x5a');
  std::ofstream(torn, std::ios::binary) << bytes;
  const std::string before = read_text(torn);
  EXPECT_THROW(Bank b(torn), BankError);
  EXPECT_EQ(read_text(torn), before);
}

TEST(BankStore, NewerSchemaVersionIsRefusedAndUnchanged) {
  const fs::path file = fresh_dir("version") / "bank.sqlite";
  sqlite_exec(file, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('schema_version', '7');"
                    "CREATE TABLE entries (id INTEGER PRIMARY KEY, x TEXT); INSERT INTO entries VALUES (1, 'future');");
  expect_refused_unchanged(file, "has schema version 7 but this ascendopt reads version 1");
}

TEST(BankStore, OtherProgramsDatabaseIsRefusedAndUnchanged) {
  const fs::path file = fresh_dir("other") / "results.sqlite";
  sqlite_exec(file, "CREATE TABLE results (k TEXT PRIMARY KEY, v TEXT); INSERT INTO results VALUES ('a', 'b');");
  expect_refused_unchanged(file, "no meta table");
}

TEST(BankStore, TwoThreadsWritingAtOnceLoseNothing) {
  const fs::path file = fresh_dir("threads") / "bank.sqlite";
  auto writer = [&](const std::string& motif) {
    Bank b(file);  // both open the fresh file at once
    for (int i = 0; i < 200; ++i) b.insert(measured(motif, 1.0 + i * 0.001));
  };
  std::thread t1(writer, "double_buffer"), t2(writer, "event_sync");
  t1.join();
  t2.join();
  Bank b(file);
  EXPECT_EQ(b.count(), 400u);
  size_t db = 0;
  for (const auto& e : b.entries()) db += e.motif == "double_buffer";
  EXPECT_EQ(db, 200u);
}

TEST(BankStore, TwoProcessesWritingAtOnceLoseNothing) {
  const fs::path file = fresh_dir("procs") / "bank.sqlite";
  std::vector<pid_t> kids;
  for (int k = 0; k < 2; ++k) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int status = 0;
      try {
        Bank b(file);
        for (int i = 0; i < 200; ++i) b.insert(measured(k ? "a" : "b", 1.0));
        for (int i = 0; i < 20; ++i) b.record({std::nullopt, k ? "a" : "b", "t", "op", true, 1.1});
      } catch (...) {
        status = 1;
      }
      ::_exit(status);
    }
    kids.push_back(pid);
  }
  for (pid_t pid : kids) {
    int st = 0;
    ::waitpid(pid, &st, 0);
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  Bank b(file);
  EXPECT_EQ(b.count(), 400u);
  EXPECT_EQ(b.adoptions().size(), 40u);
}
