// What one measured removal becomes in the experience bank, whichever way the rewound kernel
// was made (the rewriter's motif removal, a reverted hunk, a model's answer): the per-case
// times of the kernel against its rewound form, their geomean, positive or negative against
// the threshold, the profile delta and the text a prompt shows (docs/rewind.md).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bank/entry.h"
#include "eval/candidate.h"
#include "eval/candidate_eval.h"
#include "rewind/rewind.h"
#include "rewrite/motif_states.h"

namespace aoc::rewind {

// `label` is the motif the entry is filed under (its summary and detector reason go into the
// description); `what` names the removal when it is not the motif itself ("hunk 2 (...)").
// The entry's cases are those both reports timed; an empty list means nothing to compare.
aoc::bank::Entry make_entry(const aoc::eval::Candidate& kernel, const aoc::rewrite::MotifState& label,
                            const aoc::eval::CandidateReport& optimized, const aoc::eval::CandidateReport& rewound,
                            const std::string& diff, const RewindOptions& opt, const std::string& what = "");

// The measurement settings an entry's provenance records (SoC, seed, threshold, case set): two
// removals with the same diff of the same kernel under equal settings measure the same thing.
nlohmann::json measurement_settings(const RewindOptions& opt);
// The entry of `existing` that already holds the removal of `motif` from kernel `hash` with
// `diff` under opt's settings, if any (a resumed mining run skips it).
std::optional<aoc::bank::Entry> already_mined(const std::vector<aoc::bank::Entry>& existing, const std::string& hash,
                                              const std::string& motif, const std::string& diff,
                                              const RewindOptions& opt);

// Stores `e` and fills the row with its kind, speedup and id; when the two kernels have no
// timed case in common the row is failed instead (`reason` says so) and nothing is stored.
void store_entry(RewoundMotif& row, const aoc::bank::Entry& e, aoc::bank::Bank& bank);

// The classifier of removals the rewriter did not make (a reverted hunk, a model's answer):
// the motif present in the kernel (`before`) and no longer present in its rewound form
// (`after`): `prefer` when it is one such, else the first in catalogue order; else unclassified().
aoc::rewrite::MotifState removed_motif(const std::vector<aoc::rewrite::MotifState>& before,
                                       const std::vector<aoc::rewrite::MotifState>& after,
                                       const std::string& prefer = "");
aoc::rewrite::MotifState unclassified();

// `dir` relative to `root` when it lies inside it ("ops/conversion/tril/expert"), else
// absolute: the same kernel gets the same label from any working folder.
std::string source_label(const std::filesystem::path& dir, const std::filesystem::path& root);

}  // namespace aoc::rewind
