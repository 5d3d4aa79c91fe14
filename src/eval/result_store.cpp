#include "eval/result_store.h"

#include <sqlite3.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "base/sqlite_statement.h"

namespace aoc::eval {

namespace {

base::SqliteStatement prepare(sqlite3* db, const char* sql, const std::string& file) {
  base::SqliteStatement s(db, sql);
  if (s.prepared() != SQLITE_OK) throw std::runtime_error("result store " + file + ": " + sqlite3_errmsg(db));
  return s;
}

void bind_key(base::SqliteStatement& s, const ResultKey& k) {
  s.bind_text(1, k.candidate_hash);
  s.bind_text(2, k.op);
  s.bind_text(3, k.case_set);
  s.bind_int(4, static_cast<int64_t>(k.seed));
  s.bind_text(5, k.soc);
}

}  // namespace

ResultStore::ResultStore(const std::filesystem::path& file) : file_(file) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  if (sqlite3_open_v2(file.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    const std::string msg = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("cannot open the result store " + file.string() + ": " + msg +
                             " (pass --store with a writable path)");
  }
  sqlite3_busy_timeout(db_, 10000);
  // Several ascendopt processes (a bench's parallel runs) may open a new store at once. Switching
  // it to WAL and creating the table take write locks; SQLite returns SQLITE_BUSY without waiting
  // when waiting could deadlock (a reader upgrading to a writer), so a busy schema step is retried.
  const char* schema =
      "PRAGMA journal_mode=WAL;"
      "BEGIN IMMEDIATE;"
      "CREATE TABLE IF NOT EXISTS results ("
      " candidate_hash TEXT NOT NULL, op TEXT NOT NULL, case_set TEXT NOT NULL, seed INTEGER NOT NULL,"
      " soc TEXT NOT NULL, verdict TEXT NOT NULL, report TEXT NOT NULL,"
      " created TEXT NOT NULL DEFAULT (datetime('now')),"
      " PRIMARY KEY (candidate_hash, op, case_set, seed, soc));"
      "COMMIT;";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (true) {
    char* err = nullptr;
    const int rc = sqlite3_exec(db_, schema, nullptr, nullptr, &err);
    if (rc == SQLITE_OK) break;
    const std::string msg = err != nullptr ? err : "unknown error";
    sqlite3_free(err);
    if (sqlite3_get_autocommit(db_) == 0) sqlite3_exec(db_, "ROLLBACK;", nullptr, nullptr, nullptr);
    const bool busy = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
    if (busy && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    sqlite3_close(db_);
    db_ = nullptr;
    if (busy)
      throw std::runtime_error("result store " + file.string() + " stayed locked for 30 s: " + msg +
                               " (another process holds it; wait for it or pass another --store)");
    throw std::runtime_error("result store " + file.string() + " is not usable: " + msg +
                             " (is it an ascendopt store? pass another --store)");
  }
}

ResultStore::~ResultStore() { sqlite3_close(db_); }

std::optional<std::string> ResultStore::find(const ResultKey& k) {
  std::lock_guard lock(mu_);
  base::SqliteStatement st = prepare(
      db_, "SELECT report FROM results WHERE candidate_hash=?1 AND op=?2 AND case_set=?3 AND seed=?4 AND soc=?5",
      file_.string());
  bind_key(st, k);
  if (st.step() != SQLITE_ROW) return std::nullopt;
  return st.column_text(0);
}

void ResultStore::put(const ResultKey& k, const std::string& verdict, const std::string& report_json) {
  std::lock_guard lock(mu_);
  base::SqliteStatement st = prepare(db_,
                                     "INSERT OR REPLACE INTO results (candidate_hash, op, case_set, seed, soc, verdict, report) "
                                     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                                     file_.string());
  bind_key(st, k);
  st.bind_text(6, verdict);
  st.bind_text(7, report_json);
  if (st.step() != SQLITE_DONE)
    throw std::runtime_error("cannot write to the result store " + file_.string() + ": " + sqlite3_errmsg(db_));
}

size_t ResultStore::count() {
  std::lock_guard lock(mu_);
  base::SqliteStatement st = prepare(db_, "SELECT COUNT(*) FROM results", file_.string());
  return st.step() == SQLITE_ROW ? static_cast<size_t>(st.column_int(0)) : 0;
}

size_t ResultStore::merge_from(const std::filesystem::path& other) {
  std::lock_guard lock(mu_);
  if (!std::filesystem::is_regular_file(other))
    throw std::runtime_error("cannot merge the result store " + other.string() + ": no such file");
  {
    base::SqliteStatement attach = prepare(db_, "ATTACH DATABASE ?1 AS other", file_.string());
    attach.bind_text(1, other.string());
    if (attach.step() != SQLITE_DONE)
      throw std::runtime_error("cannot read the result store " + other.string() + ": " + sqlite3_errmsg(db_));
  }
  const int before = sqlite3_total_changes(db_);
  char* err = nullptr;
  const int rc = sqlite3_exec(db_,
                              "INSERT OR IGNORE INTO results (candidate_hash, op, case_set, seed, soc, verdict, report, created) "
                              "SELECT candidate_hash, op, case_set, seed, soc, verdict, report, created FROM other.results",
                              nullptr, nullptr, &err);
  const std::string msg = err != nullptr ? err : "";
  sqlite3_free(err);
  const size_t added = static_cast<size_t>(sqlite3_total_changes(db_) - before);
  sqlite3_exec(db_, "DETACH DATABASE other", nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK)
    throw std::runtime_error("cannot merge the result store " + other.string() + " into " + file_.string() + ": " + msg);
  return added;
}

}  // namespace aoc::eval
