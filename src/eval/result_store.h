// Evaluation results persisted in SQLite (WAL journal, safe for concurrent writers),
// keyed by (candidate hash, op, case set, seed, soc): each result is written as soon
// as its candidate finishes, so an interrupted run resumes where it stopped.
#pragma once
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

struct sqlite3;

namespace aoc::eval {

struct ResultKey {
  std::string candidate_hash, op, case_set;
  uint64_t seed = 0;
  std::string soc;
};

class ResultStore {
 public:
  // Creates the file and table when missing; throws std::runtime_error naming the file.
  explicit ResultStore(const std::filesystem::path& file);
  ~ResultStore();
  ResultStore(const ResultStore&) = delete;
  ResultStore& operator=(const ResultStore&) = delete;

  std::optional<std::string> find(const ResultKey& k);  // the stored report JSON
  void put(const ResultKey& k, const std::string& verdict, const std::string& report_json);
  size_t count();
  // Adds the results of another store file that this one lacks (a Slurm task's own store);
  // returns how many. Throws std::runtime_error naming the file when it cannot be read.
  size_t merge_from(const std::filesystem::path& other);

 private:
  sqlite3* db_ = nullptr;
  std::filesystem::path file_;
  std::mutex mu_;
};

}  // namespace aoc::eval
