// Inputs and golden outputs of a case kept across candidates of an operator. They depend
// only on the package (its op.toml and golden), the case, the case set and the seed, never
// on the kernel, so a search that evaluates many candidates of one operator with one seed
// draws the inputs and runs the golden once per case. The kernel's outputs are still judged
// per candidate; verdicts are the same with or without the cache.
#pragma once
#include <cstddef>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "base/mapped_file.h"
#include "eval/judge.h"
#include "package/case_inputs.h"

namespace aoc::eval {

// A case's inputs, per trial: drawn in this process, or a read-only mapping of the file that
// keeps them in the build cache (eval/reference_files.h), shared by candidates and processes.
class CaseInputs {
 public:
  explicit CaseInputs(std::vector<std::vector<aoc::package::CaseTensor>> drawn);
  // `described` gives each tensor's name, shape and type (its data left empty) and `bytes` where
  // its bytes lie in `file`.
  CaseInputs(std::shared_ptr<const base::MappedFile> file, std::vector<std::vector<aoc::package::CaseTensor>> described,
             std::vector<std::vector<std::span<const unsigned char>>> bytes);
  size_t trials() const { return tensors_.size(); }
  size_t count(size_t trial) const { return tensors_.at(trial).size(); }
  std::span<const unsigned char> bytes(size_t trial, size_t i) const { return bytes_.at(trial).at(i); }
  const std::vector<int64_t>& shape(size_t trial, size_t i) const { return tensors_.at(trial).at(i).shape; }
  // The tensors of a trial with their data (the golden takes them): the drawn ones, or copies of
  // the mapped bytes made on first use, which a run whose golden outputs are known never needs.
  const std::vector<aoc::package::CaseTensor>& tensors(size_t trial) const;
  // The file mapped, or null for inputs drawn in this process.
  const base::MappedFile* file() const { return file_.get(); }
  bool mapped() const { return file_ != nullptr; }
  size_t total_bytes() const;

 private:
  std::shared_ptr<const base::MappedFile> file_;
  mutable std::mutex mu_;
  mutable std::vector<std::vector<aoc::package::CaseTensor>> tensors_;  // data filled when drawn or copied
  mutable std::vector<bool> copied_;                                   // per trial, for a mapped file
  std::vector<std::vector<std::span<const unsigned char>>> bytes_;
};

struct CaseReference {
  std::shared_ptr<const CaseInputs> inputs;
  TrialReferences outputs;  // per trial, every golden run succeeded
  size_t bytes() const;
};

// Least-recently-used entries go first when the total passes the budget; an entry larger
// than half the budget is not kept. Safe to use from several threads.
class ReferenceCache {
 public:
  explicit ReferenceCache(size_t max_bytes) : max_bytes_(max_bytes) {}
  // The entry of `key` when it holds at least `trials` trials (a two-trial entry serves a
  // one-trial run: its first trial is the same inputs and golden outputs), else null.
  std::shared_ptr<const CaseReference> find(const std::string& key, size_t trials = 1);
  // Keeps `entry`, replacing an entry of the key with fewer trials.
  void put(const std::string& key, std::shared_ptr<const CaseReference> entry);
  size_t hits() const;
  size_t size() const;
  void clear();

  // The process-wide cache: $AOC_REFERENCE_CACHE_MB megabytes (default 1024; 0 turns it off).
  static ReferenceCache& shared();

 private:
  struct Entry {
    std::string key;
    std::shared_ptr<const CaseReference> value;
    size_t bytes = 0;
  };
  mutable std::mutex mu_;
  size_t max_bytes_ = 0, bytes_ = 0, hits_ = 0;
  std::list<Entry> lru_;  // most recent first
  std::map<std::string, std::list<Entry>::iterator> index_;
};

// $name as a number of megabytes, in bytes; `default_mb` when unset or not a number.
size_t megabytes_from_environment(const char* name, size_t default_mb);

}  // namespace aoc::eval
