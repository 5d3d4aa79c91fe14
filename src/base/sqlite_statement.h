// A prepared SQLite statement, finalized when it goes out of scope. It reports SQLite's result
// codes as they are: what a failure means (retry, a message naming the file) is the caller's.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace aoc::base {

class SqliteStatement {
 public:
  // Prepares `sql` on `db`; prepared() is SQLITE_OK when that worked.
  SqliteStatement(sqlite3* db, const char* sql);
  ~SqliteStatement();
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  SqliteStatement& operator=(SqliteStatement&&) = delete;

  int prepared() const { return prepared_; }
  // Parameters are numbered from 1; an empty optional binds NULL.
  void bind_text(int i, const std::string& v);
  void bind_real(int i, std::optional<double> v);
  void bind_int(int i, std::optional<int64_t> v);
  // sqlite3_step's code: SQLITE_ROW while a row is available, SQLITE_DONE at the end.
  int step();
  // Columns of the current row, numbered from 0; NULL reads as "" or nullopt.
  std::string column_text(int i) const;
  std::optional<double> column_real(int i) const;
  int64_t column_int(int i) const;
  bool column_null(int i) const;

 private:
  sqlite3_stmt* s_ = nullptr;
  int prepared_ = 0;
};

}  // namespace aoc::base
