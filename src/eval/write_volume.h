// Volume accounting: the GM bytes the traces say were written into each output against the
// bytes the parent sees written there. The parent reads the outputs itself and knows the poison
// fill they started with, so "bytes that differ from the poison" is a count the kernel cannot
// forge downwards: each such byte was stored by the kernel. The trace must account for at least
// as many bytes stored into that output, counted the way the timing engine charges them, or the
// kernel wrote outputs the simulation never paid for (a cleared, disabled or shrunk trace, a
// store to the real bytes found behind the runtime's back).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "aoc/launch.h"
#include "aoc/trace.h"

namespace aoc::eval {

// Where an output lay in the harness's memory ([lo, hi), the real addresses traces record).
struct GmSpan {
  uint64_t lo = 0, hi = 0;
  bool operator==(const GmSpan&) const = default;
};

// Bytes of `data` that differ from `poison`: written by the kernel, whatever its trace says.
uint64_t bytes_unlike(const std::vector<unsigned char>& data, unsigned char poison);

// The GM bytes one record stores into `span`, at most what the engine charges for it: a copy
// drawing on the L2 write pool (a GM destination and no GM source) its requested bytes
// (bursts x burst length, never more than its range inside the span); a scalar record at most
// kMaxScalarAccessBytes per access it is charged for, within its write range. Anything else
// stores nothing into GM in the model.
uint64_t traced_store_bytes(const TraceRecord& r, const GmSpan& span);

struct OutputVolume {
  std::string name;
  uint64_t seen_bytes = 0;    // bytes unlike the poison in the returned output
  uint64_t traced_bytes = 0;  // bytes the traces store into it
};

struct VolumeCheck {
  std::vector<OutputVolume> outputs;
  std::string problem;  // "" when every output is accounted for, else what is wrong (first output short)
};

// `spans` come from the child (one per output, in order), so they are checked first: each must
// be as long as its output and no two may overlap (else one record could count twice).
VolumeCheck check_write_volume(const std::vector<aoc::runtime::CoreRun>& cores, const std::vector<GmSpan>& spans,
                               const std::vector<std::string>& names, const std::vector<uint64_t>& output_bytes,
                               const std::vector<uint64_t>& seen_bytes);

}  // namespace aoc::eval
