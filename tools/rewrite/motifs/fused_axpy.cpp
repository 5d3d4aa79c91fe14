// Fused multiply-add: Axpy(d, a, s, n) computes d += a * s in one vector instruction where
// Muls into a temporary and an Add take two. Apply: Muls(t, a, s, n) + Add(d, d, t, n) (either
// operand order) -> Axpy(d, a, s, n), when nothing else reads t. Remove: Axpy(d, a, s, n) ->
// Muls(a, a, s, n) + Add(d, d, a, n), only when a is a local tensor no later call of the
// function reads and the call is not inside a loop (a is overwritten).
#include "motifs/motif_util.h"

namespace aoc::rewrite {
namespace {

struct Pair {
  const Call* muls = nullptr;
  const Call* add = nullptr;
};

std::vector<Pair> pairs(const KernelModel& m) {
  std::vector<Pair> out;
  for (const auto& c : m.calls) {
    if (!is_api(c, "Muls") || c.args.size() != 4 || !c.stmt.valid() || !c.editable) continue;
    const std::string t = trim(c.args[0].text);
    if (identifier_of(t).empty() || t == trim(c.args[1].text)) continue;
    const Call* x = m.next_use(c, t);
    if (x && is_api(*x, "Add") && x->args.size() == 4 && x->editable && x->loop_id == c.loop_id &&
        trim(x->args[3].text) == trim(c.args[3].text)) {
      const std::string d = trim(x->args[0].text), p = trim(x->args[1].text), q = trim(x->args[2].text);
      const bool shape = (p == d && q == t) || (q == d && p == t);
      if (shape && d != t && d != trim(c.args[1].text) && !m.next_use(*x, t)) out.push_back({&c, x});
    }
  }
  return out;
}

std::vector<const Call*> axpys(const KernelModel& m) {
  std::vector<const Call*> out;
  for (const Call* c : m.calls_named("Axpy")) {
    if (!is_api(*c, "Axpy") || c->args.size() != 4 || !c->stmt.valid() || !c->editable || c->loop_depth > 0) continue;
    const std::string a = trim(c->args[1].text);
    if (identifier_of(a).empty() || a == trim(c->args[0].text)) continue;
    bool local = false;
    for (const auto& v : m.vars)
      if (v.name == a && !v.is_member && !v.is_param && v.function == c->function && v.klass == c->klass) local = true;
    if (local && !m.next_use(*c, a)) out.push_back(c);
  }
  return out;
}

class FusedAxpy : public Motif {
public:
  std::string name() const override { return "fused_axpy"; }
  std::string summary() const override { return "Axpy (d += a * s) <-> Muls into a temporary + Add"; }
  Detection detect(const KernelModel& m) const override {
    Detection d;
    if (auto ps = pairs(m); !ps.empty()) {
      d.state = State::Applicable;
      for (const auto& p : ps) d.ranges.push_back(p.add->range);
      d.reason = std::to_string(ps.size()) + " Muls + Add pair(s) with a dead temporary";
      return d;
    }
    if (auto as = axpys(m); !as.empty()) {
      d.state = State::Present;
      for (const Call* c : as) d.ranges.push_back(c->range);
      d.reason = std::to_string(as.size()) + " Axpy call(s) whose source tensor is dead afterwards";
      return d;
    }
    for (const Call* c : m.calls_named("Axpy"))
      if (is_api(*c, "Axpy"))
        return not_applicable("Axpy at line " + std::to_string(c->range.line) +
                              " reads a tensor used later (splitting it needs a temporary the tiling does not budget)");
    return not_applicable("no Muls + Add pair through a dead temporary and no Axpy");
  }
  Transform apply(const KernelModel& m) const override {
    auto ps = pairs(m);
    if (ps.empty()) return refuse("no Muls into a temporary followed by an Add of it");
    Transform t;
    for (const auto& p : ps) {
      const Call& mu = *p.muls;
      t.edits.push_back(erase_statement(m, mu.stmt));
      t.edits.push_back(replace(p.add->range, "AscendC::Axpy(" + trim(p.add->args[0].text) + ", " + trim(mu.args[1].text) +
                                                  ", " + trim(mu.args[2].text) + ", " + trim(mu.args[3].text) + ")"));
      t.ranges.push_back(p.add->range);
    }
    return t;
  }
  Transform remove(const KernelModel& m) const override {
    auto as = axpys(m);
    if (as.empty()) return refuse("no Axpy whose source tensor is a dead local outside loops");
    Transform t;
    for (const Call* c : as) {
      const std::string d = trim(c->args[0].text), a = trim(c->args[1].text), s = trim(c->args[2].text),
                        n = trim(c->args[3].text);
      t.edits.push_back(replace(c->stmt, "AscendC::Muls(" + a + ", " + a + ", " + s + ", " + n + ");\n" +
                                             indent_at(m, c->stmt) + "AscendC::Add(" + d + ", " + d + ", " + a + ", " + n + ");"));
      t.ranges.push_back(c->stmt);
    }
    return t;
  }
};

const RegisterMotif<FusedAxpy> kRegistered{90};

}  // namespace

}  // namespace aoc::rewrite
