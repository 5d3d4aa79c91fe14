// Vector instructions instead of scalar loops: a loop of GetValue/SetValue computes one
// element per scalar instruction (and the scalar unit must wait for the pipes that wrote UB
// and make the pipes that read its results wait for it); one vector instruction does the
// whole tensor. Remove: an elementwise instruction on whole local tensors (count form:
// `Op(d, a, b, n)`, `Ops(d, a, s, n)`, `Op(d, a, n)`) becomes the loop computing the same
// lanes, between two `PipeBarrier<PIPE_ALL>()` (the scalar pipe then reads UB only after the
// V and MTE2 writes before it, and the V/MTE3 reads after it see its writes). Apply: a loop
// `for (i = 0; i < n; ++i) d.SetValue(i, <a.GetValue(i) op b.GetValue(i) | op s>);`
// becomes the instruction.
//
// Only instructions whose lanes the scalar code can compute exactly are used: Add, Sub, Mul
// (half/bfloat16 computed in float and rounded back, integers wrapped: the scalar code
// computes in the same type), Adds, Muls, Maxs, Mins (the scalar converted to the element
// type first, as the instruction does), Max, Min and Relu (NaN propagated as the
// instruction does) and Abs (the same value; a NaN keeps its sign bit). Exp, Ln, Sqrt,
// Div ... are left alone: their vector lanes are not the scalar library's.
// Apply refuses forms whose scalar meaning differs: a scalar of another type than the
// elements (the instruction rounds it to the element type first), casts to a type other
// than the element type, and anything but one SetValue statement in the loop.
#include <regex>

#include "motifs/motif_util.h"

namespace aoc::rewrite {
namespace {

enum class Kind { Binary, Scalar, Unary };
struct OpInfo {
  const char* name;
  Kind kind;
  const char* sym;  // C++ operator of Binary/Scalar arithmetic, "" for the others
};
const OpInfo kOps[] = {
    {"Add", Kind::Binary, "+"},  {"Sub", Kind::Binary, "-"},  {"Mul", Kind::Binary, "*"},
    {"Max", Kind::Binary, ""},   {"Min", Kind::Binary, ""},   {"Adds", Kind::Scalar, "+"},
    {"Muls", Kind::Scalar, "*"}, {"Maxs", Kind::Scalar, ""},  {"Mins", Kind::Scalar, ""},
    {"Abs", Kind::Unary, ""},    {"Relu", Kind::Unary, ""},
};
const OpInfo* op_of(const std::string& name) {
  for (const auto& o : kOps)
    if (name == o.name) return &o;
  return nullptr;
}

// Element type of the LocalTensor a plain identifier names (`x`, `this->x`), "" otherwise.
std::string local_elem(const KernelModel& m, const Call& c, const std::string& arg) {
  const std::string id = identifier_of(arg);
  if (id.empty()) return "";
  // The declaration in scope at the call: a function may declare the name in several
  // blocks (`if constexpr` branches) with different element types. Among the locals whose
  // block holds the call, the last declared before it; a member only when no local is.
  const Var* best = nullptr;
  for (const auto& v : m.vars) {
    if (v.name != id || v.type_template != "LocalTensor") continue;
    if (v.is_member) {
      if (v.klass == c.klass && (!best || best->is_member)) best = &v;
      continue;
    }
    if (v.function != c.function || v.klass != c.klass) continue;
    const bool in_scope = !v.scope.valid() || (v.scope.file == c.range.file && v.scope.begin <= c.range.begin &&
                                               c.range.end <= v.scope.end && v.decl.begin <= c.range.begin);
    if (in_scope && (!best || best->is_member || v.decl.begin > best->decl.begin)) best = &v;
  }
  if (!best) return "";
  const size_t open = best->type.find('<'), close = best->type.rfind('>');
  if (open == std::string::npos || close == std::string::npos || close <= open) return "";
  return trim(best->type.substr(open + 1, close - open - 1));
}

bool float_like(const std::string& t) {
  return t == "float" || t == "half" || t == "bfloat16_t" || t == "AscendC::half" || t == "AscendC::bfloat16_t";
}

// Vector instructions whose scalar loop is exact, count form on whole tensors.
struct Instr {
  const Call* call = nullptr;
  const OpInfo* op = nullptr;
  std::string elem;
};

std::vector<Instr> instructions(const KernelModel& m, std::string* why) {
  std::vector<Instr> out;
  for (const auto& c : m.calls) {
    const OpInfo* op = op_of(c.callee);
    if (!op || !is_api(c, c.callee) || !c.editable || !c.stmt.valid() || m.is_host(c.range.file)) continue;
    const size_t want = op->kind == Kind::Unary ? 3 : 4;
    if (c.args.size() != want) continue;  // the level-0 (mask, repeat) forms are not the count form
    const std::string elem = local_elem(m, c, c.args[0].text);
    bool whole = !elem.empty() && local_elem(m, c, c.args[1].text) == elem;
    if (op->kind == Kind::Binary) whole = whole && local_elem(m, c, c.args[2].text) == elem;
    if (!whole) {
      if (why && why->empty()) *why = c.callee + " at line " + std::to_string(c.range.line) + " is not on whole local tensors of one type";
      continue;
    }
    out.push_back({&c, op, elem});
  }
  return out;
}

// `{ barrier; <inner> barrier; }`: the scalar pipe reads UB after every earlier write of the
// other pipes, and they read its results only after it is done.
std::string wrap(const std::string& outer, const std::string& ind, const std::string& inner) {
  return "{\n" + ind + "AscendC::PipeBarrier<PIPE_ALL>();\n" + inner + ind + "AscendC::PipeBarrier<PIPE_ALL>();\n" + outer + "}";
}

// The scalar loop computing the instruction's lanes.
std::string scalar_loop(const KernelModel& m, const Instr& in) {
  const Call& c = *in.call;
  // One block (a single statement, and its names stay local): barrier, loop, barrier.
  const std::string outer = indent_at(m, c.stmt), ind = outer + "    ", body = ind + "    ";
  const std::string T = in.elem;
  const std::string d = trim(c.args[0].text), a = trim(c.args[1].text);
  const std::string n = trim(c.args.back().text);
  // Lanes compute half/bfloat16 in float, integers without overflow (wrapped back to T).
  const std::string calc = "std::conditional_t<std::is_integral_v<" + T + ">, int64_t, std::conditional_t<(sizeof(" + T +
                           ") < 4), float, " + T + ">>";
  std::string pre = ind + "using aocCalc = " + calc + ";\n";
  std::string av = "static_cast<aocCalc>(" + a + ".GetValue(aocI))";
  std::string bv;
  if (in.op->kind == Kind::Binary) bv = "static_cast<aocCalc>(" + trim(c.args[2].text) + ".GetValue(aocI))";
  if (in.op->kind == Kind::Scalar) {
    // The instruction takes the scalar as T.
    pre += ind + "const aocCalc aocS = static_cast<aocCalc>(static_cast<" + T + ">(" + trim(c.args[2].text) + "));\n";
    bv = "aocS";
  }
  std::string value;
  const std::string name = in.op->name;
  if (*in.op->sym) {
    value = "static_cast<" + T + ">(" + av + " " + in.op->sym + " " + bv + ")";
  } else if (name == "Max" || name == "Maxs" || name == "Min" || name == "Mins") {
    const std::string cmp = (name == "Max" || name == "Maxs") ? ">=" : "<=";
    // NaN wins, the first operand first.
    value = "static_cast<" + T + ">((aocA != aocA || (aocB == aocB && aocA " + cmp + " aocB)) ? aocA : aocB)";
    return wrap(outer, ind, pre + ind + "for (uint32_t aocI = 0; aocI < static_cast<uint32_t>(" + n + "); ++aocI) {\n" +
                                body + "const aocCalc aocA = " + av + ";\n" + body + "const aocCalc aocB = " + bv + ";\n" +
                                body + d + ".SetValue(aocI, " + value + ");\n" + ind + "}\n");
  } else if (name == "Relu") {
    value = "static_cast<" + T + ">((aocA > aocCalc(0) || aocA != aocA) ? aocA : aocCalc(0))";
  } else {  // Abs; -0 becomes +0
    value = "static_cast<" + T + ">(aocA < aocCalc(0) ? -aocA : (aocA == aocCalc(0) ? aocCalc(0) : aocA))";
  }
  std::string loop_body;
  if (name == "Relu" || name == "Abs") loop_body = body + "const aocCalc aocA = " + av + ";\n";
  loop_body += body + d + ".SetValue(aocI, " + value + ");\n";
  return wrap(outer, ind,
              pre + ind + "for (uint32_t aocI = 0; aocI < static_cast<uint32_t>(" + n + "); ++aocI) {\n" + loop_body + ind + "}\n");
}

// ---- apply: recognising a scalar loop ----

// `static_cast<X>(e)` / `(X)(e)` stripped when X is the element type or aocCalc (or float for
// floating elements); `ok` false when a cast to another type is met.
std::string strip_casts(std::string e, const std::string& elem, bool& ok) {
  static const std::regex cast(R"(^static_cast<\s*([A-Za-z_:][\w:<>, ()]*?)\s*>\s*\((.*)\)$)");
  for (int guard = 0; guard < 8; ++guard) {
    e = trim(e);
    while (e.size() >= 2 && e.front() == '(' && e.back() == ')') {
      // Only outer parentheses that match each other.
      int depth = 0;
      bool outer = true;
      for (size_t i = 0; i + 1 < e.size(); ++i) {
        depth += e[i] == '(' ? 1 : e[i] == ')' ? -1 : 0;
        if (depth == 0) outer = false;
      }
      if (!outer) break;
      e = trim(e.substr(1, e.size() - 2));
    }
    std::smatch mm;
    if (!std::regex_match(e, mm, cast)) return e;
    const std::string to = trim(mm[1].str());
    if (!(to == elem || to == "aocCalc" || (to == "float" && float_like(elem)))) {
      ok = false;
      return e;
    }
    e = mm[2].str();
  }
  return e;
}

// Splits `l op r` at a top-level binary + - * ; op empty when there is none.
void split_binary(const std::string& e, std::string& l, std::string& op, std::string& r) {
  int depth = 0;
  op.clear();
  for (size_t i = 0; i < e.size(); ++i) {
    const char ch = e[i];
    if (ch == '(' || ch == '[' || ch == '<') ++depth;
    if (ch == ')' || ch == ']' || ch == '>') --depth;
    if (depth != 0 || i == 0) continue;
    if (ch == '-' && i + 1 < e.size() && e[i + 1] == '>') continue;  // ->
    if (ch == '+' || ch == '-' || ch == '*') {
      if (!op.empty()) {  // two operators: not a single operation
        op = "?";
        return;
      }
      op = std::string(1, ch);
      l = trim(e.substr(0, i));
      r = trim(e.substr(i + 1));
    }
  }
}

struct LoopMatch {
  const Loop* loop = nullptr;
  const Call* set = nullptr;
  std::string replacement;
  std::string why;  // refusal
};

// `t.GetValue(i)` -> t; "" otherwise.
std::string get_of(const std::string& e, const std::string& i) {
  static const std::regex get(R"(^((?:this->)?[A-Za-z_]\w*)\s*\.\s*GetValue\s*\(\s*(\w+)\s*\)$)");
  std::smatch mm;
  if (!std::regex_match(e, mm, get) || mm[2].str() != i) return "";
  return mm[1].str();
}

LoopMatch match_loop(const KernelModel& m, const Loop& l) {
  LoopMatch r;
  r.loop = &l;
  const std::string text = m.text(l.range);
  static const std::regex head(
      R"(^for\s*\(\s*(?:unsigned|int|uint32_t|int32_t|uint64_t|int64_t|size_t|uint16_t|auto)\s+(\w+)\s*=\s*0[uU]?\s*;\s*(\w+)\s*<\s*([^;]+?)\s*;\s*(?:\+\+\s*(\w+)|(\w+)\s*\+\+|(\w+)\s*\+=\s*1)\s*\))");
  std::smatch mm;
  if (!std::regex_search(text, mm, head)) return r.why = "not a counted loop from 0", r;
  const std::string i = mm[1].str(), n = trim(mm[3].str());
  const std::string inc = mm[4].matched ? mm[4].str() : mm[5].matched ? mm[5].str() : mm[6].str();
  if (mm[2].str() != i || inc != i) return r.why = "not a counted loop", r;
  // The body: one SetValue statement, nothing else.
  std::string body = trim(m.text(l.body));
  if (body.size() >= 2 && body.front() == '{' && body.back() == '}') body = trim(body.substr(1, body.size() - 2));
  std::vector<const Call*> inside;
  for (const auto& c : m.calls)
    if (c.range.file == l.body.file && c.range.begin >= l.body.begin && c.range.end <= l.body.end) inside.push_back(&c);
  const Call* set = nullptr;
  for (const Call* c : inside)
    if (c->callee == "SetValue" && !c->object.empty()) set = set ? nullptr : c;
  if (!set || !set->stmt.valid() || !set->editable || set->args.size() != 2) return r.why = "not one SetValue", r;
  if (trim(m.text(set->stmt)) != body) return r.why = "the body holds more than the SetValue", r;
  for (const Call* c : inside)
    if (c != set && c->callee != "GetValue") return r.why = "the body calls " + c->callee, r;
  if (trim(set->args[0].text) != i) return r.why = "SetValue not at the loop index", r;
  const std::string d = trim(set->object);
  const std::string elem = local_elem(m, *set, d);
  if (elem.empty()) return r.why = d + " is not a local tensor", r;
  if (names_word(n, d) || names_word(n, i)) return r.why = "the bound depends on the tensor", r;
  r.set = set;

  bool ok = true;
  std::string e = strip_casts(set->args[1].text, elem, ok);
  if (!ok) return r.why = "a cast to another type than " + elem + " (the instruction computes in " + elem + ")", r;
  std::string lhs, op, rhs;
  split_binary(e, lhs, op, rhs);
  if (op.empty() || op == "?") return r.why = "not one + - * of loaded elements", r;
  bool lok = true, rok = true;
  lhs = strip_casts(lhs, elem, lok);
  rhs = strip_casts(rhs, elem, rok);
  if (!lok || !rok) return r.why = "a cast to another type than " + elem, r;
  const std::string a = get_of(lhs, i), b = get_of(rhs, i);
  auto same_type = [&](const std::string& t) { return local_elem(m, *set, t) == elem; };
  const std::string ind = indent_at(m, l.range);
  if (!a.empty() && !b.empty()) {
    if (!same_type(a) || !same_type(b)) return r.why = "operands of another element type", r;
    const char* name = op == "+" ? "Add" : op == "-" ? "Sub" : "Mul";
    r.replacement = std::string("AscendC::") + name + "(" + d + ", " + a + ", " + b + ", " + n + ");";
    return r;
  }
  // A tensor and a scalar: + and * commute, - does not (no Subs).
  std::string t = a, s = rhs;
  if (t.empty() && op != "-") {
    t = b;
    s = lhs;
  }
  if (t.empty() || op == "-") return r.why = "not a tensor op a tensor or a scalar", r;
  if (!same_type(t)) return r.why = "operand of another element type", r;
  if (s.find("GetValue") != std::string::npos || names_word(s, i)) return r.why = "the scalar changes per element", r;
  // The instruction rounds the scalar to the element type: fine when it has that type.
  bool scalar_ok = false;
  static const std::regex float_lit(R"(^-?[0-9]+\.[0-9]*([eE][-+]?[0-9]+)?f$)");
  if (elem == "float" && std::regex_match(s, float_lit)) scalar_ok = true;
  const std::string sid = identifier_of(s);
  if (!sid.empty()) {
    for (const auto& v : m.vars)
      if (v.name == sid && (v.is_member ? v.klass == set->klass : v.function == set->function) &&
          (trim(v.type) == elem || trim(v.type) == "const " + elem))
        scalar_ok = true;
  }
  if (!scalar_ok) return r.why = "the scalar " + s + " is not known to have the element type " + elem, r;
  const char* name = op == "+" ? "Adds" : "Muls";
  r.replacement = std::string("AscendC::") + name + "(" + d + ", " + t + ", " + s + ", " + n + ");";
  (void)ind;
  return r;
}

std::vector<LoopMatch> scalar_loops(const KernelModel& m, std::string* why) {
  std::vector<LoopMatch> out;
  for (const auto& l : m.loops) {
    if (m.is_host(l.range.file) || !l.range.valid()) continue;
    bool has_set = false;
    for (const auto& c : m.calls)
      if (c.callee == "SetValue" && c.range.file == l.body.file && c.range.begin >= l.body.begin && c.range.end <= l.body.end)
        has_set = true;
    if (!has_set) continue;
    LoopMatch lm = match_loop(m, l);
    if (lm.why.empty()) out.push_back(lm);
    else if (why && why->empty()) *why = "loop at line " + std::to_string(l.range.line) + ": " + lm.why;
  }
  // Scalar accesses of the function outside the loops turned into instructions are ordered
  // against the loop by the scalar pipe alone; against a vector instruction they would need
  // syncs. Such loops stay (until no loop left has them).
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t k = 0; k < out.size(); ++k) {
      const Call* set = out[k].set;
      const Call* other = nullptr;
      for (const auto& c : m.calls) {
        if ((c.callee != "GetValue" && c.callee != "SetValue") || c.function != set->function || c.klass != set->klass ||
            c.range.file != set->range.file)
          continue;
        bool in_kept = false;
        for (const auto& o : out)
          in_kept = in_kept || (c.range.begin >= o.loop->body.begin && c.range.end <= o.loop->body.end);
        if (!in_kept) other = &c;
      }
      if (other) {
        if (why && why->empty())
          *why = "loop at line " + std::to_string(out[k].loop->range.line) + ": other scalar accesses in " + set->function +
                 " (line " + std::to_string(other->range.line) + ")";
        out.erase(out.begin() + static_cast<long>(k));
        changed = true;
        break;
      }
    }
  }
  return out;
}

class VectorLoop : public Motif {
public:
  std::string name() const override { return "vector_loop"; }
  std::string summary() const override {
    return "elementwise vector instruction <-> a scalar GetValue/SetValue loop";
  }
  Detection detect(const KernelModel& m) const override {
    Detection d;
    std::string why_loop, why_instr;
    auto loops = scalar_loops(m, &why_loop);
    auto ins = instructions(m, &why_instr);
    if (!ins.empty()) {
      d.state = State::Present;
      for (const auto& i : ins) d.ranges.push_back(i.call->range);
      d.reason = std::to_string(ins.size()) + " elementwise instruction(s) a scalar loop can compute exactly";
      return d;
    }
    if (!loops.empty()) {
      d.state = State::Applicable;
      for (const auto& l : loops) d.ranges.push_back(l.loop->range);
      d.reason = std::to_string(loops.size()) + " scalar GetValue/SetValue loop(s) one vector instruction computes";
      return d;
    }
    std::string why = !why_loop.empty() ? why_loop : why_instr;
    return not_applicable(why.empty() ? "no elementwise Add/Sub/Mul/Max/Min/Adds/Muls/Maxs/Mins/Abs/Relu and no scalar loop"
                                      : why);
  }
  Transform remove(const KernelModel& m) const override {
    auto ins = instructions(m, nullptr);
    if (ins.empty()) return refuse("no elementwise instruction on whole local tensors whose scalar loop is exact");
    Transform t;
    for (const auto& i : ins) {
      t.edits.push_back(replace(i.call->stmt, scalar_loop(m, i)));
      t.ranges.push_back(i.call->stmt);
    }
    return t;
  }
  Transform apply(const KernelModel& m) const override {
    std::string why;
    auto loops = scalar_loops(m, &why);
    if (loops.empty()) return refuse(why.empty() ? "no scalar GetValue/SetValue loop" : why);
    Transform t;
    for (const auto& l : loops) {
      t.edits.push_back(replace(l.loop->range, l.replacement));
      t.ranges.push_back(l.loop->range);
    }
    return t;
  }
};

const RegisterMotif<VectorLoop> kRegistered{160};

}  // namespace

}  // namespace aoc::rewrite
