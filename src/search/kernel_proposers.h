// What the search methods ask of the proposers that change kernels. The methods live here and
// the proposers in src/optimize (they need the rewriter, the model and the experience bank), so
// the methods see them only through these interfaces.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "search/proposer.h"
#include "search/rng.h"
#include "search/scored.h"
#include "search/variant.h"

namespace aoc::search {

// Kernel rewrites by motifs (docs/motifs.md): a propose() applies one untried applicable motif
// to the parent's kernel, which keeps the parent's configuration.
class MotifSource : public Proposer {
 public:
  // True while some applicable motif of `k` has not been tried on it.
  virtual bool has_untried(const Kernel& k) = 0;
  virtual size_t applicable_count(const Kernel& k) = 0;
  // The motifs applicable to `k` in the order to try them for `parent` (the proposer's chooser
  // decides: random, or an experience bank's ranking); may draw from `rng`.
  virtual std::vector<std::string> motif_order(const Scored& parent, const Kernel& k, Rng& rng) = 0;
  // `k` with `motif` applied, or nullptr when refused or failing.
  virtual KernelPtr apply(const KernelPtr& k, const std::string& motif) = 0;
};

// Kernels a language model writes (docs/llm.md).
class ModelSource : public Proposer {
 public:
  // Guided: the parent's sources, profile, the last failure and the inspirations; sample: the
  // parent's sources and profile only (independent samples).
  enum class Mode { Guided, Sample };
  virtual void set_mode(Mode m) = 0;
  // False once the endpoint keeps failing: asking again would only spend time.
  virtual bool available() const = 0;
};

}  // namespace aoc::search
