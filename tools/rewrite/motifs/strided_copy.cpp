// Strided copies: one DataCopyPad (DataCopyExtParams) or DataCopy (DataCopyParams) moves
// blockCount rows of blockLen with a gap after each, where a loop of one copy per row issues
// blockCount instructions, each paying the copy's fixed start-up cost. Remove: the strided
// copy becomes a loop of single-row copies at the offsets its parameters imply (GM -> UB:
// GM rows blockLen + srcStride bytes apart, UB rows padded to 32 B plus dstStride blocks;
// UB -> GM mirrored; DataCopy counts everything in 32 B blocks). Apply: a loop whose only
// statement copies row v of a single-row copy from S[E + v * B] to D[v * A] (or the mirror)
// becomes one copy of all rows, with the strides computed from A and B, under a test that
// the row and pitches fit the struct's units (else the loop runs as before).
#include <algorithm>
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
  const Var* v = m.var_seen_by(c, id);
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

// The local `name` of the function holding `c` declared last before it (several functions
// may name their parameter structs alike).
const Var* local_before(const KernelModel& m, const Call& c, const std::string& name) {
  const Var* out = nullptr;
  if (name.empty()) return out;
  for (const auto& v : m.vars)
    if (v.name == name && !v.is_member && v.function == c.function && v.klass == c.klass && v.decl.file == c.range.file &&
        v.decl.begin < c.range.begin && (!out || v.decl.begin > out->decl.begin))
      out = &v;
  return out;
}

std::vector<Strided> strided(const KernelModel& m) {
  std::vector<Strided> out;
  for (const auto& c : m.calls) {
    const bool pad = is_api(c, "DataCopyPad");
    if (!(pad || is_api(c, "DataCopy")) || c.args.size() < 3 || !c.stmt.valid() || !c.editable) continue;
    const Var* v = local_before(m, c, identifier_of(c.args[2].text));
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


// ---- apply: a loop of single-row copies ----

// Parentheses around the whole of `e` go.
std::string unparen(std::string e) {
  e = trim(e);
  while (e.size() >= 2 && e.front() == '(' && e.back() == ')') {
    int depth = 0;
    bool outer = true;
    for (size_t i = 0; i + 1 < e.size(); ++i) {
      depth += e[i] == '(' ? 1 : e[i] == ')' ? -1 : 0;
      if (depth == 0) outer = false;
    }
    if (!outer) break;
    e = trim(e.substr(1, e.size() - 2));
  }
  return e;
}

// Top-level pieces of `e` split at `sep` (+ or *); a '-' at top level makes it unsplittable.
// The `<...>` of a static_cast is skipped whole.
std::vector<std::string> split_top(const std::string& e, char sep, bool& ok) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (size_t i = 0; i < e.size(); ++i) {
    if (e.compare(i, 12, "static_cast<") == 0) {
      const size_t close = e.find('>', i + 12);
      if (close == std::string::npos) {
        ok = false;
        return out;
      }
      cur += e.substr(i, close + 1 - i);
      i = close;
      continue;
    }
    const char ch = e[i];
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    if (ch == ')' || ch == ']' || ch == '}') --depth;
    if (depth == 0 && ch == '-' && !(i + 1 < e.size() && e[i + 1] == '>')) ok = false;
    if (depth == 0 && ch == sep) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  out.push_back(trim(cur));
  return out;
}

// `v`, `(v)` or `static_cast<X>(v)`.
bool is_index(const std::string& f, const std::string& v) {
  static const std::regex cast(R"(^static_cast<\s*[\w:]+\s*>\s*\(\s*(\w+)\s*\)$)");
  const std::string u = unparen(f);
  std::smatch mm;
  return u == v || (std::regex_match(u, mm, cast) && mm[1].str() == v);
}

// An offset linear in v: `E + v * A` (terms in any order, A the product of the factors of
// v's term). `E` is "" when there is no constant term; false when not of that form.
bool linear_in(const std::string& expr, const std::string& v, std::string& E, std::string& A) {
  bool ok = true;
  auto terms = split_top(unparen(expr), '+', ok);
  if (!ok) return false;
  E.clear();
  A.clear();
  int with_v = 0;
  for (const auto& t : terms) {
    if (!names_word(t, v)) {
      E += (E.empty() ? "" : " + ") + t;
      continue;
    }
    ++with_v;
    auto factors = split_top(unparen(t), '*', ok);
    if (!ok) return false;
    // `v * X / Y` is (v * X) / Y: not linear in v.
    for (const auto& f : factors) {
      int depth = 0;
      for (size_t i = 0; i < f.size(); ++i) {
        if (f.compare(i, 12, "static_cast<") == 0) {
          i = f.find('>', i);
          if (i == std::string::npos) return false;
          continue;
        }
        depth += (f[i] == '(' || f[i] == '[') ? 1 : (f[i] == ')' || f[i] == ']') ? -1 : 0;
        if (depth == 0 && (f[i] == '/' || f[i] == '%' || f[i] == '?' || f[i] == '<' || f[i] == '>' || f[i] == '&' ||
                           f[i] == '|'))
          return false;
      }
    }
    int idx = 0;
    for (const auto& f : factors) {
      if (is_index(f, v)) ++idx;
      else if (names_word(f, v)) return false;
      else A += (A.empty() ? "" : " * ") + f;
    }
    if (idx != 1) return false;
    if (A.empty()) A = "1";
  }
  return with_v == 1;
}

struct RowLoop {
  const Loop* loop = nullptr;
  std::string replacement;
};

std::vector<RowLoop> row_loops(const KernelModel& m, std::string* why) {
  static const std::regex head(
      R"(^for\s*\(\s*(?:unsigned|int|uint32_t|int32_t|uint64_t|int64_t|size_t|uint16_t|auto)\s+(\w+)\s*=\s*0[uU]?\s*;\s*(\w+)\s*<\s*([^;]+?)\s*;\s*(?:\+\+\s*(\w+)|(\w+)\s*\+\+|(\w+)\s*\+=\s*1)\s*\))");
  std::vector<RowLoop> out;
  auto fail = [&](const Loop& l, const std::string& w) {
    if (why && why->empty()) *why = "loop at line " + std::to_string(l.range.line) + ": " + w;
  };
  for (const auto& l : m.loops) {
    if (m.is_host(l.range.file) || !l.range.valid() || !l.body.valid()) continue;
    std::vector<const Call*> inside;
    for (const auto& c : m.calls)
      if (c.range.file == l.body.file && c.range.begin >= l.body.begin && c.range.end <= l.body.end) inside.push_back(&c);
    const Call* copy = nullptr;
    int copies = 0;
    for (const Call* c : inside)
      if (is_api(*c, "DataCopy") || is_api(*c, "DataCopyPad")) copy = c, ++copies;
    if (copies == 0) continue;
    if (copies != 1 || inside.size() != 1) { fail(l, "more than one call in the loop"); continue; }
    if (!copy->stmt.valid() || !copy->editable || copy->args.size() < 3) { fail(l, "the copy is not an editable statement"); continue; }
    std::smatch mm;
    const std::string text = m.text(l.range);
    if (!std::regex_search(text, mm, head)) { fail(l, "not a counted loop from 0"); continue; }
    const std::string v = mm[1].str(), R = trim(mm[3].str());
    const std::string inc = mm[4].matched ? mm[4].str() : mm[5].matched ? mm[5].str() : mm[6].str();
    if (mm[2].str() != v || inc != v) { fail(l, "not a counted loop"); continue; }
    const bool pad = copy->callee == "DataCopyPad";
    auto dst = tensor_of(m, *copy, trim(copy->args[0].text));
    auto src = tensor_of(m, *copy, trim(copy->args[1].text));
    if (!dst || !src || dst->global == src->global || dst->elem != src->elem) { fail(l, "not a copy between GM and UB of one type"); continue; }
    const bool to_gm = dst->global;
    // The body: the copy, optionally after the declaration of its single-row parameters.
    std::string body = trim(m.text(l.body));
    if (body.size() >= 2 && body.front() == '{' && body.back() == '}') body = trim(body.substr(1, body.size() - 2));
    const std::string row = trim(copy->args[2].text);
    std::string L;  // row length: bytes (DataCopyPad), 32 B blocks (DataCopy with params) or elements (count form)
    bool count_form = false;
    const Var* pv = local_before(m, *copy, identifier_of(row));
    if (!pv && !identifier_of(row).empty()) pv = m.find_var(identifier_of(row), copy->klass, false);
    std::string rest = body;
    if (pv && pv->type.find(pad ? "DataCopyExtParams" : "DataCopyParams") != std::string::npos) {
      auto items = list_items(pv->init);
      bool single = items.size() >= 4 && int_value(items[0]) == 1LL && int_value(items[2]) == 0LL && int_value(items[3]) == 0LL;
      if (!single || names_word(items[1], v)) { fail(l, "its parameters are not one row of a fixed length"); continue; }
      L = items[1];
      if (pv->decl.begin >= l.body.begin && pv->decl.end <= l.body.end) {
        const std::string decl = trim(m.text(pv->decl));
        if (rest.rfind(decl, 0) != 0) { fail(l, "the loop holds more than the copy"); continue; }
        rest = trim(rest.substr(decl.size()));
      }
    } else if (!pad && copy->args.size() == 3 && !names_word(row, v)) {
      count_form = true;
      L = row;
    } else {
      fail(l, "the copy's parameters are not a local single-row struct");
      continue;
    }
    if (rest != trim(m.text(copy->stmt))) { fail(l, "the loop holds more than the copy"); continue; }
    bool varying = false;
    for (size_t k = 3; k < copy->args.size(); ++k) varying = varying || names_word(copy->args[k].text, v);
    if (varying) { fail(l, "the pad parameters change per row"); continue; }
    // Offsets: dst[Ed + v * Ad], src[Es + v * As].
    auto split_arg = [&](const std::string& a, std::string& base, std::string& E, std::string& A) {
      const std::string t = trim(a);
      const size_t open = t.find('[');
      if (open == std::string::npos || t.back() != ']') return false;
      base = trim(t.substr(0, open));
      if (identifier_of(base).empty()) return false;
      return linear_in(t.substr(open + 1, t.size() - open - 2), v, E, A);
    };
    std::string dbase, dE, dA, sbase, sE, sA;
    if (!split_arg(copy->args[0].text, dbase, dE, dA) || !split_arg(copy->args[1].text, sbase, sE, sA)) {
      fail(l, "the offsets are not linear in " + v);
      continue;
    }
    if (names_word(R, v) || names_word(L, v)) { fail(l, "the row count or length changes per row"); continue; }
    const std::string ub_A = to_gm ? sA : dA, gm_A = to_gm ? dA : sA;
    const std::string sz = "sizeof(" + dst->elem + ")";
    auto u64 = [](const std::string& x) { return "static_cast<uint64_t>(" + x + ")"; };
    const std::string ub_pitch = u64(ub_A) + " * " + sz, gm_pitch = u64(gm_A) + " * " + sz;
    auto at = [](const std::string& base, const std::string& E) { return E.empty() ? base : base + "[" + E + "]"; };
    std::string extra;
    for (size_t k = 3; k < copy->args.size(); ++k) extra += ", " + trim(copy->args[k].text);
    // The test that one strided copy describes these rows: conjuncts that are true by their
    // text (a pitch equal to the row) are left out.
    std::vector<std::string> conds;
    auto need = [&](const std::string& c) {
      if (std::find(conds.begin(), conds.end(), c) == conds.end()) conds.push_back(c);
    };
    auto at_least = [&](const std::string& x, const std::string& y) {
      if (x != y) need(x + " >= " + y);
    };
    // A gap in bytes or blocks; "0" when the pitch is the row.
    auto gap = [&](const std::string& pitch, const std::string& row_len, bool blocks) {
      if (pitch == row_len) return std::string("0");
      return blocks ? "(" + pitch + " - " + row_len + ") / 32" : pitch + " - " + row_len;
    };
    std::string params;
    if (pad) {
      // GM side: bytes between rows; UB side: rows start on 32 B, the gap in 32 B blocks.
      const std::string len = u64(L), up = "(" + len + " + 31) / 32 * 32";
      need(ub_pitch + " % 32 == 0");
      at_least(ub_pitch, up);
      at_least(gm_pitch, len);
      need(u64(R) + " <= 4095");
      const std::string gm_gap = "static_cast<uint32_t>(" + gap(gm_pitch, len, false) + ")";
      const std::string ub_gap = "static_cast<uint32_t>(" + gap(ub_pitch, up, true) + ")";
      params = "AscendC::DataCopyExtParams aocRows{static_cast<uint16_t>(" + R + "), static_cast<uint32_t>(" + L + "), " +
               (to_gm ? ub_gap + ", " + gm_gap : gm_gap + ", " + ub_gap) + ", 0};";
    } else {
      // Everything in 32 B blocks: the row and both pitches must be whole blocks.
      const std::string row_bytes = count_form ? u64(L) + " * " + sz : u64(L) + " * 32";
      if (count_form) need(row_bytes + " % 32 == 0");
      need(ub_pitch + " % 32 == 0");
      need(gm_pitch + " % 32 == 0");
      at_least(ub_pitch, row_bytes);
      at_least(gm_pitch, row_bytes);
      need(u64(R) + " <= 4095");
      need(row_bytes + " / 32 <= 65535");
      for (const auto& p : {ub_pitch, gm_pitch})
        if (p != row_bytes) need(gap(p, row_bytes, true) + " <= 65535");
      const std::string src_gap = "static_cast<uint16_t>(" + gap(to_gm ? ub_pitch : gm_pitch, row_bytes, true) + ")";
      const std::string dst_gap = "static_cast<uint16_t>(" + gap(to_gm ? gm_pitch : ub_pitch, row_bytes, true) + ")";
      params = "AscendC::DataCopyParams aocRows{static_cast<uint16_t>(" + R + "), static_cast<uint16_t>(" + row_bytes +
               " / 32), " + src_gap + ", " + dst_gap + "};";
    }
    std::string guard;
    for (const auto& c : conds) guard += (guard.empty() ? "" : " && ") + c;
    const std::string ind = indent_at(m, l.range), in = ind + "    ";
    // The loop stays for the shapes one strided copy cannot describe.
    std::string loop_text = text;
    std::string reindented;
    for (size_t p = 0; p < loop_text.size(); ++p) {
      reindented += loop_text[p];
      if (loop_text[p] == '\n') reindented += "    ";
    }
    RowLoop r;
    r.loop = &l;
    r.replacement = "if (" + guard + ") {\n" + in + params + "\n" + in + "AscendC::" + copy->callee + "(" + at(dbase, dE) +
                    ", " + at(sbase, sE) + ", aocRows" + extra + ");\n" + ind + "} else {\n" + in + reindented + "\n" + ind + "}";
    out.push_back(r);
  }
  return out;
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
    std::string why;
    if (auto ls = row_loops(m, &why); !ls.empty()) {
      d.state = State::Applicable;
      for (const auto& l : ls) d.ranges.push_back(l.loop->range);
      d.reason = std::to_string(ls.size()) + " loop(s) of single-row copies at regular offsets";
      return d;
    }
    return not_applicable("no DataCopy/DataCopyPad whose local DataCopyParams/DataCopyExtParams has more than one row" +
                          (why.empty() ? std::string() : "; " + why));
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
    std::string why;
    auto loops = row_loops(m, &why);
    if (loops.empty()) return refuse(why.empty() ? "no loop of single-row copies at regular offsets" : why);
    Transform t;
    for (const auto& l : loops) {
      t.edits.push_back(replace(l.loop->range, l.replacement));
      t.ranges.push_back(l.loop->range);
    }
    return t;
  }
};

const RegisterMotif<StridedCopy> kRegistered{110};

}  // namespace

}  // namespace aoc::rewrite
