// Double buffering: the kernel's queues hold two buffers so MTE2, V and MTE3 overlap across
// tiles. The buffer count is a named constant of the kernel (the depth of its TQue and the
// `num` of InitBuffer) and of the host tiling, which divides UB by it to size the tile; a
// `buffer_num` knob of the tiling follows too. A kernel may instead take the count from the
// tiling (InitBuffer(q, tiling.bufferNum, ...)) when the host reads it as the `buffer_num`
// knob with the host constant as its default: the constant then sets the TQue depth in the
// kernel and the knob's default in the host. Remove: 2 -> 1 (one buffer, twice the tile);
// apply: 1 -> 2.
#include <cctype>
#include <map>
#include <set>
#include <tuple>

#include "motifs/motif_util.h"

namespace aoc::rewrite {
namespace {

struct Sites {
  const Var* kernel = nullptr;
  const Var* host = nullptr;
  std::vector<const Call*> knobs;  // tuning::Knob*("buffer_num", default, ...) in the host
  std::vector<Range> inits;
  std::string why;
};

Sites find_sites(const KernelModel& m) {
  Sites s;
  std::string literal_at, runtime_at;  // first InitBuffer with a literal / a run-time count
  for (const auto& c : m.calls) {
    if (c.callee != "InitBuffer" || c.args.size() != 3 || m.is_host(c.range.file)) continue;
    const std::string id = identifier_of(c.args[1].text);
    const Var* v = m.var_seen_by(c, id);
    if (!v || !(v->is_constexpr || v->is_const) || !int_value(v->init)) {
      std::string& at = int_value(c.args[1].text) ? literal_at : runtime_at;
      if (at.empty()) at = c.range.file + ":" + std::to_string(c.range.line);
      continue;
    }
    if (s.kernel && s.kernel != v) {
      s.why = "queues use different buffer-count constants (" + s.kernel->name + ", " + v->name + ")";
      return s;
    }
    s.kernel = v;
    s.inits.push_back(c.range);
  }
  s.knobs = buffer_num_knobs(m);
  if (!s.kernel && !runtime_at.empty() && !s.knobs.empty()) {
    // The count comes from the tiling: the constant is the depth of the kernel's queues.
    for (const auto& v : m.vars) {
      if (v.type_template != "TQue" || m.is_host(v.decl.file)) continue;
      const size_t comma = v.type.rfind(','), close = v.type.rfind('>');
      if (comma == std::string::npos || close == std::string::npos || close < comma) continue;
      const Var* depth = m.find_var(trim(v.type.substr(comma + 1, close - comma - 1)), v.klass, false);
      if (!depth || !(depth->is_constexpr || depth->is_const) || !int_value(depth->init)) continue;
      if (s.kernel && s.kernel != depth) {
        s.why = "queues use different depth constants (" + s.kernel->name + ", " + depth->name + ")";
        s.kernel = nullptr;
        return s;
      }
      s.kernel = depth;
      s.inits.push_back(v.decl);
    }
    bool follows = false;
    for (const Call* k : s.knobs) follows = follows || (s.kernel && identifier_of(k->args[1].text) == s.kernel->name);
    if (!follows) s.kernel = nullptr;
  }
  if (!s.kernel) {
    if (!literal_at.empty())
      s.why = "InitBuffer takes a literal buffer count at " + literal_at + ": no named constant ties it to the tiling";
    else if (!runtime_at.empty())
      s.why = "InitBuffer takes a run-time buffer count at " + runtime_at +
              " but the tiling has no buffer_num knob defaulting to the constant of the queues' depth";
    else
      s.why = "no queue is initialised with a buffer count (no TQue InitBuffer)";
    return s;
  }
  s.host = m.find_var(s.kernel->name, "", true);
  if (!s.host || !int_value(s.host->init) || !s.host->editable) {
    s.why = "the host tiling has no constant " + s.kernel->name +
            " sizing the tile by the buffer count; changing the kernel alone would overflow UB";
    s.host = nullptr;
  }
  return s;
}

// Variables of the kernel named in `text` (as whole words): what a buffer size is computed from.
std::set<std::string> vars_named(const KernelModel& m, const std::string& text) {
  std::set<std::string> out;
  for (size_t i = 0; i < text.size();) {
    if (!(std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_')) {
      ++i;
      continue;
    }
    size_t e = i;
    while (e < text.size() && is_ident_char(text[e])) ++e;
    const std::string word = text.substr(i, e - i);
    if (m.find_var(word, "", false)) out.insert(word);
    i = e;
  }
  return out;
}

// Whether the use of a host variable at `u` divides by it: `ub / N`, `ub / (N * parts)`,
// `ub / (parts * N)`; not a count inside a sum (`ub / (N * queueBytes + scratchBytes)`),
// which budgets the other buffers apart.
bool divides_by(const KernelModel& m, const Range& u) {
  const std::string& t = m.files.at(u.file);
  size_t j = u.end;
  while (true) {
    while (j < t.size() && std::isspace(static_cast<unsigned char>(t[j]))) ++j;
    if (j >= t.size() || t[j] != '*') break;
    ++j;  // a factor after `N *`: skip it and look further on
    while (j < t.size() && std::isspace(static_cast<unsigned char>(t[j]))) ++j;
    while (j < t.size() && is_ident_char(t[j])) ++j;
  }
  if (j < t.size() && (t[j] == '+' || t[j] == '-')) return false;
  size_t i = u.begin;
  auto blank_or_open = [&](char ch) { return std::isspace(static_cast<unsigned char>(ch)) || ch == '('; };
  while (i > 0) {
    while (i > 0 && blank_or_open(t[i - 1])) --i;
    if (i == 0 || t[i - 1] != '*') break;
    --i;  // a factor before `* N`: skip it and look further back
    while (i > 0 && std::isspace(static_cast<unsigned char>(t[i - 1]))) --i;
    while (i > 0 && is_ident_char(t[i - 1])) --i;
  }
  return i > 0 && t[i - 1] == '/';
}

// Whether the host shares UB out by the buffer count: it divides by the constant, or by a
// variable holding the buffer_num knob. A host that instead multiplies the queues' bytes by
// the count and adds the other buffers' bytes (UB / (count * queue bytes + scratch bytes))
// sizes every buffer for the count it hands out.
bool host_divides_by_count(const KernelModel& m, const Sites& s) {
  std::vector<const Var*> counts = {s.host};
  for (const Call* k : s.knobs)
    for (const auto& v : m.vars)
      if (m.is_host(v.decl.file) && v.init_range.file == k->range.file && v.init_range.begin <= k->range.begin &&
          k->range.end <= v.init_range.end)
        counts.push_back(&v);
  for (const Var* v : counts)
    for (const auto& u : v->uses)
      if (divides_by(m, u)) return true;
  return false;
}

// With one buffer, a host that divides UB by the buffer count hands out a tile twice as
// large. The queues counted by the constant keep their bytes (half the buffers, each twice
// the size), but a buffer sized from the tile outside that count (a TBuf, a queue of fixed
// depth) doubles, and UB may overflow at its InitBuffer: whether it still fits depends on the
// rest of the host's arithmetic, which the rewriter does not evaluate. Returns the first such
// buffer, described, or "" when the removal keeps UB use within the source's.
std::string outgrows_ub(const KernelModel& m, const Sites& s) {
  if (!host_divides_by_count(m, s)) return "";
  std::set<std::string> tile;
  std::vector<const Call*> others;
  for (const auto& c : m.calls) {
    if (c.callee != "InitBuffer" || c.args.size() < 2 || m.is_host(c.range.file)) continue;
    const Var* q = m.var_seen_by(c, identifier_of(c.args[0].text));
    const bool counted = c.args.size() == 3 && (identifier_of(c.args[1].text) == s.kernel->name ||
                                                (q && q->type_template.rfind("TQue", 0) == 0 && names_word(q->type, s.kernel->name)));
    if (counted) {
      for (const auto& v : vars_named(m, c.args.back().text)) tile.insert(v);
    } else {
      others.push_back(&c);
    }
  }
  for (const Call* c : others)
    for (const auto& v : vars_named(m, c->args.back().text))
      if (tile.count(v))
        return "the buffer of the InitBuffer at line " + std::to_string(c->range.line) + " (" + trim(c->args[0].text) +
               ") is sized from the tile (" + v + ") but not counted by " + s.kernel->name +
               ": with one buffer the host's tile doubles and it may not fit UB";
  return "";
}

class DoubleBuffer : public Motif {
public:
  std::string name() const override { return "double_buffer"; }
  std::string summary() const override {
    return "queue depth 2 (copy-in, compute and copy-out overlap) <-> 1, with the host tile budget";
  }
  Detection detect(const KernelModel& m) const override {
    Sites s = find_sites(m);
    if (!s.kernel || !s.host) return not_applicable(s.why);
    Detection d;
    d.ranges = {s.kernel->decl, s.host->decl};
    long long n = *int_value(s.kernel->init);
    long long h = *int_value(s.host->init);
    if (n != h) return not_applicable("kernel " + s.kernel->name + " = " + std::to_string(n) + " but host = " + std::to_string(h));
    d.state = n >= 2 ? State::Present : State::Applicable;
    d.reason = s.kernel->name + " = " + std::to_string(n) + " in the kernel and the host tiling";
    return d;
  }
  Transform remove(const KernelModel& m) const override { return set(m, 1); }
  Transform apply(const KernelModel& m) const override { return set(m, 2); }

private:
  Transform set(const KernelModel& m, long long to) const {
    Detection d = detect(m);
    if (d.state == State::NotApplicable) return refuse(d.reason);
    if (to == 1 && d.state != State::Present) return refuse("the queues already hold one buffer");
    if (to == 2 && d.state != State::Applicable) return refuse("the queues already hold two or more buffers");
    if (to == 1) {
      // A loop that runs a stage allocating from a queue twice per iteration (two tiles in
      // flight, as unroll writes them) holds two buffers of that queue at once: with one it
      // would wait forever for the first to be freed. Calls on exclusive paths of one
      // iteration (two arms of an if, or an arm that ends with `continue` and the code after
      // it) run once per iteration.
      std::set<std::pair<std::string, std::string>> allocating;
      for (const auto& c : m.calls)
        if (c.callee == "AllocTensor" && !m.is_host(c.range.file)) allocating.insert({c.function, c.klass});
      const auto stage_call = [&](const Call& c) {
        return (c.object.empty() || trim(c.object) == "this") && allocating.count({c.callee, c.klass}) > 0;
      };
      std::map<std::tuple<int, std::string, std::string>, std::vector<const Call*>> per_loop;
      for (const auto& c : m.calls) {
        if (c.loop_id < 0 || !stage_call(c)) continue;
        auto& earlier = per_loop[{c.loop_id, c.callee, c.klass}];
        for (const Call* e : earlier)
          if (!m.exclusive(*e, c))
            return refuse(c.callee + " runs twice per iteration of the loop at line " +
                          std::to_string(m.loops[static_cast<size_t>(c.loop_id)].range.line) +
                          ": two buffers of its queue are in use at once");
        earlier.push_back(&c);
      }
      // A stage called just before a loop (a statement of the block holding the loop) and
      // again inside it reads a tile ahead (the prologue of a software pipeline: tile k+1 is copied in while
      // tile k is still held), so it too holds two buffers at once.
      for (const auto& inside : m.calls) {
        if (inside.loop_id < 0 || !stage_call(inside)) continue;
        const Range& loop = m.loops[static_cast<size_t>(inside.loop_id)].range;
        for (const auto& before : m.calls)
          if (stage_call(before) && before.callee == inside.callee && before.klass == inside.klass &&
              before.function == inside.function && before.range.file == loop.file && before.range.end <= loop.begin &&
              m.block_of(before.range) == m.block_of(loop))
            return refuse(inside.callee + " is called before the loop at line " + std::to_string(loop.line) +
                          " and inside it: the loop reads a tile ahead, two buffers of its queue are in use at once");
      }
    }
    Sites s = find_sites(m);
    if (to == 1)
      if (const std::string why = outgrows_ub(m, s); !why.empty()) return refuse(why);
    Transform t;
    for (const Var* v : {s.kernel, s.host}) {
      if (!v->editable || !v->init_range.valid()) return refuse(v->name + " is not written in an editable place");
      t.edits.push_back(replace(v->init_range, std::to_string(to)));
      t.ranges.push_back(v->decl);
    }
    for (const Call* k : s.knobs) {
      if (!k->editable) return refuse("the buffer_num knob is inside a macro");
      if (identifier_of(k->args[1].text) == s.host->name) continue;  // follows the constant already
      t.edits.push_back(replace(k->args[1].range, std::to_string(to)));
      t.ranges.push_back(k->range);
    }
    return t;
  }
};

const RegisterMotif<DoubleBuffer> kRegistered{10};

}  // namespace

}  // namespace aoc::rewrite
