// Race detection on local memory (UB/L1/L0*) from the instruction traces. Two accesses from
// different pipes to overlapping bytes, at least one a write, with no happens-before path
// between them (pipe program order, scalar issue order, SetFlag->WaitFlag edges, barriers)
// are a race: on the device their order depends on timing.
#pragma once
#include <string>
#include <vector>

#include "aoc/trace.h"

namespace aoc::sim {

enum class HazardKind : uint8_t {
  Race,             // two pipes, overlapping bytes, at least one write, unordered
  ScalarReadRace,   // GetValue (pipe S) of bytes written by V/MTE2... with no ordering
  WaitWithoutSet,   // WaitFlag with no earlier matching SetFlag
};

struct CallSite {
  uint32_t rec = 0;
  aoc::Pipe pipe = aoc::Pipe::S;
  std::string op, file;
  uint32_t line = 0;
  bool write = false;
};

struct Hazard {
  HazardKind kind = HazardKind::Race;
  uint32_t block = 0;
  aoc::Space space = aoc::Space::UB;
  uint64_t lo = 0, hi = 0;  // overlapping bytes
  CallSite first, second;   // first in program order
  std::string message() const;
};

const char* hazard_kind_name(HazardKind k);

// Checks one block's trace. `max_reports` bounds the output of a badly broken kernel.
std::vector<Hazard> check_hazards(const aoc::Trace& trace, uint32_t block = 0, size_t max_reports = 100);

// All blocks; duplicates of the same pair of call sites across blocks are reported once.
std::vector<Hazard> check_hazards(const std::vector<const aoc::Trace*>& traces, size_t max_reports = 100);

}  // namespace aoc::sim
