#include "bank/merge.h"

#include <string>
#include <tuple>

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
  std::map<std::string, int64_t> present;
  for (const auto& e : into.entries()) present.emplace(identity(e), e.id);
  std::map<int64_t, int64_t> ids;
  std::vector<Entry> added;
  std::vector<int64_t> added_from;
  for (const auto& e : from.entries()) {
    if (e.id <= after_id) continue;
    const auto it = present.find(identity(e));
    if (it != present.end()) {
      ids[e.id] = it->second;
      continue;
    }
    present.emplace(identity(e), -1);  // a task that stored the same entry twice adds it once
    added.push_back(e);
    added_from.push_back(e.id);
  }
  const auto new_ids = into.insert_all(added);
  for (size_t i = 0; i < new_ids.size(); ++i) ids[added_from[i]] = new_ids[i];
  // Duplicates within `from` map to the id their first copy got.
  for (const auto& e : from.entries())
    if (e.id > after_id && ids.find(e.id) == ids.end())
      for (size_t i = 0; i < added.size(); ++i)
        if (identity(added[i]) == identity(e)) ids[e.id] = new_ids[i];
  return ids;
}

}  // namespace aoc::bank
