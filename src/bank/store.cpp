#include "bank/store.h"

#include <sqlite3.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

#include "base/paths.h"
#include "base/sqlite_statement.h"

namespace aoc::bank {
namespace fs = std::filesystem;

namespace {

// The database was locked by another connection setting it up: try again shortly.
struct Busy {};

const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL, motif TEXT NOT NULL, op TEXT, category TEXT,
  source_path TEXT, source_hash TEXT, title TEXT, description TEXT, bottleneck TEXT, diff TEXT,
  geomean REAL, cases_json TEXT, profile_json TEXT, context_json TEXT, provenance_json TEXT,
  created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')));
CREATE TABLE IF NOT EXISTS adoptions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  entry_id INTEGER REFERENCES entries(id), motif TEXT NOT NULL,
  target_hash TEXT NOT NULL, target_op TEXT, helped INTEGER NOT NULL, speedup REAL,
  created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')));
CREATE INDEX IF NOT EXISTS adoptions_motif ON adoptions(motif);
INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', '1');
)sql";

bool busy(int rc) { return rc == SQLITE_BUSY || rc == SQLITE_LOCKED; }

// A statement of the bank: a busy database is retried by the caller, other failures name the file.
base::SqliteStatement prepare(sqlite3* db, const char* sql, const fs::path& file) {
  base::SqliteStatement s(db, sql);
  if (busy(s.prepared())) throw Busy{};
  if (s.prepared() != SQLITE_OK) throw BankError("experience bank " + file.string() + ": " + sqlite3_errmsg(db));
  return s;
}

// True while a row is available.
bool step(base::SqliteStatement& s, sqlite3* db, const fs::path& file) {
  const int rc = s.step();
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  if (busy(rc)) throw Busy{};
  if (rc == SQLITE_NOTADB)
    throw BankError(file.string() + " is not a SQLite database; it was left untouched. Pass --bank with another "
                    "file, or move this one away");
  throw BankError("experience bank " + file.string() + ": " + sqlite3_errmsg(db));
}

void exec(sqlite3* db, const char* sql, const fs::path& file) {
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &err);
  const std::string msg = err ? err : "";
  sqlite3_free(err);
  if (busy(rc)) throw Busy{};
  if (rc == SQLITE_NOTADB)
    throw BankError(file.string() + " is not a SQLite database; it was left untouched. Pass --bank with another file, "
                    "or move this one away");
  if (rc != SQLITE_OK) throw BankError("experience bank " + file.string() + ": " + msg);
}

nlohmann::json parse_or(const std::string& s, nlohmann::json fallback) {
  if (s.empty()) return fallback;
  auto j = nlohmann::json::parse(s, nullptr, false);
  return j.is_discarded() ? fallback : j;
}

// Writes `body` inside BEGIN IMMEDIATE ... COMMIT, retrying while another writer holds the lock
// beyond the busy timeout.
template <class F>
void write_transaction(sqlite3* db, const fs::path& file, F body) {
  for (int attempt = 0;; ++attempt) {
    try {
      exec(db, "BEGIN IMMEDIATE", file);
      try {
        body();
        exec(db, "COMMIT", file);
        return;
      } catch (...) {
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
      }
    } catch (const Busy&) {
      if (attempt >= 50)
        throw BankError("experience bank " + file.string() + " stayed locked by another writer; try again");
      std::this_thread::sleep_for(std::chrono::milliseconds(20 + 10 * attempt));
    }
  }
}

// Runs a read, retrying while the database is being recovered or set up by another process.
template <class F>
auto reading(const fs::path& file, F body) {
  for (int attempt = 0;; ++attempt) {
    try {
      return body();
    } catch (const Busy&) {
      if (attempt >= 50) throw BankError("experience bank " + file.string() + " stayed locked; try again");
      std::this_thread::sleep_for(std::chrono::milliseconds(20 + 10 * attempt));
    }
  }
}

}  // namespace

fs::path default_bank_path() { return aoc::base::cache_dir() / "experience-bank.sqlite"; }

Bank::Bank(const fs::path& file) : file_(file) {
  std::error_code ec;
  const bool exists = fs::exists(file_, ec);
  if (exists && !fs::is_regular_file(file_, ec))
    throw BankError(file_.string() + " is not a file; pass --bank with the path of an experience bank file");
  if (exists && fs::file_size(file_, ec) > 0) {
    char head[16] = {};
    std::ifstream in(file_, std::ios::binary);
    in.read(head, sizeof head);
    if (!in || std::memcmp(head, "SQLite format 3", 16) != 0)
      throw BankError(file_.string() + " is not a SQLite database, so it is not an experience bank; it was left "
                      "untouched. Pass --bank with another file, or move this one away");
  }
  if (!exists && file_.has_parent_path()) fs::create_directories(file_.parent_path(), ec);
  for (int attempt = 0;; ++attempt) {
    try {
      open_and_check();
      return;
    } catch (const Busy&) {
      sqlite3_close(db_);
      db_ = nullptr;
      if (attempt >= 60)
        throw BankError("experience bank " + file_.string() + " stayed locked while another process set it up; try again");
      std::this_thread::sleep_for(std::chrono::milliseconds(10 + 5 * attempt));
    } catch (...) {
      sqlite3_close(db_);
      db_ = nullptr;
      throw;
    }
  }
}

Bank::~Bank() { sqlite3_close(db_); }

void Bank::open_and_check() {
  const int rc = sqlite3_open_v2(file_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK)
    throw BankError("cannot open the experience bank " + file_.string() + ": " +
                    (db_ ? sqlite3_errmsg(db_) : "out of memory") + "; check the folder exists and is writable");
  sqlite3_busy_timeout(db_, 10000);
  // Look before writing anything: a file of another program or version stays as it is.
  size_t tables = 0;
  {
    base::SqliteStatement s = prepare(db_, "SELECT count(*) FROM sqlite_master", file_);
    if (step(s, db_, file_)) tables = size_t(s.column_int(0));
  }
  if (tables > 0) {
    bool has_meta = false;
    {
      base::SqliteStatement s = prepare(db_, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'", file_);
      has_meta = step(s, db_, file_);
    }
    if (!has_meta)
      throw BankError(file_.string() + " is a SQLite database of something else (no meta table), not an experience "
                      "bank; it was left untouched. Pass --bank with another file");
    std::string version;
    {
      base::SqliteStatement s = prepare(db_, "SELECT value FROM meta WHERE key = 'schema_version'", file_);
      if (step(s, db_, file_)) version = s.column_text(0);
    }
    if (version != std::to_string(kSchemaVersion))
      throw BankError("experience bank " + file_.string() + " has schema version " +
                      (version.empty() ? std::string("(none)") : version) + " but this ascendopt reads version " +
                      std::to_string(kSchemaVersion) + "; it was left untouched. Use the ascendopt that wrote it, or "
                      "pass --bank with another file (export --json and import move entries between banks)");
  }
  {
    base::SqliteStatement s = prepare(db_, "PRAGMA journal_mode=WAL", file_);
    step(s, db_, file_);
  }
  if (tables == 0) {
    exec(db_, "BEGIN IMMEDIATE", file_);
    try {
      exec(db_, kSchema, file_);
      exec(db_, "COMMIT", file_);
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }
}

namespace {

void bind_entry(base::SqliteStatement& s, const Entry& e) {
  nlohmann::json cases = to_json(e)["cases"];
  s.bind_text(1, e.kind);
  s.bind_text(2, e.motif.empty() ? std::string(kUnclassified) : e.motif);
  s.bind_text(3, e.op);
  s.bind_text(4, e.category);
  s.bind_text(5, e.source_path);
  s.bind_text(6, e.source_hash);
  s.bind_text(7, e.title);
  s.bind_text(8, e.description);
  s.bind_text(9, e.bottleneck);
  s.bind_text(10, e.diff);
  s.bind_real(11, e.geomean);
  s.bind_text(12, cases.dump());
  s.bind_text(13, to_json(e.profile).dump());
  s.bind_text(14, to_json(e.context).dump());
  s.bind_text(15, e.provenance.dump());
}

const char* kInsert =
    "INSERT INTO entries(kind, motif, op, category, source_path, source_hash, title, description, bottleneck, diff, "
    "geomean, cases_json, profile_json, context_json, provenance_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
    "?10, ?11, ?12, ?13, ?14, ?15)";

const char* kSelect =
    "SELECT id, kind, motif, op, category, source_path, source_hash, title, description, bottleneck, diff, geomean, "
    "cases_json, profile_json, context_json, provenance_json, created FROM entries";

Entry read_entry(base::SqliteStatement& s) {
  Entry e;
  e.id = s.column_int(0);
  e.kind = s.column_text(1);
  e.motif = s.column_text(2);
  e.op = s.column_text(3);
  e.category = s.column_text(4);
  e.source_path = s.column_text(5);
  e.source_hash = s.column_text(6);
  e.title = s.column_text(7);
  e.description = s.column_text(8);
  e.bottleneck = s.column_text(9);
  e.diff = s.column_text(10);
  e.geomean = s.column_real(11);
  for (const auto& c : parse_or(s.column_text(12), nlohmann::json::array())) {
    if (!c.is_object()) continue;
    CaseEffect ce;
    ce.name = c.value("name", "");
    ce.optimized_us = c.value("optimized_us", 0.0);
    ce.rewound_us = c.value("rewound_us", 0.0);
    e.cases.push_back(ce);
  }
  e.profile = profile_from_json(parse_or(s.column_text(13), nlohmann::json::object()));
  e.context = context_from_json(parse_or(s.column_text(14), nlohmann::json::object()));
  e.provenance = parse_or(s.column_text(15), nlohmann::json::object());
  e.created = s.column_text(16);
  return e;
}

}  // namespace

int64_t Bank::insert(const Entry& e) { return insert_all({e}).at(0); }

std::vector<int64_t> Bank::insert_all(const std::vector<Entry>& es) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<int64_t> ids;
  write_transaction(db_, file_, [&] {
    ids.clear();
    for (const auto& e : es) {
      base::SqliteStatement s = prepare(db_, kInsert, file_);
      bind_entry(s, e);
      step(s, db_, file_);
      ids.push_back(sqlite3_last_insert_rowid(db_));
    }
  });
  return ids;
}

std::vector<Entry> Bank::entries() {
  std::lock_guard<std::mutex> lock(mu_);
  return reading(file_, [&] {
    std::vector<Entry> out;
    base::SqliteStatement s = prepare(db_, (std::string(kSelect) + " ORDER BY id").c_str(), file_);
    while (step(s, db_, file_)) out.push_back(read_entry(s));
    return out;
  });
}

std::optional<Entry> Bank::find(int64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  return reading(file_, [&]() -> std::optional<Entry> {
    base::SqliteStatement s = prepare(db_, (std::string(kSelect) + " WHERE id = ?1").c_str(), file_);
    s.bind_int(1, id);
    if (!step(s, db_, file_)) return std::nullopt;
    return read_entry(s);
  });
}

size_t Bank::count() {
  std::lock_guard<std::mutex> lock(mu_);
  return reading(file_, [&] {
    base::SqliteStatement s = prepare(db_, "SELECT count(*) FROM entries", file_);
    return step(s, db_, file_) ? size_t(s.column_int(0)) : size_t(0);
  });
}

void Bank::record(const Adoption& a) {
  std::lock_guard<std::mutex> lock(mu_);
  write_transaction(db_, file_, [&] {
    base::SqliteStatement s = prepare(db_,
           "INSERT INTO adoptions(entry_id, motif, target_hash, target_op, helped, speedup) VALUES (?1, ?2, ?3, ?4, "
           "?5, ?6)",
           file_);
    s.bind_int(1, a.entry_id);
    s.bind_text(2, a.motif);
    s.bind_text(3, a.target_hash);
    s.bind_text(4, a.target_op);
    s.bind_int(5, a.helped ? 1 : 0);
    s.bind_real(6, a.speedup);
    step(s, db_, file_);
  });
}

std::vector<Adoption> Bank::adoptions() {
  std::lock_guard<std::mutex> lock(mu_);
  return reading(file_, [&] {
  std::vector<Adoption> out;
  base::SqliteStatement s = prepare(db_, "SELECT entry_id, motif, target_hash, target_op, helped, speedup FROM adoptions ORDER BY id", file_);
  while (step(s, db_, file_)) {
    Adoption a;
    if (!s.column_null(0)) a.entry_id = s.column_int(0);
    a.motif = s.column_text(1);
    a.target_hash = s.column_text(2);
    a.target_op = s.column_text(3);
    a.helped = s.column_int(4) != 0;
    a.speedup = s.column_real(5).value_or(0);
    out.push_back(a);
  }
  return out;
  });
}

AdoptionStats Bank::stats(const std::string& motif) {
  std::lock_guard<std::mutex> lock(mu_);
  return reading(file_, [&] {
    AdoptionStats st;
    base::SqliteStatement s = prepare(db_, "SELECT count(*), coalesce(sum(helped), 0) FROM adoptions WHERE motif = ?1", file_);
    s.bind_text(1, motif);
    if (step(s, db_, file_)) {
      st.tried = size_t(s.column_int(0));
      st.helped = size_t(s.column_int(1));
    }
    return st;
  });
}

}  // namespace aoc::bank
