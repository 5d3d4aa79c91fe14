// Redundant synchronisation: a barrier or a SetFlag/WaitFlag pair that orders nothing the
// kernel does not already order stalls the pipes for nothing. Two kinds are recognised:
// syncs in a tile loop whose stages hand local tensors to each other only through queues
// (EnQue/DeQue and AllocTensor/FreeTensor already make MTE2, V and MTE3 wait for each other,
// and the stages touch no other buffer across pipes), and syncs right next to a
// PipeBarrier<PIPE_ALL>, which orders everything they order. Apply: those syncs go. Remove:
// a PipeBarrier<PIPE_ALL> between consecutive stage calls of such a tile loop, the
// defensive style that serialises copy-in, compute and copy-out of every tile. Both keep
// the kernel correct for kernels whose input and output GM buffers are distinct (a barrier
// between tiles would order a copy-out against the next tile's copy-in of the same GM).
#include "motifs/motif_util.h"
#include "motifs/tile_loop.h"

namespace aoc::rewrite {
namespace {

bool full_barrier(const Call& c) { return is_api(c, "PipeBarrier") && c.template_args.find("PIPE_ALL") != std::string::npos; }

// One synchronisation statement: a PipeBarrier, or a SetFlag with the WaitFlag right after it.
struct Sync {
  const Call* first = nullptr;
  const Call* wait = nullptr;  // set for a pair
};

// The sync starting at `c`, when it is a barrier statement or a complete pair.
std::optional<Sync> sync_at(const KernelModel& m, const Call& c) {
  if (!c.editable || !c.stmt.valid()) return std::nullopt;
  if (is_api(c, "PipeBarrier")) return Sync{&c, nullptr};
  if (!is_api(c, "SetFlag")) return std::nullopt;
  const Call* w = m.next_use(c, c.args.empty() ? "" : trim(c.args[0].text));
  if (w && is_api(*w, "WaitFlag") && w->template_args == c.template_args && w->stmt.valid() && w->editable &&
      w->loop_id == c.loop_id) {
    for (const Call* x : m.calls_beside(c))  // nothing runs between the two
      if (x->range.begin > c.range.end && x->range.end < w->range.begin) return std::nullopt;
    return Sync{&c, w};
  }
  return std::nullopt;
}

std::vector<Sync> redundant(const KernelModel& m) {
  std::vector<Sync> out;
  std::vector<const Call*> taken;
  auto add = [&](const Sync& s) {
    for (const Call* t : taken)
      if (t == s.first) return;
    taken.push_back(s.first);
    out.push_back(s);
  };
  for (const TileLoop& t : tile_loops(m))
    if (t.queue_ordered)
      for (const Call* c : t.syncs)
        if (auto s = sync_at(m, *c)) add(*s);
  // Next to a full barrier, with no call in between.
  for (const auto& c : m.calls) {
    auto s = sync_at(m, c);
    if (!s) continue;
    const Call* last = s->wait ? s->wait : s->first;
    const Call* before = nullptr;
    const Call* after = nullptr;
    for (const Call* x : m.calls_beside(c)) {
      if (x->range.end <= c.range.begin) before = x;
      if (x->range.begin >= last->range.end && !after) after = x;
    }
    const bool prev_full = before && full_barrier(*before) && before->loop_id == c.loop_id;
    const bool next_full = after && full_barrier(*after) && after->loop_id == c.loop_id;
    // Of two full barriers in a row the second goes; anything else next to one goes.
    if (prev_full || (next_full && !full_barrier(c))) add(*s);
  }
  return out;
}

// Tile loops where a barrier between stages would order nothing, and that have none yet.
std::vector<TileLoop> bare_loops(const KernelModel& m) {
  std::vector<TileLoop> out;
  for (TileLoop& t : tile_loops(m))
    if (t.queue_ordered && t.syncs.empty() && t.stages.size() >= 2) out.push_back(std::move(t));
  return out;
}

class RedundantSync : public Motif {
public:
  std::string name() const override { return "redundant_sync"; }
  std::string summary() const override {
    return "no barrier between queue-ordered tile stages or next to a full barrier <-> PipeBarrier<PIPE_ALL> between stages";
  }
  Detection detect(const KernelModel& m) const override {
    Detection d;
    if (auto rs = redundant(m); !rs.empty()) {
      d.state = State::Applicable;
      for (const auto& s : rs) d.ranges.push_back(s.first->stmt);
      d.reason = std::to_string(rs.size()) + " sync(s) ordering nothing the queues or a full barrier do not";
      return d;
    }
    if (auto ls = bare_loops(m); !ls.empty()) {
      d.state = State::Present;
      for (const auto& l : ls) d.ranges.push_back(m.loops[l.loop].range);
      d.reason = std::to_string(ls.size()) + " tile loop(s) whose stages synchronise only through queues";
      return d;
    }
    for (const TileLoop& t : tile_loops(m))
      if (!t.queue_ordered) return not_applicable("the tile loop at line " + std::to_string(m.loops[t.loop].range.line) +
                                                  " needs more than its queues: " + t.why_not);
    return not_applicable("no tile loop of stage calls and no sync next to a full barrier");
  }
  Transform apply(const KernelModel& m) const override {
    auto rs = redundant(m);
    if (rs.empty()) return refuse("no sync that orders nothing the queues or a full barrier next to it do not");
    Transform t;
    for (const auto& s : rs) {
      t.edits.push_back(erase_statement(m, s.first->stmt));
      if (s.wait) t.edits.push_back(erase_statement(m, s.wait->stmt));
      t.ranges.push_back(s.first->stmt);
    }
    return t;
  }
  Transform remove(const KernelModel& m) const override {
    auto ls = bare_loops(m);
    if (ls.empty()) return refuse("no tile loop of two or more stage calls synchronised only through queues");
    Transform t;
    for (const auto& l : ls)
      for (size_t i = 1; i < l.stages.size(); ++i) {
        t.edits.push_back(insert_line_before(m, l.stages[i]->stmt, "AscendC::PipeBarrier<PIPE_ALL>();"));
        t.ranges.push_back(l.stages[i]->stmt);
      }
    return t;
  }
};

const RegisterMotif<RedundantSync> kRegistered{100};

}  // namespace

}  // namespace aoc::rewrite
