// Scalar forms of binary vector instructions: Muls/Adds/Maxs/Mins take the scalar operand
// directly, where the vector form first fills a UB tensor with it (Duplicate) and then runs
// Mul/Add/Max/Min. Apply: Duplicate(t, s, n) + Op(d, a, t, n) -> Ops(d, a, s, n), the
// Duplicate removed when nothing else reads t. Remove: Ops(d, a, s, n) with d != a ->
// Duplicate(d, s, n) + Op(d, a, d, n) (the destination serves as the scalar's tensor).
#include <map>

#include "motifs/motif_util.h"

namespace aoc::rewrite {
namespace {

const std::map<std::string, std::string>& scalar_of() {
  static const std::map<std::string, std::string> m = {{"Mul", "Muls"}, {"Add", "Adds"}, {"Max", "Maxs"}, {"Min", "Mins"}};
  return m;
}

struct Fusable {
  const Call* dup = nullptr;
  const Call* op = nullptr;
  int tensor_arg = 2;   // which operand of op is the duplicated tensor
  bool drop_dup = false;
};

std::vector<Fusable> fusable(const KernelModel& m) {
  std::vector<Fusable> out;
  for (const auto& d : m.calls) {
    if (!is_api(d, "Duplicate") || d.args.size() != 3 || !d.stmt.valid() || !d.editable) continue;
    const std::string t = trim(d.args[0].text);
    const Call* c = m.next_use(d, t);
    if (!c || c->args.size() != 4 || !scalar_of().count(c->callee) || !is_api(*c, c->callee) || !c->editable) continue;
    const int k = trim(c->args[2].text) == t ? 2 : (trim(c->args[1].text) == t ? 1 : 0);
    if (k != 0 && trim(c->args[3].text) == trim(d.args[2].text) && trim(c->args[0].text) != t &&
        trim(c->args[3 - k].text) != t && c->loop_id == d.loop_id)
      out.push_back({&d, c, k, !m.used_elsewhere(d, t, c)});
  }
  return out;
}

std::vector<const Call*> scalar_calls(const KernelModel& m) {
  std::vector<const Call*> out;
  for (const auto& [vec, sc] : scalar_of())
    for (const Call* c : m.calls_named(sc))
      if (is_api(*c, sc) && c->args.size() == 4 && c->stmt.valid() && c->editable &&
          trim(c->args[0].text) != trim(c->args[1].text) && !may_alias(m, *c, c->args[0].text, c->args[1].text))
        out.push_back(c);
  return out;
}

class ScalarForm : public Motif {
public:
  std::string name() const override { return "scalar_form"; }
  std::string summary() const override {
    return "Muls/Adds/Maxs/Mins with the scalar operand <-> Duplicate + Mul/Add/Max/Min";
  }
  Detection detect(const KernelModel& m) const override {
    Detection d;
    auto fs = fusable(m);
    if (!fs.empty()) {
      d.state = State::Applicable;
      for (const auto& f : fs) d.ranges.push_back(f.op->range);
      d.reason = std::to_string(fs.size()) + " Duplicate + binary instruction pair(s)";
      return d;
    }
    auto sc = scalar_calls(m);
    if (!sc.empty()) {
      d.state = State::Present;
      for (const Call* c : sc) d.ranges.push_back(c->range);
      d.reason = std::to_string(sc.size()) + " scalar-form instruction(s) writing a tensor other than their source";
      return d;
    }
    return not_applicable("no Duplicate feeding Mul/Add/Max/Min and no out-of-place Muls/Adds/Maxs/Mins");
  }
  Transform apply(const KernelModel& m) const override {
    auto fs = fusable(m);
    if (fs.empty()) return refuse("no Duplicate feeding a Mul/Add/Max/Min of the same count");
    Transform t;
    for (const auto& f : fs) {
      const Call& op = *f.op;
      const std::string src = trim(op.args[3 - f.tensor_arg].text);
      t.edits.push_back(replace(op.range, "AscendC::" + scalar_of().at(op.callee) + "(" + trim(op.args[0].text) + ", " +
                                              src + ", " + trim(f.dup->args[1].text) + ", " + trim(op.args[3].text) + ")"));
      if (f.drop_dup) t.edits.push_back(erase_statement(m, f.dup->stmt));
      t.ranges.push_back(op.range);
    }
    return t;
  }
  Transform remove(const KernelModel& m) const override {
    auto sc = scalar_calls(m);
    if (sc.empty()) return refuse("no out-of-place Muls/Adds/Maxs/Mins (an in-place one has no tensor to hold the scalar)");
    Transform t;
    for (const Call* c : sc) {
      std::string vec;
      for (const auto& [v, s] : scalar_of())
        if (s == c->callee) vec = v;
      const std::string d = trim(c->args[0].text), a = trim(c->args[1].text), s = trim(c->args[2].text),
                        n = trim(c->args[3].text);
      t.edits.push_back(replace(c->stmt, "AscendC::Duplicate(" + d + ", " + s + ", " + n + ");\n" + indent_at(m, c->stmt) +
                                             "AscendC::" + vec + "(" + d + ", " + a + ", " + d + ", " + n + ");"));
      t.ranges.push_back(c->stmt);
    }
    return t;
  }
};

const RegisterMotif<ScalarForm> kRegistered{40};

}  // namespace

}  // namespace aoc::rewrite
