// A case's inputs and golden outputs kept on disk, so that separate `ascendopt` processes (one
// `eval` per candidate in a script, one `optimize` per run of `bench`) draw the inputs and run
// the golden once per (package, case, seed) rather than once per process. The memory cache
// (eval/reference_cache.h) sits in front of it. Outputs (`.ref`) are stored in the narrowest
// float type that holds every value exactly (the golden's outputs are already rounded to their
// dtype), so they read back bit for bit, compressed unless that saves less than a quarter.
// Inputs (`.in`) are stored as they were drawn, each tensor at a page boundary, and read as a
// read-only mapping of the file (base/mapped_file.h): candidates and processes share its pages.
//
// Only the evaluator writes these files, from inputs it drew and a golden of our own that ran
// in its contained child. A candidate never sees the folder: its harness is shown the one
// inputs file of its case, read-only, and maps it privately (eval/kernel_exec.h). Each file
// carries a checksum of its content and the key it was written for (the key holds the
// program's build, so another input generator is another file); a file that is truncated,
// corrupt or written by another program build reads as absent and is written again. Files are
// written to a temporary name and renamed, so concurrent evaluations of the same case never see
// half a file, and a mapping keeps the file it mapped.
#pragma once
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "eval/judge.h"
#include "eval/reference_cache.h"

namespace aoc::eval {

class ReferenceFiles {
 public:
  // `dir` is created when the first entry is written. `max_bytes` 0 turns the store off; past
  // it the least recently used files are removed after each write.
  ReferenceFiles(std::filesystem::path dir, size_t max_bytes);
  // The first `trials` trials of the golden outputs of `key` when its file is intact and holds
  // that many, else nothing.
  std::optional<TrialReferences> load(const std::string& key, size_t trials) const;
  // Keeps `outputs` unless a file of the key already holds as many trials. Errors (a full disk)
  // are swallowed: the store is an accelerator, never a reason for a verdict to change.
  void save(const std::string& key, const TrialReferences& outputs) const;
  const std::filesystem::path& dir() const { return dir_; }
  // The first `trials` trials of the inputs of `key`, mapped read-only, when its file is intact
  // and holds that many, else null.
  std::shared_ptr<const CaseInputs> load_inputs(const std::string& key, size_t trials) const;
  // Keeps `inputs` unless a file of the key already holds as many trials; errors are swallowed.
  void save_inputs(const std::string& key, const CaseInputs& inputs) const;
  // Entries served from files by this process, all stores together: golden outputs, inputs.
  static size_t hits();
  static size_t input_hits();
  bool enabled() const { return max_bytes_ > 0; }
  size_t max_bytes() const { return max_bytes_; }

  // Under `cache_dir`/references, $AOC_REFERENCE_DISK_MB megabytes (default 2048; 0 turns it off);
  // the references/ of `shared_caches` are read first and never written (base/paths.h).
  static ReferenceFiles in_cache(const std::filesystem::path& cache_dir,
                                 const std::vector<std::filesystem::path>& shared_caches = {});

 private:
  // Where this store writes the key's file.
  std::filesystem::path file_of(const std::string& key, const char* extension = ".ref") const;
  // Where it may be read: the shared stores' files, then its own.
  std::vector<std::filesystem::path> files_of(const std::string& key, const char* extension) const;
  std::optional<TrialReferences> read_entry_file(const std::filesystem::path& file, const std::string& key,
                                                 size_t trials) const;
  std::shared_ptr<const CaseInputs> load_inputs_file(const std::filesystem::path& file, const std::string& key,
                                                     size_t trials) const;
  // Writes the file whole from `parts`, one after the other (base/published_file.h).
  bool publish(const std::filesystem::path& file, const std::vector<std::span<const unsigned char>>& parts) const;
  std::optional<TrialReferences> read_entry(const std::string& key, size_t trials) const;
  bool holds(const std::string& key, size_t trials) const;
  void keep_to_budget() const;
  std::filesystem::path dir_;
  std::vector<std::filesystem::path> read_only_dirs_;
  size_t max_bytes_ = 0;
};

}  // namespace aoc::eval
