#include "base/sqlite_statement.h"

#include <sqlite3.h>

namespace aoc::base {

SqliteStatement::SqliteStatement(sqlite3* db, const char* sql) : prepared_(sqlite3_prepare_v2(db, sql, -1, &s_, nullptr)) {}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(s_); }

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept : s_(other.s_), prepared_(other.prepared_) {
  other.s_ = nullptr;
}

void SqliteStatement::bind_text(int i, const std::string& v) {
  sqlite3_bind_text(s_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}

void SqliteStatement::bind_real(int i, std::optional<double> v) {
  if (v) sqlite3_bind_double(s_, i, *v);
  else sqlite3_bind_null(s_, i);
}

void SqliteStatement::bind_int(int i, std::optional<int64_t> v) {
  if (v) sqlite3_bind_int64(s_, i, *v);
  else sqlite3_bind_null(s_, i);
}

int SqliteStatement::step() { return sqlite3_step(s_); }

std::string SqliteStatement::column_text(int i) const {
  const auto* p = sqlite3_column_text(s_, i);
  return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(s_, i))) : std::string();
}

std::optional<double> SqliteStatement::column_real(int i) const {
  if (sqlite3_column_type(s_, i) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_double(s_, i);
}

int64_t SqliteStatement::column_int(int i) const { return sqlite3_column_int64(s_, i); }

bool SqliteStatement::column_null(int i) const { return sqlite3_column_type(s_, i) == SQLITE_NULL; }

}  // namespace aoc::base
