#include "sim/hazards.h"

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>

namespace aoc::sim {
namespace {

constexpr int kPipes = int(Pipe::Count);
constexpr int kScalarPipe = int(Pipe::S);
constexpr int kSpaces = int(Space::FB) + 1;
using Clock = std::array<uint32_t, kPipes>;  // per pipe: how many of its instructions are ordered before

void join(Clock& a, const Clock& b) {
  for (int i = 0; i < kPipes; ++i) a[i] = std::max(a[i], b[i]);
}

struct Access {
  uint32_t rec;
  int pipe;
  uint32_t seq;  // 1-based position of the instruction in its pipe
  uint64_t lo, hi;
  bool write;
};

// The pipe whose program order an instruction belongs to.
int exec_pipe(const TraceRecord& r) {
  if (r.kind == RecKind::WaitFlag) return int(r.peer);
  if (r.kind == RecKind::SyncAll) return kScalarPipe;
  if (r.kind == RecKind::Barrier && r.pipe == Pipe::ALL) return kScalarPipe;
  return int(r.pipe);
}

CallSite site(const TraceRecord& r, uint32_t idx, bool write) {
  return CallSite{idx, Pipe(exec_pipe(r)), r.op, r.file, r.line, write};
}

class Checker {
 public:
  Checker(const Trace& t, uint32_t block, size_t max) : t_(t), block_(block), max_(max) {}

  std::vector<Hazard> run() {
    const auto& recs = t_.records;
    for (uint32_t i = 0; i < recs.size(); ++i) {
      const TraceRecord& r = recs[i];
      if (r.kind != RecKind::Compute && r.kind != RecKind::Copy && r.kind != RecKind::Scalar) continue;
      const int p = exec_pipe(r);
      for (int k = 0; k < r.nreads; ++k) note_access(r.reads[k], p, i);
      if (r.has_write) note_access(r.write, p, i);
    }
    for (uint32_t i = 0; i < recs.size() && out_.size() < max_; ++i) visit(recs[i], i);
    return std::move(out_);
  }

 private:
  const Trace& t_;
  uint32_t block_;
  size_t max_;
  std::vector<Hazard> out_;
  std::array<Clock, kPipes> pipe_clock_{};  // knowledge of each pipe at its latest instruction
  std::array<uint32_t, kPipes> count_{};    // instructions executed per pipe so far
  std::unordered_map<uint32_t, std::deque<std::pair<Clock, uint32_t>>> flags_;
  std::map<int, std::vector<Access>> accesses_;  // by space
  std::set<std::tuple<uint32_t, uint32_t>> reported_;
  // Per space and pipe, one past the index of the pipe's last access to the space (0: none):
  // a pipe past its last access to a space can race with nothing kept for it.
  std::array<std::array<uint32_t, kPipes>, kSpaces> last_access_end_{};
  std::map<int, size_t> prune_at_;  // list size that triggers the next prune, by space

  // The checker follows the on-chip buffers, not GM; an empty range touches nothing.
  static bool tracked(const Range& rg) { return rg.space != Space::GM && rg.lo < rg.hi; }

  void note_access(const Range& rg, int p, uint32_t idx) {
    if (!tracked(rg)) return;
    last_access_end_[int(rg.space)][p] = idx + 1;
  }

  // Gives an instruction on pipe p its clock: it follows p's earlier work and, because the
  // scalar unit issues in order, everything the scalar unit had done before issuing it.
  Clock& step(int p) {
    join(pipe_clock_[p], pipe_clock_[kScalarPipe]);
    pipe_clock_[p][p] = ++count_[p];
    return pipe_clock_[p];
  }

  void visit(const TraceRecord& r, uint32_t idx) {
    switch (r.kind) {
      case RecKind::SetFlag: {
        Clock& c = step(int(r.pipe));
        flags_[key(r.pipe, r.peer, r.event_id)].push_back({c, idx});
        return;
      }
      case RecKind::WaitFlag: {
        int p = int(r.peer);
        auto& q = flags_[key(r.pipe, r.peer, r.event_id)];
        Clock& c = step(p);
        if (q.empty()) {
          Hazard h;
          h.kind = HazardKind::WaitWithoutSet;
          h.block = block_;
          h.first = site(r, idx, false);
          h.second = h.first;
          out_.push_back(h);
          return;
        }
        join(c, q.front().first);
        q.pop_front();
        return;
      }
      case RecKind::Barrier:
      case RecKind::SyncAll:
        if (r.kind == RecKind::SyncAll || r.pipe == Pipe::ALL) {
          // Everything before is complete before anything after starts.
          Clock all{};
          for (int p = 0; p < kPipes; ++p) join(all, pipe_clock_[p]);
          for (int p = 0; p < kPipes; ++p) pipe_clock_[p] = all;
        } else {
          step(int(r.pipe));  // same-pipe order is already program order
        }
        return;
      case RecKind::Compute:
      case RecKind::Copy:
      case RecKind::Scalar: {
        int p = exec_pipe(r);
        Clock& c = step(p);
        for (int i = 0; i < r.nreads; ++i) touch(r, idx, p, c, r.reads[i], false);
        if (r.has_write) touch(r, idx, p, c, r.write, true);
        return;
      }
    }
  }

  static uint32_t key(Pipe s, Pipe d, uint8_t id) { return (uint32_t(s) << 16) | (uint32_t(d) << 8) | id; }

  void touch(const TraceRecord& r, uint32_t idx, int p, const Clock& c, const Range& rg, bool write) {
    if (!tracked(rg)) return;
    auto& list = accesses_[int(rg.space)];
    for (const Access& a : list) {
      if (a.pipe == p || (!a.write && !write)) continue;
      if (a.hi <= rg.lo || rg.hi <= a.lo) continue;
      if (c[a.pipe] >= a.seq) continue;  // a happens before this access
      if (!reported_.insert({a.rec, idx}).second) continue;
      Hazard h;
      bool scalar_read = (p == kScalarPipe && !write) || (a.pipe == kScalarPipe && !a.write);
      h.kind = scalar_read ? HazardKind::ScalarReadRace : HazardKind::Race;
      h.block = block_;
      h.space = rg.space;
      h.lo = std::max(a.lo, rg.lo);
      h.hi = std::min(a.hi, rg.hi);
      h.first = site(t_.records[a.rec], a.rec, a.write);
      h.second = site(r, idx, write);
      out_.push_back(h);
      if (out_.size() >= max_) return;
    }
    list.push_back(Access{idx, p, c[p], rg.lo, rg.hi, write});
    size_t& at = prune_at_[int(rg.space)];
    if (list.size() >= std::max<size_t>(at, 256)) {
      prune(list, int(rg.space), idx);
      at = 2 * list.size();  // amortised: prune again only after the list doubles
    }
  }

  // Drops accesses of `space` that no later access can race with: every pipe that still
  // accesses the space after record `now` is ordered after them. A future instruction on pipe
  // q knows at least join(clock of q, clock of S); a pipe that never again accesses the space
  // (e.g. a scalar unit that reads no UB after its setup, and so never waits for the vector
  // pipe) does not count, or its ignorance would keep every access of the other pipes.
  void prune(std::vector<Access>& list, int space, uint32_t now) {
    const auto& last = last_access_end_[space];
    Clock floor;
    floor.fill(UINT32_MAX);
    for (int q = 0; q < kPipes; ++q) {
      if (last[q] <= now) continue;  // q accesses the space nowhere from record `now` on
      Clock future = pipe_clock_[q];
      join(future, pipe_clock_[kScalarPipe]);
      for (int p = 0; p < kPipes; ++p) floor[p] = std::min(floor[p], future[p]);
    }
    list.erase(std::remove_if(list.begin(), list.end(), [&](const Access& a) { return floor[a.pipe] >= a.seq; }),
               list.end());
  }
};

}  // namespace

const char* hazard_kind_name(HazardKind k) {
  switch (k) {
    case HazardKind::Race: return "race";
    case HazardKind::ScalarReadRace: return "scalar-race";
    case HazardKind::WaitWithoutSet: return "wait-without-set";
  }
  return "?";
}

std::string Hazard::message() const {
  std::ostringstream os;
  auto where = [&](const CallSite& s) {
    os << s.file << ":" << s.line << " " << s.op << " (pipe " << pipe_name(s.pipe) << ", "
       << (s.write ? "write" : "read") << ")";
  };
  switch (kind) {
    case HazardKind::WaitWithoutSet:
      os << "block " << block << ": " << first.file << ":" << first.line << " " << first.op
         << " waits for an event that no earlier SetFlag sets (the pipe would hang)";
      break;
    case HazardKind::Race:
    case HazardKind::ScalarReadRace:
      os << "block " << block << ": " << (kind == HazardKind::ScalarReadRace ? "scalar access races with " : "race on ")
         << space_name(space) << " bytes [" << lo << ", " << hi << "): ";
      where(first);
      os << " and ";
      where(second);
      os << " are not ordered by SetFlag/WaitFlag or a barrier";
      break;
  }
  return os.str();
}

std::vector<Hazard> check_hazards(const Trace& trace, uint32_t block, size_t max_reports) {
  return Checker(trace, block, max_reports).run();
}

std::vector<Hazard> check_hazards(const std::vector<const Trace*>& traces, size_t max_reports) {
  std::vector<Hazard> all;
  std::set<std::tuple<int, std::string, uint32_t, std::string, uint32_t>> seen;
  for (uint32_t b = 0; b < traces.size() && all.size() < max_reports; ++b) {
    for (auto& h : check_hazards(*traces[b], b, max_reports)) {
      if (!seen.insert({int(h.kind), h.first.file, h.first.line, h.second.file, h.second.line}).second) continue;
      all.push_back(std::move(h));
      if (all.size() >= max_reports) break;
    }
  }
  return all;
}

}  // namespace aoc::sim
