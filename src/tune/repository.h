// The tuning repository: the best verified configuration per (operator, shape class,
// dtype, SoC), kept as JSON under the cache folder (<cache>/tune/repository.json) and
// reused: `ascendopt tune` starts its search from the stored configuration.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "eval/harness_protocol.h"

namespace aoc::tune {

struct RepoKey {
  std::string op, shape_class, dtype, soc;
  std::string text() const { return op + "|" + shape_class + "|" + dtype + "|" + soc; }
};

struct RepoEntry {
  eval::TuningConfig config;
  double time_us = 0;      // tuning-case geomean with the configuration
  double baseline_us = 0;  // the same without it
  std::string candidate_hash;
  std::string method;
  size_t evaluations = 0;
};

class Repository {
 public:
  explicit Repository(std::filesystem::path file) : file_(std::move(file)) {}
  const std::filesystem::path& file() const { return file_; }
  // Nothing when there is no entry or no (readable) file.
  std::optional<RepoEntry> lookup(const RepoKey& k) const;
  // Keeps `e` unless the stored entry for the same candidate is at least as fast; returns
  // whether it was stored. Throws std::runtime_error when the file cannot be written.
  bool store(const RepoKey& k, const RepoEntry& e);

 private:
  std::filesystem::path file_;
};

}  // namespace aoc::tune
