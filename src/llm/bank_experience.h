// Experience-bank entries (src/bank) as the LLM proposer's prompts show them (experience.h):
// title, description, bottleneck, the diff that applies the optimization, and the measured
// effect in words. One conversion serves `ascendopt bank query --experience` and the guided
// prompts of `ascendopt optimize --bank --llm-config`. It lives here, not in src/bank, because
// the bank comes before the LLM proposer in the layering of docs/design.md.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "bank/entry.h"
#include "bank/ranking.h"
#include "llm/experience.h"

namespace aoc::llm {

// Mined entries store the removal (kernel -> rewound); the prompt shows it the other way round,
// as the change that adds the optimization. Imported text entries are shown as written.
ExperienceEntry as_experience(const aoc::bank::Entry& e);

// The first `k` entries of a ranking, best first.
std::vector<ExperienceEntry> top_experiences(const std::vector<aoc::bank::Ranked>& ranked, size_t k);

// A unified diff read the other way: `---`/`+++` paths and hunk ranges swapped, removed lines
// added and added lines removed (within each change, the removals first). Other lines as they are.
std::string reverse_unified_diff(const std::string& diff);

}  // namespace aoc::llm
