// What the optimizer searches over: a kernel (a candidate folder: op_host/ + op_kernel/) with
// a tiling configuration (knob values, cores, UB; space.h). Two variants with the same
// kernel content and configuration are the same candidate, whoever proposed them.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "eval/candidate.h"
#include "eval/harness_protocol.h"

namespace aoc::search {

struct Kernel {
  aoc::eval::Candidate cand;
  std::vector<std::string> motifs;  // motifs applied since the original, in order
  std::string diff;                 // unified diff against the kernel it was made from
};
using KernelPtr = std::shared_ptr<const Kernel>;

struct Variant {
  KernelPtr kernel;
  aoc::eval::TuningConfig config;
  // Content identity: the kernel's candidate hash and the canonical configuration.
  std::string key() const;
};

// "cores=8 tile_cap=1024", or "defaults" for the empty configuration.
std::string config_text(const aoc::eval::TuningConfig& c);

}  // namespace aoc::search
