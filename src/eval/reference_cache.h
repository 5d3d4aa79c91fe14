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
#include <string>
#include <vector>

#include "eval/judge.h"
#include "package/case_inputs.h"

namespace aoc::eval {

struct CaseReference {
  std::vector<std::vector<aoc::package::CaseTensor>> inputs;  // per trial
  TrialReferences outputs;                               // per trial, every golden run succeeded
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
