// Event-based synchronisation: a SetFlag<E>/WaitFlag<E> pair makes only the pipes of event E
// wait for each other, where a PipeBarrier<PIPE_ALL> drains every pipe. Remove: the pair
// becomes a full barrier (always correct, coarser). Apply: a full barrier between a copy
// into UB and the scalar or vector reads after it, or between vector writes and a copy out,
// becomes the pair of the event those two pipes need.
#include "motifs/motif_util.h"

namespace aoc::rewrite {
namespace {

struct Pair {
  const Call* set = nullptr;
  const Call* wait = nullptr;
};

std::vector<Pair> pairs(const KernelModel& m) {
  std::vector<Pair> out;
  for (const auto& c : m.calls) {
    if (!is_api(c, "SetFlag") || !c.editable || !c.stmt.valid() || c.args.size() != 1) continue;
    for (const Call* w : m.calls_beside(c)) {
      if (w->range.begin <= c.range.end) continue;
      if (is_api(*w, "WaitFlag") && w->template_args == c.template_args && w->args.size() == 1 &&
          trim(w->args[0].text) == trim(c.args[0].text) && w->stmt.valid() && w->editable && w->loop_id == c.loop_id)
        out.push_back({&c, w});
      break;  // only a WaitFlag that is the very next call pairs with it
    }
  }
  return out;
}

// Pipe a call runs on, as far as the source tells: "MTE2" for copies into UB, "MTE3" for
// copies out, "V" for vector instructions, "S" for scalar reads; "" when unknown.
std::string pipe_of(const KernelModel& m, const Call& c) {
  if (c.callee == "GetValue" || c.callee == "SetValue") return "S";
  if (c.callee == "DataCopy" || c.callee == "DataCopyPad") {
    if (c.args.size() < 2) return "";
    // A GlobalTensor is indexed with [] or named ...Gm by convention in the suite; the source
    // operand (second) decides the direction.
    const std::string src = c.args[1].text;
    const std::string id = identifier_of(src.substr(0, src.find('[')));
    const Var* v = m.var_seen_by(c, id);
    if (v && v->type_template == "GlobalTensor") return "MTE2";
    if (v && v->type_template == "LocalTensor") return "MTE3";
    return "";
  }
  static const char* vec[] = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Adds", "Muls", "Maxs", "Mins", "Exp", "Ln",
                              "Abs", "Relu", "Sqrt", "Rsqrt", "Duplicate", "Cast", "Compare", "Select", "Reciprocal"};
  for (const char* v : vec)
    if (c.callee == v && c.object.empty()) return "V";
  return "";
}

class EventSync : public Motif {
public:
  std::string name() const override { return "event_sync"; }
  std::string summary() const override {
    return "SetFlag/WaitFlag on the two pipes concerned <-> PipeBarrier<PIPE_ALL>";
  }
  Detection detect(const KernelModel& m) const override {
    Detection d;
    auto ps = pairs(m);
    if (!ps.empty()) {
      d.state = State::Present;
      for (const auto& p : ps) d.ranges.push_back(p.set->stmt);
      d.reason = std::to_string(ps.size()) + " SetFlag/WaitFlag pair(s)";
      return d;
    }
    auto bs = barriers(m);
    if (!bs.empty()) {
      d.state = State::Applicable;
      for (const auto& b : bs) d.ranges.push_back(b.first->stmt);
      d.reason = std::to_string(bs.size()) + " PipeBarrier<PIPE_ALL> between known pipes";
      return d;
    }
    return not_applicable("no SetFlag/WaitFlag pair and no full barrier between known pipes");
  }
  Transform remove(const KernelModel& m) const override {
    auto ps = pairs(m);
    if (ps.empty()) return refuse("no SetFlag/WaitFlag pair directly followed by its WaitFlag");
    Transform t;
    for (const auto& p : ps) {
      t.edits.push_back(replace(p.set->stmt, "AscendC::PipeBarrier<PIPE_ALL>();"));
      t.edits.push_back(erase_statement(m, p.wait->stmt));
      t.ranges.push_back(p.set->stmt);
    }
    return t;
  }
  Transform apply(const KernelModel& m) const override {
    auto bs = barriers(m);
    if (bs.empty()) return refuse("no PipeBarrier<PIPE_ALL> between a producer and a consumer of known pipes");
    Transform t;
    for (const auto& [b, event] : bs) {
      const std::string ind = indent_at(m, b->stmt);
      t.edits.push_back(replace(b->stmt, "AscendC::SetFlag<AscendC::HardEvent::" + event + ">(EVENT_ID0);\n" + ind +
                                             "AscendC::WaitFlag<AscendC::HardEvent::" + event + ">(EVENT_ID0);"));
      t.ranges.push_back(b->stmt);
    }
    return t;
  }

private:
  // Full barriers whose previous call and next call (same function) run on known pipes.
  std::vector<std::pair<const Call*, std::string>> barriers(const KernelModel& m) const {
    std::vector<std::pair<const Call*, std::string>> out;
    for (const auto& c : m.calls) {
      if (!is_api(c, "PipeBarrier") || c.template_args.find("PIPE_ALL") == std::string::npos || !c.stmt.valid() ||
          !c.editable)
        continue;
      auto fn = m.calls_beside(c);
      const Call* before = nullptr;
      const Call* after = nullptr;
      for (const Call* x : fn) {
        if (x->range.end <= c.range.begin && x->stmt.valid()) before = x;
        if (x->range.begin >= c.range.end && x->stmt.valid() && !after) after = x;
      }
      if (!before || !after) continue;
      const std::string p = pipe_of(m, *before), q = pipe_of(m, *after);
      if (p.empty() || q.empty() || p == q) continue;
      out.emplace_back(&c, p + "_" + q);
    }
    return out;
  }
};

const RegisterMotif<EventSync> kRegistered{20};

}  // namespace

}  // namespace aoc::rewrite
