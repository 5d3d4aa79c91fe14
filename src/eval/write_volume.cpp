#include "eval/write_volume.h"

#include <algorithm>
#include <cstring>

#include "sim/time_bound.h"

namespace aoc::eval {

uint64_t bytes_unlike(const std::vector<unsigned char>& data, unsigned char poison) {
  // Eight bytes at a time: x holds a zero byte where the data holds the poison, and the high
  // bit of each byte of `zero` says exactly whether that byte of x is zero.
  constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7full;
  const uint64_t fill = 0x0101010101010101ull * poison;
  const size_t words = data.size() / 8;
  uint64_t same = 0;
  for (size_t w = 0; w < words; ++w) {
    uint64_t x = 0;
    std::memcpy(&x, data.data() + w * 8, 8);
    x ^= fill;
    const uint64_t zero = ~(((x & kLow7) + kLow7) | x | kLow7);
    same += static_cast<uint64_t>(__builtin_popcountll(zero));
  }
  for (size_t i = words * 8; i < data.size(); ++i) same += data[i] == poison;
  return data.size() - same;
}

namespace {

// Bytes of [lo, hi) inside the span.
uint64_t overlap(uint64_t lo, uint64_t hi, const GmSpan& s) {
  const uint64_t a = std::max(lo, s.lo), b = std::min(hi, s.hi);
  return b > a ? b - a : 0;
}

bool has_gm_read(const TraceRecord& r) {
  for (uint8_t i = 0; i < r.nreads && i < 3; ++i)
    if (r.reads[i].space == Space::GM) return true;
  return false;
}

}  // namespace

uint64_t traced_store_bytes(const TraceRecord& r, const GmSpan& span) {
  if (!r.has_write || r.write.space != Space::GM || r.write.hi <= r.write.lo) return 0;
  // Attributed to the output its first byte lies in, so a record counts for one output only.
  if (r.write.lo < span.lo || r.write.lo >= span.hi) return 0;
  const uint64_t inside = overlap(r.write.lo, r.write.hi, span);
  if (r.kind == RecKind::Copy) {
    // A GM source sends the copy to the HBM read pool; only GM destinations without one are
    // the L2 writes the engine charges (cost_model.cpp).
    if (has_gm_read(r) || r.bytes == 0) return 0;
    const uint64_t n = std::max<uint32_t>(r.bursts, 1);
    const uint64_t requested = r.burst_bytes ? std::min<uint64_t>(n * r.burst_bytes, r.bytes) : r.bytes;
    return std::min(requested, inside);
  }
  if (r.kind == RecKind::Scalar) {
    const double most = double(r.elems) * aoc::sim::kMaxScalarAccessBytes;
    return std::min<uint64_t>(inside, most >= double(inside) ? inside : uint64_t(most));
  }
  return 0;
}

VolumeCheck check_write_volume(const std::vector<aoc::runtime::CoreRun>& cores, const std::vector<GmSpan>& spans,
                               const std::vector<std::string>& names, const std::vector<uint64_t>& output_bytes,
                               const std::vector<uint64_t>& seen_bytes) {
  VolumeCheck v;
  const size_t n = names.size();
  for (size_t o = 0; o < n; ++o) v.outputs.push_back({names[o], seen_bytes.at(o), 0});
  if (spans.size() != n) {
    v.problem = "the harness reported the addresses of " + std::to_string(spans.size()) + " outputs for " +
                std::to_string(n);
    return v;
  }
  for (size_t o = 0; o < n; ++o) {
    if (spans[o].hi < spans[o].lo || spans[o].hi - spans[o].lo != output_bytes[o]) {
      v.problem = "the harness reported output " + names[o] + " as " + std::to_string(spans[o].hi - spans[o].lo) +
                  " bytes long; it has " + std::to_string(output_bytes[o]);
      return v;
    }
    for (size_t p = 0; p < o; ++p)
      if (output_bytes[o] > 0 && output_bytes[p] > 0 && overlap(spans[p].lo, spans[p].hi, spans[o]) > 0) {
        v.problem = "the harness reported outputs " + names[p] + " and " + names[o] + " at overlapping addresses";
        return v;
      }
  }
  for (const auto& core : cores)
    for (const auto& r : core.trace.records) {
      if (!r.has_write || r.write.space != Space::GM) continue;
      for (size_t o = 0; o < n; ++o) v.outputs[o].traced_bytes += traced_store_bytes(r, spans[o]);
    }
  for (const auto& out : v.outputs)
    if (out.traced_bytes < out.seen_bytes) {
      v.problem = "output " + out.name + ": " + std::to_string(out.seen_bytes) +
                  " bytes differ from the poison fill, but the trace stores only " + std::to_string(out.traced_bytes) +
                  " bytes into it (was the trace cleared or rewritten, or the output written around the API?)";
      break;
    }
  return v;
}

}  // namespace aoc::eval
