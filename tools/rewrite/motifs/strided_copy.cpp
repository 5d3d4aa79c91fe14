// Strided copies: one DataCopyPad (DataCopyExtParams) or DataCopy (DataCopyParams) moves
// blockCount rows of blockLen with a gap after each, where a loop of one copy per row issues
// blockCount instructions, each paying the copy's fixed start-up cost. Remove: the strided
// copy becomes a loop of single-row copies at the offsets its parameters imply (GM -> UB:
// GM rows blockLen + srcStride bytes apart, UB rows padded to 32 B plus dstStride blocks;
// UB -> GM mirrored; DataCopy counts everything in 32 B blocks). Apply: a loop whose only
// statement copies row v of a single-row copy from S[E + v * B] to D[v * A] (or the mirror)
// becomes one copy of all rows, with the strides computed from A and B.
#include <optional>
#include <regex>

#include "motifs/motif_util.h"

namespace aoc::rewrite {
namespace {

// Top-level comma-separated parts of `{a, b, c}` or `(a, b, c)` (clang spells a braced
// initializer with the variable's name in front: `p{a, b, c}`); empty when not such a list.
std::vector<std::string> list_items(const std::string& text) {
  std::string t = trim(text);
  const size_t open = t.find_first_of("{(");
  if (open != std::string::npos && open > 0 && !identifier_of(t.substr(0, open)).empty()) t = trim(t.substr(open));
  if (t.size() < 2 || !((t.front() == '{' && t.back() == '}') || (t.front() == '(' && t.back() == ')'))) return {};
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (size_t i = 1; i + 1 < t.size(); ++i) {
    const char ch = t[i];
    if (ch == '(' || ch == '{' || ch == '[') ++depth;  // not <>: `a->b` and `a < b` would unbalance them
    if (ch == ')' || ch == '}' || ch == ']') --depth;
    if (ch == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  out.push_back(trim(cur));
  return out;
}

// Element type of the tensor an argument names (`x`, `x[off]`, `this->x[off]`): T of its
// LocalTensor<T> / GlobalTensor<T> declaration, with whether it is a GlobalTensor.
struct TensorOf {
  std::string elem;
  bool global = false;
};
std::optional<TensorOf> tensor_of(const KernelModel& m, const Call& c, const std::string& arg) {
  const std::string id = identifier_of(arg.substr(0, arg.find('[')));
  const Var* v = id.empty() ? nullptr : m.find_var(id, c.klass, false);
  if (!v || (v->type_template != "LocalTensor" && v->type_template != "GlobalTensor")) return std::nullopt;
  const size_t open = v->type.find('<'), close = v->type.rfind('>');
  if (open == std::string::npos || close == std::string::npos || close <= open) return std::nullopt;
  return TensorOf{trim(v->type.substr(open + 1, close - open - 1)), v->type_template == "GlobalTensor"};
}

// `x[i]` stays a postfix expression when indexed again; anything else is parenthesised.
std::string indexable(const std::string& arg) {
  static const std::regex postfix(R"(^(this->)?[A-Za-z_]\w*(\[[^;]*\])?$)");
  return std::regex_match(arg, postfix) ? arg : "(" + arg + ")";
}

struct Strided {
  const Call* copy = nullptr;
  const Var* params = nullptr;
  bool pad = false;       // DataCopyPad with DataCopyExtParams, else DataCopy with DataCopyParams
  bool to_gm = false;     // UB -> GM
  std::string elem;       // element type
};

std::vector<Strided> strided(const KernelModel& m) {
  std::vector<Strided> out;
  for (const auto& c : m.calls) {
    const bool pad = is_api(c, "DataCopyPad");
    if (!(pad || is_api(c, "DataCopy")) || c.args.size() < 3 || !c.stmt.valid() || !c.editable) continue;
    const std::string p = identifier_of(c.args[2].text);
    const Var* v = p.empty() ? nullptr : m.find_var(p, c.klass, false);
    if (!v || v->type.find(pad ? "DataCopyExtParams" : "DataCopyParams") == std::string::npos) continue;
    if (v->function != c.function || v->klass != c.klass) continue;  // a local set up for this copy
    auto items = list_items(v->init);
    if (items.size() < 2 || int_value(items[0]) == 1LL) continue;  // one row: nothing strided
    auto dst = tensor_of(m, c, trim(c.args[0].text));
    auto src = tensor_of(m, c, trim(c.args[1].text));
    if (!dst || !src || dst->global == src->global) continue;
    out.push_back({&c, v, pad, dst->global, dst->elem});
  }
  return out;
}

std::string per_row_loop(const KernelModel& m, const Strided& s) {
  const Call& c = *s.copy;
  const std::string p = s.params->name, ind = indent_at(m, c.stmt), in = ind + "    ";
  const std::string sz = "sizeof(" + s.elem + ")";
  // Bytes from one row to the next on the UB side and the GM side.
  std::string ub_gap = s.to_gm ? p + ".srcStride" : p + ".dstStride";
  std::string gm_gap = s.to_gm ? p + ".dstStride" : p + ".srcStride";
  std::string ub_pitch, gm_pitch;
  if (s.pad) {
    ub_pitch = "((" + p + ".blockLen + 31) / 32 * 32 + " + ub_gap + " * 32)";
    gm_pitch = "(" + p + ".blockLen + " + gm_gap + ")";
  } else {
    ub_pitch = "((" + p + ".blockLen + " + ub_gap + ") * 32)";
    gm_pitch = "((" + p + ".blockLen + " + gm_gap + ") * 32)";
  }
  const std::string ub_off = "aocRow * " + ub_pitch + " / " + sz;
  const std::string gm_off = "static_cast<uint64_t>(aocRow) * " + gm_pitch + " / " + sz;
  const std::string dst = indexable(trim(c.args[0].text)) + "[" + (s.to_gm ? gm_off : ub_off) + "]";
  const std::string src = indexable(trim(c.args[1].text)) + "[" + (s.to_gm ? ub_off : gm_off) + "]";
  std::string rest;
  for (size_t i = 3; i < c.args.size(); ++i) rest += ", " + trim(c.args[i].text);
  const std::string row_params = s.pad ? "AscendC::DataCopyExtParams aocRowParams{1, " + p + ".blockLen, 0, 0, 0};"
                                       : "AscendC::DataCopyParams aocRowParams{1, " + p + ".blockLen, 0, 0};";
  return "for (uint32_t aocRow = 0; aocRow < " + p + ".blockCount; ++aocRow) {\n" + in + row_params + "\n" + in +
         "AscendC::" + c.callee + "(" + dst + ", " + src + ", aocRowParams" + rest + ");\n" + ind + "}";
}

class StridedCopy : public Motif {
public:
  std::string name() const override { return "strided_copy"; }
  std::string summary() const override {
    return "one DataCopy(Pad) of blockCount rows with strides <-> a loop of one copy per row";
  }
  Detection detect(const KernelModel& m) const override {
    Detection d;
    if (auto ss = strided(m); !ss.empty()) {
      d.state = State::Present;
      for (const auto& s : ss) d.ranges.push_back(s.copy->range);
      d.reason = std::to_string(ss.size()) + " multi-row copy(ies) with a local parameter struct";
      return d;
    }
    return not_applicable("no DataCopy/DataCopyPad whose local DataCopyParams/DataCopyExtParams has more than one row");
  }
  Transform remove(const KernelModel& m) const override {
    auto ss = strided(m);
    if (ss.empty()) return refuse("no multi-row DataCopy/DataCopyPad between a GlobalTensor and a LocalTensor");
    Transform t;
    for (const auto& s : ss) {
      t.edits.push_back(replace(s.copy->stmt, per_row_loop(m, s)));
      t.ranges.push_back(s.copy->stmt);
    }
    return t;
  }
  Transform apply(const KernelModel& m) const override {
    (void)m;
    return refuse("a per-row copy loop is not recognised yet");
  }
};

}  // namespace

std::unique_ptr<Motif> make_strided_copy() { return std::make_unique<StridedCopy>(); }

}  // namespace aoc::rewrite
