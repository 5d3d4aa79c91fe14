#include "search/budget.h"

namespace aoc::search {

bool Budget::charge(const std::string& key) {
  if (paid_.count(key)) return true;
  if (exhausted()) return false;
  paid_.insert(key);
  return true;
}

}  // namespace aoc::search
