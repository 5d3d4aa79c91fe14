// Division by a scalar as a multiplication by its reciprocal: Muls(d, a, 1.0f / s, n) costs
// one vector instruction where Duplicate(t, s, n) + Div(d, a, t, n) costs two, and Div is
// the slowest binary instruction. Apply: Duplicate + Div by the duplicated tensor -> Muls by
// the reciprocal. Remove: Muls(d, a, 1 / s, n) with d != a -> Duplicate(d, s, n) +
// Div(d, a, d, n).
#include "motifs/motif_util.h"

namespace aoc::rewrite {
namespace {

// "1.0f / x" -> "x"; "" when the text is not a literal one over something.
std::string divisor_of(const std::string& text) {
  std::string t = trim(text);
  for (const char* one : {"1.0f", "1.0", "1.f", "1"}) {
    const std::string o = one;
    if (t.rfind(o, 0) != 0) continue;
    std::string rest = trim(t.substr(o.size()));
    if (rest.empty() || rest[0] != '/') continue;
    rest = trim(rest.substr(1));
    if (rest.find_first_of("+-*/?,") != std::string::npos && !(rest.front() == '(' && rest.back() == ')')) return "";
    return rest;
  }
  return "";
}

std::vector<const Call*> reciprocal_muls(const KernelModel& m) {
  std::vector<const Call*> out;
  for (const Call* c : m.calls_named("Muls"))
    if (is_api(*c, "Muls") && c->args.size() == 4 && c->stmt.valid() && c->editable &&
        trim(c->args[0].text) != trim(c->args[1].text) && !divisor_of(c->args[2].text).empty() &&
        !may_alias(m, *c, c->args[0].text, c->args[1].text))
      out.push_back(c);
  return out;
}

struct DupDiv {
  const Call* dup = nullptr;
  const Call* div = nullptr;
};

std::vector<DupDiv> dup_divs(const KernelModel& m) {
  std::vector<DupDiv> out;
  for (const auto& d : m.calls) {
    if (!is_api(d, "Duplicate") || d.args.size() != 3 || !d.stmt.valid() || !d.editable) continue;
    const std::string t = trim(d.args[0].text);
    const Call* c = m.next_use(d, t);
    if (c && is_api(*c, "Div") && c->args.size() == 4 && trim(c->args[2].text) == t && trim(c->args[1].text) != t &&
        trim(c->args[3].text) == trim(d.args[2].text) && c->editable && c->loop_id == d.loop_id)
      out.push_back({&d, c});
  }
  return out;
}

class ReciprocalMul : public Motif {
public:
  std::string name() const override { return "reciprocal_mul"; }
  std::string summary() const override { return "Muls by 1/s <-> Duplicate(s) + Div"; }
  Detection detect(const KernelModel& m) const override {
    Detection d;
    if (auto dd = dup_divs(m); !dd.empty()) {
      d.state = State::Applicable;
      for (const auto& x : dd) d.ranges.push_back(x.div->range);
      d.reason = std::to_string(dd.size()) + " division(s) by a duplicated scalar";
      return d;
    }
    if (auto rm = reciprocal_muls(m); !rm.empty()) {
      d.state = State::Present;
      for (const Call* c : rm) d.ranges.push_back(c->range);
      d.reason = std::to_string(rm.size()) + " multiplication(s) by a literal reciprocal";
      return d;
    }
    return not_applicable("no Div by a duplicated scalar and no Muls by 1/s");
  }
  Transform apply(const KernelModel& m) const override {
    auto dd = dup_divs(m);
    if (dd.empty()) return refuse("no Div by a tensor filled with one scalar by Duplicate");
    Transform t;
    for (const auto& x : dd) {
      const Call& c = *x.div;
      t.edits.push_back(replace(c.range, "AscendC::Muls(" + trim(c.args[0].text) + ", " + trim(c.args[1].text) +
                                             ", 1.0f / (" + trim(x.dup->args[1].text) + "), " + trim(c.args[3].text) + ")"));
      t.ranges.push_back(c.range);
    }
    return t;
  }
  Transform remove(const KernelModel& m) const override {
    auto rm = reciprocal_muls(m);
    if (rm.empty()) return refuse("no out-of-place Muls by a literal reciprocal 1/s");
    Transform t;
    for (const Call* c : rm) {
      const std::string d = trim(c->args[0].text), n = trim(c->args[3].text);
      t.edits.push_back(replace(c->stmt, "AscendC::Duplicate(" + d + ", " + divisor_of(c->args[2].text) + ", " + n +
                                             ");\n" + indent_at(m, c->stmt) + "AscendC::Div(" + d + ", " +
                                             trim(c->args[1].text) + ", " + d + ", " + n + ");"));
      t.ranges.push_back(c->stmt);
    }
    return t;
  }
};

const RegisterMotif<ReciprocalMul> kRegistered{50};

}  // namespace

}  // namespace aoc::rewrite
