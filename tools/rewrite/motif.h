// A motif: a named, reversible optimization of AscendC kernels. `detect` says whether a
// kernel carries it (present), could carry it (applicable) or neither, with the source
// places concerned and why; `remove` and `apply` produce the edits of the transformation or
// refuse with the reason. Motifs that change UB or core use edit the host tiling too.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "edits.h"
#include "kernel_model.h"
#include "rewrite/state.h"

namespace aoc::rewrite {

struct Detection {
  State state = State::NotApplicable;
  std::string reason;
  std::vector<Range> ranges;
};

// Edits of a transformation, or the reason it was refused (edits then empty).
struct Transform {
  std::vector<Edit> edits;
  std::string refused;
  std::vector<Range> ranges;  // the places changed
};

class Motif {
public:
  virtual ~Motif() = default;
  virtual std::string name() const = 0;
  virtual std::string summary() const = 0;
  virtual Detection detect(const KernelModel& m) const = 0;
  virtual Transform remove(const KernelModel& m) const = 0;
  virtual Transform apply(const KernelModel& m) const = 0;
};

// Every motif, in rank order: the order reports and `aoc-rewrite list` show them.
const std::vector<std::unique_ptr<Motif>>& catalogue();
const Motif* find_motif(const std::string& name);

// Puts a motif in the catalogue; each motif's file declares one at namespace scope:
//   const RegisterMotif<DoubleBuffer> kRegistered{10};
// The rank fixes its place, so the catalogue's order does not depend on the order in which
// files are linked or initialised. Registration runs before main, so the motifs' objects
// must be linked whole (the executable's own sources, never a static library, whose unreferenced
// objects the linker drops).
using MotifFactory = std::unique_ptr<Motif> (*)();
void register_motif(int rank, MotifFactory make);

template <typename M>
struct RegisterMotif {
  explicit RegisterMotif(int rank) {
    register_motif(rank, [] { return std::unique_ptr<Motif>(std::make_unique<M>()); });
  }
};

}  // namespace aoc::rewrite
