// The experience bank on disk: one SQLite file (WAL journal, busy timeout) with a `meta`
// table holding the schema version, the entries and the adoption records. Several processes
// may write at once. A file that is not a SQLite database, is another program's database or
// has a schema version this program does not know is refused with a BankError naming the
// file, and is never written to.
#pragma once
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bank/entry.h"

struct sqlite3;

namespace aoc::bank {

class BankError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int kSchemaVersion = 1;

// <build cache folder>/experience-bank.sqlite (the folder of aoc::eval's build cache).
std::filesystem::path default_bank_path();

// One guided evaluation of a motif (or an entry's motif) on a target kernel.
struct Adoption {
  std::optional<int64_t> entry_id;
  std::string motif;
  std::string target_hash, target_op;
  bool helped = false;
  double speedup = 0;  // target time / time with the motif
};

struct AdoptionStats {
  size_t tried = 0, helped = 0;
};

class Bank {
 public:
  // Creates the file (and its folder) when missing. Throws BankError.
  explicit Bank(const std::filesystem::path& file);
  ~Bank();
  Bank(const Bank&) = delete;
  Bank& operator=(const Bank&) = delete;

  const std::filesystem::path& file() const { return file_; }

  int64_t insert(const Entry& e);                       // returns the new id
  std::vector<int64_t> insert_all(const std::vector<Entry>& es);  // one transaction: all or none
  std::vector<Entry> entries();                         // by id
  std::optional<Entry> find(int64_t id);
  size_t count();

  void record(const Adoption& a);
  std::vector<Adoption> adoptions();
  // Over every adoption of `motif` (any entry of it, or the motif by name).
  AdoptionStats stats(const std::string& motif);

 private:
  void open_and_check();
  sqlite3* db_ = nullptr;
  std::filesystem::path file_;
  std::mutex mu_;
};

}  // namespace aoc::bank
