// Unrolled tile loop: two tiles per iteration, each stage issued for both tiles before the
// next stage (CopyIn(i), CopyIn(i + 1), Compute(i), Compute(i + 1), ...), so the copy-in of
// the second tile is queued before the first tile's compute waits, and the loop's scalar
// overhead is paid once per two tiles. A tile count that is odd ends with one more tile after
// the loop. Needs queues two deep: the second CopyIn allocates the second input buffer while
// the first is still held, so the buffer count must be a constant of at least 2 (a tiling
// that may choose one buffer, a `buffer_num` knob, is not applicable).
// Apply: `for (T i = 0; i < N; i++) { A(i); B(i); }` whose body is only stage calls of a
// queue-ordered tile loop -> the unrolled loop and its tail. Remove: that written form back.
#include <regex>

#include "motifs/motif_util.h"
#include "motifs/tile_loop.h"

namespace aoc::rewrite {
namespace {

const std::regex& plain_header() {
  // for (uint32_t i = 0; i < this->tileNum; i++)
  static const std::regex r(
      R"(^for\s*\(\s*([\w:]+)\s+(\w+)\s*=\s*0\s*;\s*(\w+)\s*<\s*((?:this->)?\w+(?:\s*[-+]\s*\d+)?)\s*;\s*(?:\+\+\s*(\w+)|(\w+)\s*\+\+|(\w+)\s*\+=\s*1)\s*\))");
  return r;
}
// The tile count as an operand: `n`, `this->n`, or `(n - 1)` for a count written `n - 1`.
std::string operand(const std::string& count) {
  std::string plain = count;
  for (size_t at; (at = plain.find("->")) != std::string::npos;) plain.erase(at, 2);
  return plain.find_first_of("+- ") == std::string::npos ? count : "(" + count + ")";
}

const std::regex& unrolled_header() {
  static const std::regex r(
      R"(^for\s*\(\s*([\w:]+)\s+(\w+)\s*=\s*0\s*;\s*(\w+)\s*\+\s*1\s*<\s*((?:this->)?\w+(?:\s*[-+]\s*\d+)?)\s*;\s*(\w+)\s*\+=\s*2\s*\))");
  return r;
}

// A statement's text with the line comment that follows it on its line, if any.
std::string with_comment(const KernelModel& m, const Range& stmt) {
  const std::string& s = m.files.at(stmt.file);
  std::string out = m.text(stmt);
  size_t e = stmt.end;
  while (e < s.size() && (s[e] == ' ' || s[e] == '\t')) ++e;
  if (s.compare(e, 2, "//") == 0) out += "  " + s.substr(e, s.find('\n', e) - e);
  return out;
}

struct Plain {
  const Loop* loop = nullptr;
  std::string type, var, count;
  std::vector<std::string> stages;  // the stage statements as written
};

// Whether the loop body holds nothing but the given statements (blanks and comments aside).
bool only_statements(const KernelModel& m, const Loop& l, const std::vector<const Call*>& stmts) {
  std::string body = m.text(l.body);
  if (body.size() < 2) return false;
  for (auto it = stmts.rbegin(); it != stmts.rend(); ++it) {
    const size_t b = (*it)->stmt.begin - l.body.begin, e = (*it)->stmt.end - l.body.begin;
    if (e > body.size() || b > e) return false;
    body.erase(b, e - b);
  }
  body = std::regex_replace(body.substr(1, body.size() - 2), std::regex(R"(//[^\n]*)"), "");
  return trim(body).empty();
}

// Every queue of the kernel holds a constant count of at least 2 buffers in every
// configuration (InitBuffer with a literal or a constant; no buffer_num knob may pick 1).
std::string two_deep(const KernelModel& m) {
  if (!buffer_num_knobs(m).empty())
    return "the tiling may choose one buffer per queue (buffer_num knob); the second tile's copy-in needs two";
  int queues = 0;
  for (const auto& c : m.calls) {
    if (c.callee != "InitBuffer" || c.args.size() != 3 || m.is_host(c.range.file)) continue;
    const std::optional<long long> n = constant_at(m, c, c.args[1].text);
    const std::string at = file_line(c.range);
    if (!n) return "the buffer count of the queue at " + at + " is not a constant";
    if (*n < 2) return "the queue at " + at + " holds " + std::to_string(*n) + " buffer (two are needed)";
    ++queues;
  }
  return queues ? "" : "no queue is initialised with a buffer count";
}

std::optional<Plain> find_plain(const KernelModel& m, std::string* why) {
  for (const TileLoop& t : tile_loops(m)) {
    const Loop& l = m.loops[t.loop];
    std::smatch g;
    const std::string text = m.text(l.range);
    const std::string head = text.substr(0, text.find(')') == std::string::npos ? 0 : text.find(')') + 1);
    if (!std::regex_search(head, g, plain_header())) continue;
    const std::string var = g[2];
    const std::string inc = g[5].matched ? g[5].str() : g[6].matched ? g[6].str() : g[7].str();
    if (g[3].str() != var || inc != var) continue;
    if (!t.queue_ordered) {
      *why = "the tile loop at line " + std::to_string(l.range.line) + " is not ordered by its queues alone: " + t.why_not;
      continue;
    }
    if (!t.syncs.empty() || !only_statements(m, l, t.stages)) {
      *why = "the tile loop at line " + std::to_string(l.range.line) + " does more than call its stages";
      continue;
    }
    Plain p{&l, g[1], var, g[4], {}};
    bool uses = false;
    for (const Call* s : t.stages) {
      p.stages.push_back(with_comment(m, s->stmt));
      uses = uses || names_word(m.text(s->range), var);
    }
    if (!uses) {
      *why = "no stage of the loop at line " + std::to_string(l.range.line) + " takes the loop variable";
      continue;
    }
    return p;
  }
  if (why->empty()) *why = "no `for (T i = 0; i < N; i++)` tile loop calling the kernel's stages";
  return std::nullopt;
}

struct Unrolled {
  const Loop* loop = nullptr;
  Range tail;  // the `if (N % 2 != 0) { ... }` after the loop
  std::string type, var, count;
  std::vector<std::string> stages;  // the first tile's statements of each pair, comments kept
};

// The loop body's statements as pairs (S for the variable, S for variable + 1), or nothing.
std::optional<std::vector<std::string>> pairs_in(const std::string& body, const std::string& var) {
  std::vector<std::string> lines;
  size_t b = body.find('{'), e = body.rfind('}');
  if (b == std::string::npos || e == std::string::npos || e <= b) return std::nullopt;
  const std::string inner = body.substr(b + 1, e - b - 1);
  for (size_t at = 0; at <= inner.size();) {
    size_t nl = inner.find('\n', at);
    if (nl == std::string::npos) nl = inner.size();
    if (auto line = trim(inner.substr(at, nl - at)); !line.empty()) lines.push_back(line);
    at = nl + 1;
  }
  if (lines.empty() || lines.size() % 2 != 0) return std::nullopt;
  std::vector<std::string> out;
  for (size_t k = 0; k < lines.size(); k += 2) {
    std::string first = lines[k];
    if (size_t c = first.find("//"); c != std::string::npos) first = trim(first.substr(0, c));
    if (first.empty() || first.back() != ';' || lines[k + 1] != for_tile(first, var, var + " + 1")) return std::nullopt;
    out.push_back(lines[k]);
  }
  return out;
}

std::optional<Unrolled> find_unrolled(const KernelModel& m) {
  for (const auto& l : m.loops) {
    if (!l.range.valid() || m.is_host(l.range.file)) continue;
    const std::string text = m.text(l.range);
    std::smatch g;
    if (!std::regex_search(text, g, unrolled_header()) || g[3].str() != g[2].str() || g[5].str() != g[2].str()) continue;
    const std::string& s = m.files.at(l.range.file);
    const std::regex tail(R"(^\s*if\s*\(\s*)" + regex_escaped(operand(g[4].str())) +
                          R"(\s*%\s*2\s*!=\s*0\s*\)\s*\{([^{}]*)\})");
    std::smatch t;
    if (!std::regex_search(s.begin() + l.range.end, s.end(), t, tail)) continue;
    auto stages = pairs_in(m.text(l.body), g[2]);
    if (!stages) continue;
    return Unrolled{&l, Range{l.range.file, l.range.end, static_cast<uint32_t>(l.range.end + t.length()), 0}, g[1], g[2],
                    g[4], *stages};
  }
  return std::nullopt;
}

class Unroll : public Motif {
public:
  std::string name() const override { return "unroll"; }
  std::string summary() const override {
    return "two tiles per tile-loop iteration, each stage issued for both <-> one tile per iteration";
  }
  Detection detect(const KernelModel& m) const override {
    if (auto u = find_unrolled(m)) {
      Detection d;
      d.state = State::Present;
      d.ranges = {u->loop->range, u->tail};
      d.reason = "the tile loop runs two tiles per iteration (" + std::to_string(u->stages.size()) + " stages)";
      return d;
    }
    std::string why;
    auto p = find_plain(m, &why);
    if (!p) return not_applicable(why);
    if (auto deep = two_deep(m); !deep.empty()) return not_applicable(deep);
    Detection d;
    d.state = State::Applicable;
    d.ranges = {p->loop->range};
    d.reason = "a tile loop of " + std::to_string(p->stages.size()) + " stages over " + p->count + ", queues two deep";
    return d;
  }
  Transform apply(const KernelModel& m) const override {
    if (find_unrolled(m)) return refuse("the tile loop is unrolled already");
    std::string why;
    auto p = find_plain(m, &why);
    if (!p) return refuse(why);
    if (auto deep = two_deep(m); !deep.empty()) return refuse(deep);
    const std::string ind = indent_at(m, p->loop->range), in2 = body_indent(m, *p->loop);
    const std::string& v = p->var;
    std::string text = "for (" + p->type + " " + v + " = 0; " + v + " + 1 < " + p->count + "; " + v + " += 2) {\n";
    for (const auto& s : p->stages) {
      const std::string code = trim(s.substr(0, s.find("//")));  // the comment stays with the first tile's copy
      text += in2 + s + "\n" + in2 + for_tile(code, v, v + " + 1") + "\n";
    }
    text += ind + "}\n" + ind + "if (" + operand(p->count) + " % 2 != 0) {\n";
    for (const auto& s : p->stages)
      text += in2 + for_tile(trim(s.substr(0, s.find("//"))), v, operand(p->count) + " - 1") + "\n";
    text += ind + "}";
    Transform t;
    t.edits.push_back(replace(p->loop->range, text));
    t.ranges.push_back(p->loop->range);
    return t;
  }
  Transform remove(const KernelModel& m) const override {
    auto u = find_unrolled(m);
    if (!u) return refuse("no tile loop running two tiles per iteration (the form `unroll` writes)");
    const std::string ind = indent_at(m, u->loop->range), in2 = body_indent(m, *u->loop);
    std::string text = "for (" + u->type + " " + u->var + " = 0; " + u->var + " < " + u->count + "; " + u->var + "++) {\n";
    for (const std::string& s : u->stages) text += in2 + s + "\n";
    text += ind + "}";
    Transform t;
    t.edits.push_back(replace(Range{u->loop->range.file, u->loop->range.begin, u->tail.end, u->loop->range.line}, text));
    t.ranges.push_back(u->loop->range);
    return t;
  }
};

const RegisterMotif<Unroll> kRegistered{130};

}  // namespace

}  // namespace aoc::rewrite
