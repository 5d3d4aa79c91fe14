// Rewinding a strong kernel (docs/rewind.md): each optimization motif present in it is
// removed alone by the rewriter, every rewound kernel is evaluated on the public cases (the
// full gate) next to the kernel itself, and what the removal cost becomes an experience-bank
// entry: positive when the kernel is faster than its rewound form by more than the threshold
// (geomean over the cases), negative otherwise. A removal the rewriter refuses because another
// motif holds what it would undo (a queue's second buffer taken by an unrolled loop) is made on
// the kernel with that other motif removed first, and measured against that kernel: removals
// that interact are rewound as a pair. Rewound kernels that fail are reported with their reason
// and not stored. With a model (RewindOptions::llm, llm_removals.h) the model is
// asked for removals too, and what it answers is evaluated and stored the same way.
#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bank/store.h"
#include "build/builder.h"
#include "eval/candidate_eval.h"
#include "eval/result_store.h"

namespace aoc::rewind {

class LlmRemover;

struct RewindOptions {
  double threshold = 0.02;
  std::vector<std::string> only_motifs;  // empty: every motif present
  size_t jobs = 1;
  aoc::eval::CandidateEvalOptions eval;  // seed, SoC, limits (case set: public)
  std::filesystem::path work_dir;        // rewound kernels go to <work_dir>/<op>-<hash>-remove-<motif>
  aoc::eval::ResultStore* store = nullptr;
  std::filesystem::path source_root;     // entries name kernels relative to it when inside
  std::function<void(const std::string&)> log;
  LlmRemover* llm = nullptr;             // set: also ask the model for removals (rewind_kernel only)
};

struct RewoundMotif {
  std::string motif;   // the motif removed, or the classifier's label (hunks, the model's answers)
  std::string source = "rewriter";  // what made the rewound kernel: rewriter | hunk | llm
  std::string status;  // positive | negative | refused | failed; the model's: also unusable | no_answer
  std::string reason;  // why refused or failed
  std::optional<double> speedup;  // geomean speedup of the kernel over the rewound one
  std::optional<int64_t> entry_id;
  // The bank already held this measurement (the same removal of the same kernel under the same
  // settings, e.g. from an interrupted run): it was neither evaluated nor stored again.
  bool from_bank = false;
  std::filesystem::path dir;
  // Set: this motif's removal alone was refused, and it was removed from the kernel without this
  // other motif instead (measured against that kernel).
  std::string after;
  std::string target;   // llm: the optimization asked for by name (empty: the model's choice)
  std::string removed;  // llm: what the answer says it removed
};

struct RewindResult {
  std::string kernel_dir, op, category, kernel_hash;
  std::string failure;  // the kernel itself could not be read, rewritten or evaluated
  std::vector<RewoundMotif> motifs;
  double seconds = 0;
};

// Never throws for a bad kernel (RewindResult::failure says what); BankError escapes, and with
// a model so does aoc::llm::LlmError for settings, a replay miss or the response cache.
RewindResult rewind_kernel(const std::filesystem::path& kernel_dir, aoc::build::Builder& builder, aoc::bank::Bank& bank,
                           const RewindOptions& opt);

// Hunk ablation of a package with a baseline and an expert: each hunk of the expert against the
// baseline is reverted alone, or, when the result does not parse, together with the fewest
// other hunks the parser's errors lead to (hunk_groups.h); each distinct revert is classified by
// the first motif present in the expert whose detector state it changes (else "unclassified"),
// evaluated and stored like a motif removal. RewoundMotif::reason names the hunks.
RewindResult ablate_hunks(const std::filesystem::path& package_dir, aoc::build::Builder& builder, aoc::bank::Bank& bank,
                          const RewindOptions& opt);

nlohmann::json to_json(const RewindResult& r);
// The reverse of to_json (a rewind run as a separate task reports this way); throws
// nlohmann::json::exception on JSON of another shape.
RewindResult result_from_json(const nlohmann::json& j);

}  // namespace aoc::rewind
