// L2 bypass for streamed inputs: a GlobalTensor whose elements a core reads exactly once
// (copied GM -> UB in one streaming pass, never written, never re-read) gains nothing from
// being kept in L2, and allocating its lines there evicts data that is re-read (a weight, a
// neighbour's rows). `SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE)` says so; the simulator
// then does not allocate L2 lines for its copies (hits are still served). The hint changes no
// value, only where the bytes are cached. Apply: the hint after each SetGlobalBuffer of such a
// tensor. Remove: the hints go.
//
// "Read once" is recognised, not proved, from this shape: every use of the tensor is its
// SetGlobalBuffer (whose address adds an offset: the core's own slice) or the source of a
// DataCopy/DataCopyPad into a LocalTensor; those copies all sit in one function, outside any
// loop of it, at a GM index that follows a parameter of that function (the tile); that
// function is called from exactly one place, inside one loop that is itself in no loop. A
// tensor read in two passes, at a fixed index (a weight re-read per tile) or from a row loop
// is left alone.
#include <optional>
#include <set>

#include "motifs/motif_util.h"

namespace aoc::rewrite {
namespace {

bool in(const Range& inner, const Range& outer) {
  return inner.file == outer.file && inner.begin >= outer.begin && inner.end <= outer.end;
}

// The text between the outer brackets of `x[...]`, empty when the argument is not indexed.
std::string index_of(const std::string& arg) {
  const size_t open = arg.find('['), close = arg.rfind(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return "";
  return arg.substr(open + 1, close - open - 1);
}

std::string base_of(const std::string& arg) { return identifier_of(trim(arg.substr(0, arg.find('[')))); }

bool is_disable_hint(const Call& c) {
  return c.callee == "SetL2CacheHint" && c.args.size() == 1 && c.args[0].text.find("CACHE_MODE_DISABLE") != std::string::npos;
}

struct Global {
  const Var* var = nullptr;
  std::vector<const Call*> set_buffer;  // SetGlobalBuffer calls
  std::vector<const Call*> hints;       // SetL2CacheHint(CACHE_MODE_DISABLE) calls
  std::vector<const Call*> reads;       // DataCopy(Pad)(local, g[...], ...)
  std::string why_not;                  // why it is not a streamed input ("" when it is)
};

class L2Hint : public Motif {
public:
  std::string name() const override { return "l2_hint"; }
  std::string summary() const override {
    return "inputs read once bypass L2: SetL2CacheHint(CACHE_MODE_DISABLE) <-> no hint";
  }
  Detection detect(const KernelModel& m) const override {
    Detection d;
    auto gs = globals(m);
    for (const auto& g : gs)
      for (const Call* h : g.hints) d.ranges.push_back(h->range);
    if (!d.ranges.empty()) {
      d.state = State::Present;
      d.reason = std::to_string(d.ranges.size()) + " GlobalTensor(s) with the L2 cache disabled";
      return d;
    }
    std::string why;
    for (const auto& g : gs) {
      if (g.why_not.empty()) d.ranges.push_back(g.var->decl);
      else if (why.empty()) why = g.var->name + ": " + g.why_not;
    }
    if (!d.ranges.empty()) {
      d.state = State::Applicable;
      d.reason = std::to_string(d.ranges.size()) + " input(s) read once per element, in one streaming pass";
      return d;
    }
    return not_applicable(gs.empty() ? "no GlobalTensor" : "no input read exactly once (" + why + ")");
  }
  Transform remove(const KernelModel& m) const override {
    Transform t;
    for (const auto& g : globals(m))
      for (const Call* h : g.hints) {
        if (!h->stmt.valid() || !h->editable) return refuse("the hint at line " + std::to_string(h->range.line) + " is not a statement of its own");
        t.edits.push_back(erase_statement(m, h->stmt));
        // The comment lines right above the hint explain it: they go with it.
        if (auto c = comment_above(m, h->stmt)) t.edits.push_back(*c);
        t.ranges.push_back(h->range);
      }
    if (t.edits.empty()) return refuse("no SetL2CacheHint(CACHE_MODE_DISABLE)");
    return t;
  }
  Transform apply(const KernelModel& m) const override {
    Transform t;
    for (const auto& g : globals(m)) {
      if (!g.why_not.empty() || !g.hints.empty()) continue;
      for (const Call* s : g.set_buffer) {
        const std::string& text = m.files.at(s->stmt.file);
        size_t eol = text.find('\n', s->stmt.end);
        if (eol == std::string::npos || trim(text.substr(s->stmt.end, eol - s->stmt.end)) != "")
          return refuse("the SetGlobalBuffer of " + g.var->name + " does not end its line");
        Edit e;
        e.file = s->stmt.file;
        e.begin = e.end = static_cast<uint32_t>(eol + 1);
        e.text = indent_at(m, s->stmt) + trim(s->object) + ".SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);\n";
        t.edits.push_back(e);
        t.ranges.push_back(s->range);
      }
    }
    if (t.edits.empty()) return refuse("no input GlobalTensor read exactly once per element without a hint");
    return t;
  }

private:
  // The `//` lines directly above a statement that stands on its own line, as an erase.
  static std::optional<Edit> comment_above(const KernelModel& m, const Range& stmt) {
    const std::string& s = m.files.at(stmt.file);
    size_t ls = s.rfind('\n', stmt.begin == 0 ? 0 : stmt.begin - 1);
    if (ls == std::string::npos || trim(s.substr(ls + 1, stmt.begin - ls - 1)) != "") return std::nullopt;
    size_t first = ls + 1;  // start of the earliest comment line found
    while (first > 0) {
      size_t prev = s.rfind('\n', first - 2 < first ? first - 2 : 0);
      size_t start = prev == std::string::npos ? 0 : prev + 1;
      if (first < 2 || trim(s.substr(start, first - 1 - start)).rfind("//", 0) != 0) break;
      first = start;
    }
    if (first == ls + 1) return std::nullopt;
    return Edit{stmt.file, static_cast<uint32_t>(first), static_cast<uint32_t>(ls + 1), ""};
  }
  static std::vector<Global> globals(const KernelModel& m) {
    std::vector<Global> out;
    for (const auto& v : m.vars) {
      if (v.type_template != "GlobalTensor" || v.is_param || m.is_host(v.decl.file)) continue;
      Global g;
      g.var = &v;
      // The calls naming it: on it (object) or with it as an argument.
      std::vector<const Call*> mine;
      for (const auto& c : m.calls) {
        if (m.is_host(c.range.file)) continue;
        if (v.is_member ? c.klass != v.klass : (c.function != v.function || c.klass != v.klass)) continue;
        bool on = base_of(c.object) == v.name;
        bool arg = false;
        for (const auto& a : c.args) arg = arg || names_word(a.text, v.name);
        if (!on && !arg) continue;
        mine.push_back(&c);
        if (on && c.callee == "SetGlobalBuffer") g.set_buffer.push_back(&c);
        else if (on && is_disable_hint(c)) g.hints.push_back(&c);
        else if (!on && (is_api(c, "DataCopy") || is_api(c, "DataCopyPad")) && c.args.size() >= 3 &&
                 base_of(c.args[1].text) == v.name && !names_word(c.args[0].text, v.name))
          g.reads.push_back(&c);
        else if (g.why_not.empty())
          g.why_not = "used by " + c.callee + " at line " + std::to_string(c.range.line);
      }
      // Every reference lies in one of those calls (not assigned, passed on or indexed elsewhere).
      for (const auto& u : v.uses) {
        bool covered = false;
        for (const Call* c : mine) covered = covered || in(u, c->range);
        if (!covered && g.why_not.empty()) g.why_not = "referenced outside a copy at line " + std::to_string(u.line);
      }
      if (g.why_not.empty()) g.why_not = streamed(m, g);
      if (!g.set_buffer.empty() || !g.hints.empty()) out.push_back(std::move(g));
    }
    return out;
  }

  // "" when the reads of g form one streaming pass over the core's slice, else why not.
  static std::string streamed(const KernelModel& m, const Global& g) {
    if (g.reads.empty()) return "never copied into UB";
    if (g.set_buffer.empty()) return "no SetGlobalBuffer";
    for (const Call* s : g.set_buffer) {
      if (!s->editable || !s->stmt.valid() || s->args.empty()) return "its SetGlobalBuffer is not an editable statement";
      if (s->args[0].text.find('+') == std::string::npos) return "its SetGlobalBuffer takes no per-core offset (cores may share it)";
    }
    const Call* first = g.reads.front();
    const Function* f = m.find_function(first->function, first->klass);
    if (!f) return "copied outside a function";
    for (const Call* r : g.reads) {
      if (r->function != first->function || r->klass != first->klass) return "copied from two functions (two passes?)";
      if (r->loop_depth != 0) return "copied inside a loop of " + r->function + " (rows re-read?)";
      const std::string idx = index_of(r->args[1].text);
      bool follows = false;
      for (const auto& p : f->params) follows = follows || names_word(idx, p);
      // A local of the function computed from a parameter (`offset = progress * tileLength`).
      for (const auto& v : m.vars) {
        if (v.is_member || v.function != f->name || v.klass != f->klass || !names_word(idx, v.name)) continue;
        for (const auto& p : f->params) follows = follows || names_word(v.init, p);
      }
      if (!follows) return "copied at an index that does not follow a parameter of " + f->name + " (re-read per call?)";
    }
    // The copying function: called from one place, in one loop, itself in no loop.
    std::vector<const Call*> sites;
    for (const auto& c : m.calls)
      if (c.callee == f->name && c.klass == f->klass && (c.object.empty() || trim(c.object) == "this") &&
          c.range.file == f->body.file)
        sites.push_back(&c);
    if (sites.size() != 1) return f->name + " is called from " + std::to_string(sites.size()) + " places";
    if (sites[0]->loop_depth != 1) return f->name + " is not called from a single (unnested) loop";
    // The function holding that loop is itself called from no loop.
    for (const auto& c : m.calls)
      if (c.callee == sites[0]->function && c.loop_depth > 0)
        return sites[0]->function + " is called from a loop";
    return "";
  }
};

const RegisterMotif<L2Hint> kRegistered{150};

}  // namespace

}  // namespace aoc::rewrite
