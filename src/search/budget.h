// The evaluation budget of one run. Every method spends it the same way: a candidate
// evaluated for the first time in the run costs one evaluation whatever its verdict (a
// compile error, a wrong result or a timeout cost as much as a correct candidate), and the
// same candidate again (same kernel content and configuration, whoever proposed it) costs
// nothing: its result is recalled. No charge is ever made past the limit. A host search counts
// its own evaluations (an episode's share of a run, or a tuning run) with one too (host_search.h).
#pragma once
#include <cstddef>
#include <set>
#include <string>

namespace aoc::search {

class Budget {
 public:
  explicit Budget(size_t limit) : limit_(limit) {}
  // Charges the candidate `key` unless the run has paid for it already; false (and no
  // charge) when it is new and the budget is spent.
  bool charge(const std::string& key);
  bool paid_for(const std::string& key) const { return paid_.count(key) > 0; }
  size_t limit() const { return limit_; }
  size_t spent() const { return paid_.size(); }
  size_t remaining() const { return limit_ - spent(); }
  bool exhausted() const { return spent() >= limit_; }

 private:
  size_t limit_;
  std::set<std::string> paid_;
};

}  // namespace aoc::search
