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

namespace aoc::rewrite {

enum class State { Present, Applicable, NotApplicable };
const char* state_name(State s);

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

const std::vector<std::unique_ptr<Motif>>& catalogue();
const Motif* find_motif(const std::string& name);

}  // namespace aoc::rewrite
