// Native half compute: float16 data computed in float16 (bfloat16 still goes through float),
// against casting 16-bit inputs up to float, computing in float and casting the result back.
// Native compute saves the two Casts per tile and runs every vector instruction on 128
// lanes instead of 64; it costs precision, which the evaluation's tolerance judges.
//
// Two written forms are recognised:
// - a compute flag: the kernel's `constexpr bool F = !std::is_same_v<T, float>` (upcast) or
//   `= std::is_same_v<T, bfloat16_t>` (native), sized on the host by a bool of the same
//   meaning (`dtype != ge::DT_FLOAT` / `dtype == ge::DT_BF16`) that adds the float copies to
//   the tile's UB budget. Both sides change together: a kernel that starts casting while the
//   host still budgets no float copies would overflow UB. A kernel flag with no such host bool
//   may still turn native (the host keeps budgeting float copies the kernel no longer uses),
//   never back.
// - a compute type: a class template over the dtype whose float temporaries are
//   `LocalTensor<float>` and whose upcast branches test `std::is_same_v<T, float>`. Apply
//   adds `using ComputeT = std::conditional_t<std::is_same_v<T, bfloat16_t>, float, T>;`,
//   makes the temporaries ComputeT and the tests `std::is_same_v<T, ComputeT>` ("T is the
//   compute type"); remove reverses exactly that. The host keeps budgeting float copies
//   (a native kernel then uses less UB than it may, never more).
// Neither form is applicable when its compute would leave the precision gate in float16
// (half_numerics.h: reductions, cancellation after a rounding, exp or log of a computed
// argument, computed values cast to integers). Remove is always allowed: computing in float
// only gains precision.
#include <algorithm>
#include <regex>
#include <set>

#include "motifs/half_numerics.h"
#include "motifs/motif_util.h"

namespace aoc::rewrite {
namespace {

const char* kAlias = "ComputeT";

std::string squeeze(const std::string& s) {
  std::string out;
  for (char ch : s)
    if (!std::isspace(static_cast<unsigned char>(ch))) out += ch;
  if (out.rfind("AscendC::", 0) == 0) out = out.substr(9);
  return out;
}

// Every dtype the operator declares (OpDef DataType lists) is a floating type.
bool float_dtypes_only(const KernelModel& m, std::string* why) {
  static const std::set<std::string> ok = {"ge::DT_FLOAT16", "ge::DT_BF16", "ge::DT_FLOAT", "DT_FLOAT16", "DT_BF16", "DT_FLOAT"};
  static const std::regex dt(R"((ge::)?DT_[A-Z0-9_]+)");
  for (const auto& c : m.calls) {
    if (c.callee != "DataType" || !m.is_host(c.range.file)) continue;
    const std::string text = m.text(c.range);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), dt); it != std::sregex_iterator(); ++it)
      if (!ok.count(it->str())) {
        *why = "the operator also takes " + it->str() + " (native compute is for floating dtypes only)";
        return false;
      }
  }
  return true;
}

// A host bool sizing the float copies in UB: `dtype != ge::DT_FLOAT` (every 16-bit dtype
// computes in float), `dtype == ge::DT_BF16` (only bfloat16 does), or `size != FLOAT_SIZE`
// (or `sizeof(float)`) where `size = ge::GetSizeByDataType(dtype)`, which for floating dtypes
// means the first. Sets whether it is the native form and the variable holding the dtype.
bool host_compute_flag(const KernelModel& m, const Var& v, bool* native, std::string* dtype) {
  if (!m.is_host(v.decl.file) || squeeze(v.type) != "bool") return false;
  static const std::regex h_up(R"((.+)!=ge::DT_FLOAT)"), h_native(R"((.+)==ge::DT_BF16)");
  static const std::regex h_size(R"((\w+)!=(FLOAT_SIZE|sizeof\(float\)))"), of_dtype(R"(GetSizeByDataType\((.+)\))");
  const std::string init = squeeze(v.init);
  std::smatch g;
  if (std::regex_match(init, g, h_up) || std::regex_match(init, g, h_native)) {
    *native = init.find("==") != std::string::npos;
    *dtype = g[1];
    return true;
  }
  if (!std::regex_match(init, g, h_size)) return false;
  const Var* size = nullptr;  // the size variable of the same function
  for (const auto& u : m.vars)
    if (u.name == g[1].str() && u.function == v.function && m.is_host(u.decl.file)) size = &u;
  std::smatch d;
  const std::string size_init = size ? squeeze(size->init) : "";
  if (!std::regex_search(size_init, d, of_dtype)) return false;
  *native = false;
  *dtype = d[1];
  return true;
}

// ---------------------------------------------------------------------------------------- flag form

struct Flag {
  const Var* kernel = nullptr;
  const Var* host = nullptr;
  bool native = false;
  std::string dtype_param;  // the kernel's template parameter named in the flag
  std::string host_dtype;   // the host variable holding the data type
};

std::optional<Flag> find_flag(const KernelModel& m, std::string* why) {
  static const std::regex k_up(R"(!std::is_same_v<(\w+),float>)"), k_native(R"(std::is_same_v<(\w+),bfloat16_t>)");
  Flag f;
  std::smatch g;
  for (const auto& v : m.vars) {
    if (!v.is_constexpr || squeeze(v.type).find("bool") == std::string::npos || m.is_host(v.decl.file)) continue;
    const std::string init = squeeze(v.init);
    bool native;
    if (std::regex_match(init, g, k_up)) native = false;
    else if (std::regex_match(init, g, k_native)) native = true;
    else continue;
    if (f.kernel) {
      *why = "two compute flags (" + f.kernel->name + ", " + v.name + ")";
      return std::nullopt;
    }
    f.kernel = &v;
    f.native = native;
    f.dtype_param = g[1];
  }
  if (!f.kernel) return std::nullopt;
  for (const auto& v : m.vars) {
    bool native;
    std::string dtype;
    if (!host_compute_flag(m, v, &native, &dtype)) continue;
    if (f.host) {
      *why = "two host flags sizing float copies (" + f.host->name + ", " + v.name + ")";
      return std::nullopt;
    }
    if (native != f.native) {
      *why = "the kernel's " + f.kernel->name + " and the host's " + v.name + " disagree on which dtypes compute in float";
      return std::nullopt;
    }
    f.host = &v;
    f.host_dtype = dtype;
  }
  // Without a host counterpart the flag still turns native: the kernel then uses less UB than
  // the host budgets. Back to float it would need the host's float copies (remove refuses).
  if (!f.kernel->editable || !f.kernel->init_range.valid() || (f.host && (!f.host->editable || !f.host->init_range.valid()))) {
    *why = "the compute flag is not written in an editable place";
    return std::nullopt;
  }
  return f;
}

Transform set_flag(const Flag& f, bool native) {
  Transform t;
  t.edits.push_back(replace(f.kernel->init_range, native ? "std::is_same_v<" + f.dtype_param + ", bfloat16_t>"
                                                         : "!std::is_same_v<" + f.dtype_param + ", float>"));
  t.ranges = {f.kernel->decl};
  if (f.host) {
    t.edits.push_back(replace(f.host->init_range, f.host_dtype + (native ? " == ge::DT_BF16" : " != ge::DT_FLOAT")));
    t.ranges.push_back(f.host->decl);
  }
  return t;
}

// ---------------------------------------------------------------------------------------- compute-type form

// The text spans of a class's member definitions (signature and body).
std::vector<const Function*> class_functions(const KernelModel& m, const std::string& klass) {
  std::vector<const Function*> out;
  for (const auto& f : m.functions)
    if (f.klass == klass && !m.is_host(f.decl.file) && f.decl.valid()) out.push_back(&f);
  std::sort(out.begin(), out.end(), [](const Function* a, const Function* b) {
    return a->decl.file != b->decl.file ? a->decl.file < b->decl.file : a->decl.begin < b->decl.begin;
  });
  return out;
}

// Matches of `re` inside the class's definitions, as ranges of the match (group 0).
std::vector<std::pair<Range, std::smatch>> matches_in(const KernelModel& m, const std::vector<const Function*>& fns,
                                                       const std::regex& re) {
  std::vector<std::pair<Range, std::smatch>> out;
  for (const Function* f : fns) {
    const auto it = m.files.find(f->decl.file);
    if (it == m.files.end()) continue;
    const std::string& s = it->second;
    auto b = s.begin() + f->decl.begin, e = s.begin() + f->decl.end;
    for (std::sregex_iterator i(b, e, re); i != std::sregex_iterator(); ++i) {
      Range r{f->decl.file, static_cast<uint32_t>(f->decl.begin + i->position()),
              static_cast<uint32_t>(f->decl.begin + i->position() + i->length()), 0};
      out.emplace_back(r, *i);
    }
  }
  return out;
}

const std::regex& upcast_test() {
  static const std::regex r(R"(std::is_same_v<\s*(\w+)\s*,\s*float\s*>)");
  return r;
}
const std::regex& float_type_uses() {
  static const std::regex r(R"(\b(LocalTensor|Get|AllocTensor|DeQue|EnQue|ReinterpretCast)<\s*float\s*>|\bsizeof\(\s*float\s*\))");
  return r;
}
const std::regex& alias_line() {
  static const std::regex r(R"([ \t]*using\s+ComputeT\s*=\s*std::conditional_t<\s*std::is_same_v<\s*(\w+)\s*,\s*bfloat16_t\s*>\s*,\s*float\s*,\s*\w+\s*>\s*;[^\n]*\n)");
  return r;
}

// Offset just past the `{` opening the class, in the file of its first definition.
std::optional<size_t> class_open(const KernelModel& m, const std::string& klass, const std::vector<const Function*>& fns) {
  if (fns.empty()) return std::nullopt;
  const auto it = m.files.find(fns.front()->decl.file);
  if (it == m.files.end()) return std::nullopt;
  const std::string& s = it->second;
  const std::regex head("\\b(class|struct)\\s+" + klass + "\\b[^;{]*\\{");
  std::optional<size_t> open;
  for (std::sregex_iterator i(s.begin(), s.begin() + fns.front()->decl.begin, head); i != std::sregex_iterator(); ++i)
    open = static_cast<size_t>(i->position() + i->length());
  return open;
}

// The alias line of a class: between its opening brace and its first definition.
std::optional<std::pair<Range, std::string>> find_alias(const KernelModel& m, const std::string& klass,
                                                        const std::vector<const Function*>& fns) {
  const auto open = class_open(m, klass, fns);
  if (!open) return std::nullopt;
  const std::string& s = m.files.at(fns.front()->decl.file);
  std::smatch g;
  if (!std::regex_search(s.begin() + *open, s.begin() + fns.front()->decl.begin, g, alias_line())) return std::nullopt;
  Range r{fns.front()->decl.file, static_cast<uint32_t>(*open + g.position()),
          static_cast<uint32_t>(*open + g.position() + g.length()), 0};
  return std::make_pair(r, g[1].str());
}

struct TypeForm {
  std::string klass;
  std::vector<const Function*> fns;
  std::string param;
  bool native = false;
  std::optional<std::pair<Range, std::string>> alias;
};

// The conditions deciding whether block `b` runs: the head of its `if`, and for an `else` or
// `else if` branch the conditions of the branches before it in the chain.
std::string block_condition(const KernelModel& m, const Block& b) {
  const std::string& s = m.files.at(b.range.file);
  if (b.range.begin == 0) return "";
  const size_t p = s.find_last_of(";{}", b.range.begin - 1);
  const size_t from = p == std::string::npos ? 0 : p + 1;
  const std::string head = s.substr(from, b.range.begin - from);
  if (p != std::string::npos && s[p] == '}' && trim(head).rfind("else", 0) == 0)
    for (const auto& before : m.blocks)
      if (before.range.file == b.range.file && before.range.end == p + 1) return block_condition(m, before) + " " + head;
  return head;
}

// Whether `r` lies in a branch of an `if` testing a type against float.
bool under_upcast_test(const KernelModel& m, const Range& r) {
  for (const auto& b : m.blocks)
    if (b.range.file == r.file && b.range.begin <= r.begin && r.end <= b.range.end &&
        std::regex_search(block_condition(m, b), upcast_test()))
      return true;
  return false;
}

// A buffer set up only in the float branches (InitBuffer under `std::is_same_v<T, float>`)
// but fetched outside them: once float16 computes natively it takes the other branch and
// fetches a buffer never initialised. The first such buffer, described, or "".
std::string float_only_buffer(const KernelModel& m, const std::string& klass) {
  for (const auto& v : m.vars) {
    if (!v.is_member || v.klass != klass || (v.type_template != "TBuf" && v.type_template != "TQue")) continue;
    std::vector<const Call*> inits, uses;
    for (const auto& c : m.calls) {
      if (c.klass != klass) continue;
      if (c.callee == "InitBuffer" && !c.args.empty() && identifier_of(c.args[0].text) == v.name) inits.push_back(&c);
      else if (identifier_of(c.object) == v.name && (c.callee == "Get" || c.callee == "AllocTensor")) uses.push_back(&c);
    }
    if (inits.empty() || !std::all_of(inits.begin(), inits.end(), [&](const Call* c) { return under_upcast_test(m, c->range); }))
      continue;
    for (const Call* u : uses)
      if (!under_upcast_test(m, u->range))
        return v.name + " is set up only for dtypes computed in float (line " + std::to_string(inits.front()->range.line) +
               ") but fetched for all at line " + std::to_string(u->range.line);
  }
  return "";
}

std::optional<TypeForm> find_type_form(const KernelModel& m, std::string* why) {
  std::set<std::string> classes;
  for (const auto& f : m.functions)
    if (!f.klass.empty() && !m.is_host(f.decl.file)) classes.insert(f.klass);
  for (const auto& k : classes) {
    TypeForm t;
    t.klass = k;
    t.fns = class_functions(m, k);
    t.alias = find_alias(m, k, t.fns);
    if (t.alias) {
      t.native = true;
      t.param = t.alias->second;
      return t;
    }
    auto tests = matches_in(m, t.fns, upcast_test());
    if (tests.empty()) continue;
    t.param = tests.front().second[1];
    std::vector<const Call*> own;
    for (const auto& c : m.calls)
      if (c.klass == k) own.push_back(&c);
    if (const std::string h = half_precision_hazard(m, own); !h.empty()) {
      *why = "computed natively in float16, " + h;
      return std::nullopt;
    }
    // Bit-level code (float bits read as integers) is tied to float's layout: in ComputeT it
    // would read float16 bits as if they were float's.
    static const std::regex int_view(R"(ReinterpretCast<\s*u?int(8|16|32|64)_t\s*>)");
    for (const Function* f : t.fns)
      if (std::regex_search(m.text(f->decl), int_view)) {
        *why = "class " + k + " reads float bits as integers in " + f->name + " (float's layout)";
        return std::nullopt;
      }
    const std::regex out_of_line("\\b" + k + "\\s*(<[^<>]*>)?\\s*::");
    for (const Function* f : t.fns) {
      if (!f->editable) {
        *why = "a member of " + k + " is not in an editable place";
        return std::nullopt;
      }
      // Only definitions are rewritten: an out-of-line one whose signature names float would
      // no longer match the declaration left in the class.
      const std::string head = m.text(Range{f->decl.file, f->decl.begin, f->body.begin, 0});
      if (std::regex_search(head, out_of_line) && std::regex_search(head, float_type_uses())) {
        *why = "class " + k + " defines " + f->name + " outside its body with float in its signature: its in-class "
               "declaration would keep float";
        return std::nullopt;
      }
    }
    // A function outside the class that the class calls with its float temporaries keeps its
    // float signature: a ComputeT tensor of a float16 kernel would not convert to it.
    for (const auto& c : m.calls) {
      if (c.klass != k || m.is_host(c.range.file)) continue;
      for (const auto& h : m.functions) {
        if (h.name != c.callee || h.klass == k || m.is_host(h.decl.file) || !h.decl.valid()) continue;
        const std::string head = m.text(Range{h.decl.file, h.decl.begin, h.body.begin, 0});
        if (std::regex_search(head, float_type_uses())) {
          *why = "helper " + (h.klass.empty() ? "" : h.klass + "::") + h.name + " takes float tensors (called from " +
                 k + " at line " + std::to_string(c.range.line) + ")";
          return std::nullopt;
        }
      }
    }
    if (const std::string b = float_only_buffer(m, k); !b.empty()) {
      *why = "class " + k + ": " + b + "; computed natively, float16 would use it uninitialised";
      return std::nullopt;
    }
    if (!class_open(m, k, t.fns)) {
      *why = "the definition of class " + k + " was not found before its members";
      return std::nullopt;
    }
    return t;
  }
  return std::nullopt;
}

// The host's bool sizing the float copies in UB (`dtype != ge::DT_FLOAT` or `dtype ==
// ge::DT_BF16`), when there is exactly one and it is editable; the class form keeps it in step.
struct HostFlag {
  const Var* var = nullptr;
  bool native = false;
  std::string dtype;
};
std::optional<HostFlag> host_flag(const KernelModel& m) {
  std::optional<HostFlag> out;
  for (const auto& v : m.vars) {
    bool native;
    std::string dtype;
    if (!host_compute_flag(m, v, &native, &dtype)) continue;
    if (out || !v.editable || !v.init_range.valid()) return std::nullopt;
    out = HostFlag{&v, native, dtype};
  }
  return out;
}

// Where the ComputeT alias goes: just after the class's opening brace, or after the
// class's own alias of the dtype parameter (`using T = TYPE_X;`) when it declares one, so
// the alias names it after its declaration.
size_t alias_place(const KernelModel& m, const TypeForm& f) {
  const size_t open = *class_open(m, f.klass, f.fns);
  const std::string& s = m.files.at(f.fns.front()->decl.file);
  const std::regex own(R"(\busing\s+)" + f.param + R"(\s*=[^;]*;|\btypedef\b[^;]*\b)" + f.param + R"(\s*;)");
  std::smatch g;
  if (!std::regex_search(s.begin() + open, s.begin() + f.fns.front()->decl.begin, g, own)) return open;
  return open + g.position() + g.length();
}

Transform to_native(const KernelModel& m, const TypeForm& f) {
  Transform t;
  for (const auto& [r, g] : matches_in(m, f.fns, upcast_test()))
    t.edits.push_back(replace(r, "std::is_same_v<" + g[1].str() + ", " + kAlias + ">"));
  for (const auto& [r, g] : matches_in(m, f.fns, float_type_uses())) {
    const std::string what = g[1].matched ? g[1].str() + "<" + kAlias + ">" : std::string("sizeof(") + kAlias + ")";
    t.edits.push_back(replace(r, what));
  }
  const std::string alias = std::string("using ") + kAlias + " = std::conditional_t<std::is_same_v<" + f.param +
                            ", bfloat16_t>, float, " + f.param + ">;  // float16 computes natively";
  const Range first = f.fns.front()->decl;
  const size_t at = alias_place(m, f);
  t.edits.push_back(Edit{first.file, static_cast<uint32_t>(at), static_cast<uint32_t>(at), "\n" + indent_at(m, first) + alias});
  t.ranges.push_back(first);
  // The host then budgets float copies for bfloat16 alone.
  if (auto h = host_flag(m); h && !h->native) {
    t.edits.push_back(replace(h->var->init_range, h->dtype + " == ge::DT_BF16"));
    t.ranges.push_back(h->var->decl);
  }
  return t;
}

Transform to_upcast(const KernelModel& m, const TypeForm& f) {
  Transform t;
  static const std::regex native_test(R"(std::is_same_v<\s*(\w+)\s*,\s*ComputeT\s*>)");
  static const std::regex type_uses(R"(\b(LocalTensor|Get|AllocTensor|DeQue|EnQue|ReinterpretCast)<\s*ComputeT\s*>|\bsizeof\(\s*ComputeT\s*\))");
  for (const auto& [r, g] : matches_in(m, f.fns, native_test))
    t.edits.push_back(replace(r, "std::is_same_v<" + g[1].str() + ", float>"));
  for (const auto& [r, g] : matches_in(m, f.fns, type_uses))
    t.edits.push_back(replace(r, g[1].matched ? g[1].str() + "<float>" : std::string("sizeof(float)")));
  t.edits.push_back(replace(f.alias->first, ""));
  t.ranges.push_back(f.alias->first);
  // The host then budgets float copies for float16 too (else the float temporaries of a
  // float16 tile overflow UB).
  if (auto h = host_flag(m); h && h->native) {
    t.edits.push_back(replace(h->var->init_range, h->dtype + " != ge::DT_FLOAT"));
    t.ranges.push_back(h->var->decl);
  }
  return t;
}

std::vector<const Call*> kernel_calls(const KernelModel& m) {
  std::vector<const Call*> out;
  for (const auto& c : m.calls)
    if (!m.is_host(c.range.file)) out.push_back(&c);
  return out;
}

class NativeHalf : public Motif {
public:
  std::string name() const override { return "native_half"; }
  std::string summary() const override {
    return "float16 computed natively (bfloat16 still in float) <-> cast up to float around the computation";
  }
  Detection detect(const KernelModel& m) const override {
    std::string why;
    if (!float_dtypes_only(m, &why)) return not_applicable(why);
    if (auto f = find_flag(m, &why)) {
      if (!f->native)
        if (const std::string h = half_precision_hazard(m, kernel_calls(m)); !h.empty())
          return not_applicable("computed natively in float16, " + h);
      Detection d;
      d.state = f->native ? State::Present : State::Applicable;
      d.ranges = {f->kernel->decl};
      if (f->host) d.ranges.push_back(f->host->decl);
      const std::string host = f->host ? "host: " + f->host->name : "no host flag sizing float copies";
      d.reason = f->native ? f->kernel->name + " computes only bfloat16 in float (" + host + ")"
                           : f->kernel->name + " computes float16 in float too (" + host + ")";
      return d;
    }
    if (!why.empty()) return not_applicable(why);
    if (auto f = find_type_form(m, &why)) {
      Detection d;
      d.state = f->native ? State::Present : State::Applicable;
      d.ranges.push_back(f->fns.front()->decl);
      d.reason = f->native ? "class " + f->klass + " computes in " + kAlias + " (float only for bfloat16)"
                           : "class " + f->klass + " casts 16-bit data to float (std::is_same_v<" + f->param + ", float> branches)";
      return d;
    }
    return not_applicable(why.empty() ? "no float compute path for 16-bit data (no compute flag, no std::is_same_v<T, float> branches)"
                                      : why);
  }
  Transform apply(const KernelModel& m) const override { return change(m, true); }
  Transform remove(const KernelModel& m) const override { return change(m, false); }

private:
  Transform change(const KernelModel& m, bool native) const {
    const Detection d = detect(m);
    if (d.state == State::NotApplicable) return refuse(d.reason);
    if (native && d.state == State::Present) return refuse("float16 is already computed natively");
    if (!native && d.state == State::Applicable) return refuse("float16 is already computed in float");
    std::string why;
    if (auto f = find_flag(m, &why)) {
      if (!native && !f->host)
        return refuse("the host has no flag sizing float copies in UB (a bool `dtype != ge::DT_FLOAT`, `dtype == ge::DT_BF16` "
                      "or `typeSize != FLOAT_SIZE`): computed in float, float16 tiles could overflow UB");
      return set_flag(*f, native);
    }
    auto f = find_type_form(m, &why);
    return native ? to_native(m, *f) : to_upcast(m, *f);
  }
};

const RegisterMotif<NativeHalf> kRegistered{120};

}  // namespace

}  // namespace aoc::rewrite
