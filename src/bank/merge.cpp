#include "bank/merge.h"

#include <string>
#include <utility>
#include <vector>

namespace aoc::bank {

namespace {

// What makes two entries the same measurement (ids, dates and titles aside).
std::string identity(const Entry& e) {
  return e.kind + '\x1f' + e.motif + '\x1f' + e.source_hash + '\x1f' + e.diff + '\x1f' + e.provenance.dump();
}

}  // namespace

int64_t last_entry_id(Bank& bank) {
  int64_t last = 0;
  for (const auto& e : bank.entries()) last = std::max(last, e.id);
  return last;
}

std::map<int64_t, int64_t> merge_new_entries(Bank& into, Bank& from, int64_t after_id) {
  std::map<std::string, int64_t> present;  // identity -> id in `into`
  for (const auto& e : into.entries()) present.emplace(identity(e), e.id);
  std::map<int64_t, int64_t> ids;
  std::vector<Entry> added;
  std::map<std::string, size_t> added_at;                // identity -> index in `added`
  std::vector<std::pair<int64_t, size_t>> added_from;    // id in `from` -> index in `added`
  for (const auto& e : from.entries()) {
    if (e.id <= after_id) continue;
    const std::string key = identity(e);
    if (const auto it = present.find(key); it != present.end()) {
      ids[e.id] = it->second;
      continue;
    }
    // A task that stored the same entry twice adds it once; both ids map to it.
    const auto [at, is_new] = added_at.emplace(key, added.size());
    if (is_new) added.push_back(e);
    added_from.emplace_back(e.id, at->second);
  }
  const auto new_ids = into.insert_all(added);
  for (const auto& [from_id, index] : added_from) ids[from_id] = new_ids[index];
  return ids;
}

}  // namespace aoc::bank
