// Adding the entries one bank gained to another: how a rewind that ran as several tasks (each
// mining into a copy of the bank, docs/cluster.md) ends with one bank. Idempotent: an entry the
// target already holds (same kind, motif, source kernel, diff and provenance) is not added again,
// so a merge interrupted and redone stores nothing twice.
#pragma once
#include <cstdint>
#include <map>

#include "bank/store.h"

namespace aoc::bank {

// Adds the entries of `from` with an id above `after_id` that `into` lacks, in id order, in one
// transaction. Returns each such entry's id in `into` (added or found there), by its id in `from`.
std::map<int64_t, int64_t> merge_new_entries(Bank& into, Bank& from, int64_t after_id);

// The largest entry id of the bank, 0 when it is empty.
int64_t last_entry_id(Bank& bank);

}  // namespace aoc::bank
