#include "runtime/auto_sync.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "aoc/sync.h"
#include "sim/hazards.h"

namespace aoc::runtime {

namespace {

// Event id of the toolchain's waits: apart from the user's (0..7) and the queues' (16..79).
constexpr uint8_t kToolchainEvent = 120;

bool reads_local_memory_on_scalar(const aoc::Trace& trace) {
  for (const auto& r : trace.records) {
    if (r.kind != RecKind::Scalar) continue;
    for (uint8_t i = 0; i < r.nreads; ++i)
      if (r.reads[i].space != Space::GM) return true;
  }
  return false;
}

TraceRecord flag_record(RecKind kind, Pipe src, const TraceRecord& before) {
  TraceRecord r;
  r.kind = kind;
  r.pipe = src;
  r.peer = Pipe::S;
  r.event_id = kToolchainEvent;
  r.implicit = true;
  r.op = kind == RecKind::SetFlag ? "SetFlag" : "WaitFlag";
  r.file = before.file;
  r.line = before.line;
  return r;
}

}  // namespace

void insert_toolchain_syncs(aoc::Trace& trace, std::map<std::string, uint64_t>& warnings) {
  if (!trace.enabled || !reads_local_memory_on_scalar(trace)) return;  // the common case costs one scan
  // Each round fixes every reported read; a fixed read can uncover a later one that the
  // checker stopped reporting at its limit, hence the rounds.
  for (int round = 0; round < 16; ++round) {
    std::vector<std::pair<uint32_t, Pipe>> inserts;  // before record, writer pipe
    std::set<std::pair<uint32_t, Pipe>> seen;
    for (const auto& h : aoc::sim::check_hazards(trace, 0, 1000)) {
      if (h.kind != aoc::sim::HazardKind::ScalarReadRace) continue;
      const auto& w = h.first;
      const auto& r = h.second;
      if (r.pipe != Pipe::S || r.write || !w.write || w.pipe == Pipe::S) continue;
      if (!seen.insert({r.rec, w.pipe}).second) continue;
      inserts.emplace_back(r.rec, w.pipe);
      warnings[r.op + " at " + r.file + ":" + std::to_string(r.line) + " reads " + aoc::space_name(h.space) +
               " that " + w.op + " at " + w.file + ":" + std::to_string(w.line) + " (pipe " +
               aoc::pipe_name(w.pipe) + ") wrote, with no sync in between: the device toolchain inserts the wait " +
               "(modelled), SetFlag/WaitFlag<HardEvent::" + aoc::pipe_name(w.pipe) + "_S> makes it explicit"]++;
    }
    if (inserts.empty()) return;
    // From the back, so earlier indices stay valid.
    std::sort(inserts.begin(), inserts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [at, pipe] : inserts) {
      const TraceRecord& read = trace.records[at];
      TraceRecord set = flag_record(RecKind::SetFlag, pipe, read);
      TraceRecord wait = flag_record(RecKind::WaitFlag, pipe, read);
      trace.insert(at, {set, wait});
    }
  }
}

}  // namespace aoc::runtime
