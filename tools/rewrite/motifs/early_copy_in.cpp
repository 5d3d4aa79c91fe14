// Early copy-in: the tile loop issues the next tile's copy-in before this tile's compute
//   CopyIn(0); for (i...) { if (i + 1 < N) { CopyIn(i + 1); } Compute(i); CopyOut(i); }
// instead of each tile's copy-in at the top of its own iteration. The scalar unit stops at
// every wait a stage makes (a vector result read with GetValue, a V->S flag), so in the
// plain order tile i+1's copy is only issued after tile i's waits; issued early, MTE2 moves
// it while the vector and scalar units work on tile i. Two tiles of the input queue are
// held at once, so its queue depth must be a constant of at least 2, and so must its buffer
// count, or else the copy-in goes ahead only when the count the tiling passes is at least 2:
//   copyInAhead = count >= 2 (in Init, after its InitBuffer);
//   if (copyInAhead && 0 < N) CopyIn(0);
//   for (i...) { if (copyInAhead && i + 1 < N) CopyIn(i + 1); if (!copyInAhead) CopyIn(i); ... }
// Apply: the copy-in statement (and the locals of the body it reads, recomputed for the
// next tile) moves into `if (next < N)` at the top of the body, with a prologue for the
// first tile before the loop. Remove: any loop of that shape (experts write it by hand)
// back to the copy-in of tile i in its iteration, its prologue gone.
#include <algorithm>
#include <optional>
#include <regex>
#include <set>

#include "motifs/motif_util.h"
#include "motifs/tile_loop.h"

namespace aoc::rewrite {
namespace {

constexpr const char* kNoCopyIn = "no loop of the kernel has a statement that copies a tile into a queue";
// The member that says whether the buffer count the tiling passed lets the copy-in go ahead.
constexpr const char* kFlag = "copyInAhead";

// `for (T v = start; v < bound; v++ | ++v | v += step)`.
struct Header {
  std::string type, var, start, bound, step;
  std::string next() const { return var + " + " + step; }
};

std::optional<Header> header_of(const KernelModel& m, const Loop& l) {
  if (!l.range.valid() || !l.body.valid() || l.body.begin < l.range.begin || !m.files.count(l.range.file))
    return std::nullopt;
  const std::string head = m.files.at(l.range.file).substr(l.range.begin, l.body.begin - l.range.begin);
  static const std::regex r(
      R"(^for\s*\(\s*([\w:]+)\s+(\w+)\s*=\s*([^;]+?)\s*;\s*(\w+)\s*<\s*([^;]+?)\s*;\s*(?:\+\+\s*(\w+)|(\w+)\s*\+\+|(\w+)\s*\+=\s*([^;]+?))\s*\)\s*$)");
  std::smatch g;
  if (!std::regex_search(head, g, r)) return std::nullopt;
  const std::string var = g[2];
  const std::string inc = g[6].matched ? g[6].str() : g[7].matched ? g[7].str() : g[8].str();
  if (g[4].str() != var || inc != var) return std::nullopt;
  return Header{g[1], var, trim(g[3]), trim(g[5]), g[9].matched ? trim(g[9]) : "1"};
}

std::string without_this(std::string s) {
  for (size_t at; (at = s.find("this->")) != std::string::npos;) s.erase(at, 6);
  std::string out;
  for (char ch : s)
    if (ch != ' ' && ch != '\t' && ch != '\n') out += ch;
  return out;
}

const Block* body_block(const KernelModel& m, const Loop& l) {
  for (const auto& b : m.blocks)
    if (b.range.file == l.body.file && b.range.begin == l.body.begin && b.range.end == l.body.end) return &b;
  return nullptr;
}

// The call that is the whole statement `stmt`, if one is.
const Call* statement_call(const KernelModel& m, const Range& stmt) {
  for (const auto& c : m.calls)
    if (c.stmt.valid() && c.stmt.file == stmt.file && c.stmt.begin == stmt.begin && c.stmt.end == stmt.end) return &c;
  return nullptr;
}

// The local declared by statement `stmt` of function `fn`, if it declares exactly one.
const Var* declared_local(const KernelModel& m, const Range& stmt, const std::string& fn, const std::string& klass) {
  for (const auto& v : m.vars)
    if (!v.is_member && !v.is_param && v.function == fn && v.klass == klass && v.single_decl &&
        v.decl.file == stmt.file && v.decl.begin == stmt.begin)
      return &v;
  return nullptr;
}

// Own functions `f` reaches through calls, `f` included.
std::vector<const Function*> closure(const KernelModel& m, const Function& f) {
  std::vector<const Function*> out = {&f};
  for (size_t i = 0; i < out.size(); ++i)
    for (const auto& c : m.calls)
      if (c.function == out[i]->name && c.klass == out[i]->klass)
        if (const Function* g = own_function(m, c); g && std::find(out.begin(), out.end(), g) == out.end())
          out.push_back(g);
  return out;
}

// Own functions the calls inside `r` reach.
std::vector<const Function*> reached_from(const KernelModel& m, const Range& r) {
  std::vector<const Function*> out;
  for (const auto& c : m.calls)
    if (c.range.file == r.file && c.range.begin >= r.begin && c.range.end <= r.end)
      if (const Function* f = own_function(m, c))
        for (const Function* g : closure(m, *f))
          if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
  return out;
}

// Whether `text` assigns the variable `name` (=, op=, ++, --), written `name` or `this->name`.
bool assigns(const std::string& text, const std::string& name) {
  const std::regex w("(^|[^\\w.>])(this->)?" + name +
                     R"(\s*(\[[^\]]*\]\s*)?(=[^=]|\+=|-=|\*=|/=|%=|<<=|>>=|&=|\|=|\^=|\+\+|--)|(\+\+|--)\s*(this->)?)" +
                     name + "\\b");
  return std::regex_search(text, w);
}

// Members of `klass` that `text` assigns and that it names at all.
struct MemberUse {
  std::set<std::string> written, named;
};
void add_uses(const KernelModel& m, const std::string& klass, const std::string& text, MemberUse& u) {
  for (const auto& v : m.vars) {
    if (!v.is_member || v.klass != klass || !names_word(text, v.name)) continue;
    u.named.insert(v.name);
    if (assigns(text, v.name)) u.written.insert(v.name);
  }
}
MemberUse member_uses(const KernelModel& m, const std::string& klass, const std::vector<std::string>& texts,
                      const std::vector<const Function*>& functions) {
  MemberUse u;
  for (const auto& t : texts) add_uses(m, klass, t, u);
  for (const Function* f : functions) add_uses(m, klass, m.text(f->body), u);
  return u;
}
std::string shared(const std::set<std::string>& a, const std::set<std::string>& b) {
  for (const auto& x : a)
    if (b.count(x)) return x;
  return "";
}

// The queues a copy-in stage allocates from, or why `f` is not one: it must allocate from a
// queue, copy and enqueue, touch local memory only through queues and write no GM.
std::string copy_in_queues(const KernelModel& m, const Function& f, std::vector<const Call*>* allocs) {
  bool enq = false, copy = false;
  for (const Function* g : closure(m, f))
    for (const auto& c : m.calls) {
      if (c.function != g->name || c.klass != g->klass) continue;
      if (c.callee == "AllocTensor" && !c.object.empty()) allocs->push_back(&c);
      enq = enq || c.callee == "EnQue";
      if (is_copy(c)) {
        copy = true;
        const Var* dst = c.args.empty() ? nullptr : m.var_seen_by(c, argument_variable(c.args[0].text));
        if (dst && dst->type_template == "GlobalTensor")
          return f.name + " writes global memory (" + c.callee + " at " + file_line(c.range) + ")";
      }
    }
  if (allocs->empty() || !enq || !copy) return f.name + " does not copy into a tensor of a queue";
  return queue_only_stage(m, f);
}

// Whether two tiles of the copy-in's queues fit: `why` not, or else the buffer count the
// tiling decides (empty when every count is a constant) and the last InitBuffer passing it.
struct TwoTiles {
  std::string why;
  std::string count;
  const Call* count_init = nullptr;
  const Var* queue = nullptr;  // the first queue the copy-in allocates from
};

// The queue depth (TQue template argument) of each queue the copy-in allocates from must be a
// constant of at least 2: two of its tiles are held at once. So must its buffer count
// (InitBuffer), unless it is a plain value (`tiling.bufferNum`), the same for every such queue,
// which the applied form tests at run time.
TwoTiles two_tiles_fit(const KernelModel& m, const std::vector<const Call*>& allocs) {
  TwoTiles out;
  const auto fail = [&](std::string why) {
    out.why = std::move(why);
    return out;
  };
  static const std::regex plain_value(R"(^[A-Za-z_]\w*(\s*(\.|->)\s*[A-Za-z_]\w*)*$)");
  for (const Call* a : allocs) {
    const std::string q = identifier_of(a->object);
    if (q.empty()) return fail("the copy-in picks its queue per tile (" + trim(a->object) + ")");
    const Var* qv = m.var_seen_by(*a, q);
    if (!qv || qv->type_template != "TQue") return fail(q + " is not a TQue member");
    if (!out.queue) out.queue = qv;
    const std::string type = qv->type;
    const size_t comma = type.rfind(','), close = type.rfind('>');
    const auto depth = comma == std::string::npos || close == std::string::npos || close < comma
                           ? std::nullopt
                           : constant_at(m, *a, type.substr(comma + 1, close - comma - 1));
    if (!depth) return fail("the depth of " + q + " (" + type + ") is not a constant");
    if (*depth < 2) return fail(q + " is a queue of depth " + std::to_string(*depth) + " (two tiles are held at once)");
    bool init = false;
    for (const auto& c : m.calls) {
      if (c.callee != "InitBuffer" || c.args.size() != 3 || m.is_host(c.range.file) ||
          identifier_of(c.args[0].text) != q)
        continue;
      init = true;
      const auto n = constant_at(m, c, c.args[1].text);
      if (n && *n < 2)
        return fail(q + " holds " + std::to_string(*n) + " buffer at " + file_line(c.range) + " (two are needed)");
      if (n) continue;
      const std::string count = trim(c.args[1].text);
      if (!std::regex_match(count, plain_value))
        return fail("the buffer count of " + q + " at " + file_line(c.range) + " is computed (" + count + ")");
      if (!out.count.empty() && without_this(out.count) != without_this(count))
        return fail("the copy-in's queues take different buffer counts (" + out.count + ", " + count + ")");
      out.count = count;
      if (!out.count_init || c.range.begin > out.count_init->range.begin) out.count_init = &c;
    }
    if (!init) return fail(q + " is not initialised with InitBuffer");
  }
  return out;
}

std::string indented(const std::vector<std::string>& lines, const std::string& first, const std::string& rest) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" + rest : first) + lines[i];
  return out;
}

// A plain tile loop and its copy-in stage.
struct Plain {
  const Loop* loop = nullptr;
  Header h;
  const Block* body = nullptr;
  const Call* copy_in = nullptr;
  std::vector<Range> locals;  // statements before the copy-in declaring locals it reads, in order
  TwoTiles fit;
};

// A plain tile loop whose copy-in can move a tile ahead; `why` says what stops a loop that
// copies into a queue (loops that do not are skipped without a word).
std::optional<Plain> plain_loop(const KernelModel& m, const Loop& l, std::string* why) {
  const Block* b = body_block(m, l);
  if (!b) return std::nullopt;
  size_t k = 0;
  const Call* c = nullptr;
  std::vector<const Call*> allocs;
  for (; k < b->stmts.size() && !c; ++k) {
    const Call* x = statement_call(m, b->stmts[k]);
    const Function* f = x ? own_function(m, *x) : nullptr;
    allocs.clear();
    if (f && copy_in_queues(m, *f, &allocs).empty()) c = x;
  }
  if (!c) return std::nullopt;
  --k;
  const std::string at = "the loop at " + file_line(l.range);
  const auto h = header_of(m, l);
  if (!h) return *why = at + " is not `for (T i = start; i < n; i++ or i += step)`", std::nullopt;
  // The copy-in stage; everything before it must be a local it may recompute.
  Plain p{&l, *h, b, c, {}, two_tiles_fit(m, allocs)};
  if (!p.fit.why.empty()) return *why = p.fit.why, std::nullopt;
  std::string reads = m.text(c->stmt);
  for (size_t j = k; j-- > 0;) {
    const Var* v = declared_local(m, b->stmts[j], l.function, l.klass);
    if (!v) return *why = at + ": the statement at line " + std::to_string(b->stmts[j].line) +
                          " before the copy-in is not a local declaration",
                  std::nullopt;
    if (!names_word(reads, v->name)) continue;
    for (const auto& x : m.calls)
      if (x.range.file == v->decl.file && x.range.begin >= v->decl.begin && x.range.end <= v->decl.end &&
          !own_function(m, x))
        return *why = at + ": " + v->name + " is computed with " + x.callee + ", which cannot run a tile ahead",
               std::nullopt;
    p.locals.insert(p.locals.begin(), b->stmts[j]);
    reads += " " + m.text(v->decl);
  }
  const std::string body = m.text(l.body);
  for (const char* word : {"break", "continue", "return", "goto"})
    if (names_word(body, word)) return *why = at + " may leave early (" + word + ")", std::nullopt;
  if (assigns(body, h->var)) return *why = at + " changes " + h->var + " in its body", std::nullopt;
  // A local or parameter of the function that the copy-in reads and the body changes (an
  // offset advanced per tile) would be read a tile early.
  const auto seen_in_loop = [&](const Var& v) {  // a parameter, or a local whose block holds the loop
    return v.is_param || (v.scope.file == l.range.file && v.scope.begin <= l.range.begin && l.range.end <= v.scope.end &&
                          !(v.decl.begin >= l.body.begin && v.decl.end <= l.body.end));
  };
  for (const auto& v : m.vars)
    if (!v.is_member && v.function == l.function && v.klass == l.klass && names_word(reads, v.name) &&
        seen_in_loop(v) && assigns(body, v.name))
      return *why = at + ": its body changes " + v.name + ", which the copy-in reads", std::nullopt;
  // What the copy-in reads must not be changed by the rest of the iteration, nor the reverse.
  std::vector<std::string> ahead_texts = {h->bound, h->step};
  for (const Range& r : p.locals) ahead_texts.push_back(m.text(r));
  ahead_texts.push_back(m.text(c->stmt));
  std::vector<std::string> rest_texts;
  std::vector<const Function*> rest_fns;
  for (const Range& s : b->stmts) {
    if (s.begin == c->stmt.begin) continue;
    rest_texts.push_back(m.text(s));
    for (const Function* g : reached_from(m, s)) rest_fns.push_back(g);
  }
  const auto in_rest_fn = [&](const Call& x) {  // made by a function the rest of the iteration reaches
    return std::any_of(rest_fns.begin(), rest_fns.end(),
                       [&](const Function* g) { return x.function == g->name && x.klass == g->klass; });
  };
  for (const auto& x : m.calls) {
    if (x.callee != "AllocTensor") continue;
    const bool in_rest = in_rest_fn(x) || std::any_of(b->stmts.begin(), b->stmts.end(), [&](const Range& s) {
      return s.begin != c->stmt.begin && x.range.file == s.file && x.range.begin >= s.begin && x.range.end <= s.end;
    });
    for (const Call* a : allocs)
      if (in_rest && trim(x.object) == trim(a->object))
        return *why = at + ": the rest of the iteration also allocates from " + trim(a->object) +
                      ", so a tile ahead would need a third buffer",
               std::nullopt;
  }
  const MemberUse ahead = member_uses(m, l.klass, ahead_texts, reached_from(m, c->stmt));
  const MemberUse rest = member_uses(m, l.klass, rest_texts, rest_fns);
  // Where the rest of the iteration copies into global memory the copy-in reads (in place,
  // or a carry kept in GM), the next tile's read would overtake this tile's write; that is
  // only safe when their GM ranges are disjoint, which the source does not show.
  for (const auto& x : m.calls) {
    if (!is_copy(x) || x.args.empty()) continue;
    const Var* dst = in_rest_fn(x) ? m.var_seen_by(x, argument_variable(x.args[0].text)) : nullptr;
    if (dst && dst->type_template == "GlobalTensor" && ahead.named.count(dst->name))
      return *why = at + ": the rest of the iteration copies into " + dst->name + ", which the copy-in reads",
             std::nullopt;
  }
  std::string hazard = shared(rest.written, ahead.named);
  if (hazard.empty()) hazard = shared(ahead.written, rest.named);
  if (!hazard.empty())
    return *why = at + ": the copy-in and the rest of the iteration share the member " + hazard +
                  ", which one of them changes",
           std::nullopt;
  return p;
}

// A loop that copies a tile ahead: `if (i + step < n) { locals; CopyIn(...); }` in its body
// and a copy-in of the same stage before it (alone, or in the prologue `apply` writes). In
// the form that tests the flag, the guard is `if (copyInAhead && i + step < n)` and the body
// keeps its own copy-in as `if (!copyInAhead) { CopyIn(...); }`.
struct Ahead {
  const Loop* loop = nullptr;
  Header h;
  const Block* body = nullptr;
  Range guard;      // the `if (i + step < n) { ... }` statement
  const Call* copy_in = nullptr;
  std::vector<const Var*> guard_locals;
  Range prologue;   // the statement before the loop to erase
  Range in_place;   // with the flag: the `if (!copyInAhead) { ... }` statement
  Range own_copy;   // with the flag: the copy-in statement inside it
};

// The block that is the `then` branch of the `if` statement `s`.
const Block* then_block(const KernelModel& m, const Range& s) {
  const Block* then = nullptr;
  for (const auto& x : m.blocks)
    if (x.range.file == s.file && x.range.begin > s.begin && x.range.end <= s.end &&
        (!then || x.range.begin < then->range.begin))
      then = &x;
  return then;
}

// `if (!copyInAhead) { CopyIn(...); }` among the statements of `b`, its call of `callee`.
std::optional<std::pair<Range, Range>> flag_off_copy(const KernelModel& m, const Block& b, const std::string& callee) {
  static const std::regex head(R"(^if\s*\(\s*!\s*(this->)?copyInAhead\s*\)\s*\{)");
  for (const Range& s : b.stmts) {
    if (!std::regex_search(m.text(s), head)) continue;
    const Block* then = then_block(m, s);
    if (!then || then->stmts.size() != 1) continue;
    const Call* c = statement_call(m, then->stmts.front());
    if (c && c->callee == callee) return std::make_pair(s, then->stmts.front());
  }
  return std::nullopt;
}

std::optional<Ahead> ahead_loop(const KernelModel& m, const Loop& l) {
  const auto h = header_of(m, l);
  const Block* b = body_block(m, l);
  if (!h || !b) return std::nullopt;
  const std::string cond = without_this(h->var + "+" + h->step + "<" + h->bound);
  for (const Range& s : b->stmts) {
    const std::string text = m.text(s);
    static const std::regex guard_head(R"(^if\s*\(([^{]*)\)\s*\{)");
    std::smatch g;
    if (!std::regex_search(text, g, guard_head)) continue;
    const std::string got = without_this(g[1]);
    const bool flagged = got == std::string(kFlag) + "&&" + cond;
    if (got != cond && !flagged) continue;
    const Block* then = then_block(m, s);
    if (!then || then->stmts.empty()) continue;
    const Call* c = statement_call(m, then->stmts.back());
    if (!c || !own_function(m, *c)) continue;
    Ahead a{&l, *h, b, s, c, {}, {}, {}, {}};
    if (flagged) {
      const auto own = flag_off_copy(m, *b, c->callee);
      if (!own) continue;
      a.in_place = own->first;
      a.own_copy = own->second;
    }
    bool locals_only = true;
    for (size_t k = 0; k + 1 < then->stmts.size(); ++k) {
      const Var* v = declared_local(m, then->stmts[k], l.function, l.klass);
      if (!v) locals_only = false;
      else a.guard_locals.push_back(v);
    }
    if (!locals_only) continue;
    // The prologue: the closest statement before the loop, in its block, that copies in with
    // the same stage, alone or as the last statement of an `if` block.
    const Block* outer = m.block_of(l.range);
    if (!outer) continue;
    for (const Range& p : outer->stmts) {
      if (p.end > l.range.begin) break;
      for (const auto& x : m.calls)
        if (x.callee == c->callee && x.klass == c->klass && x.function == l.function && x.stmt.valid() &&
            x.range.file == p.file && x.range.begin >= p.begin && x.range.end <= p.end &&
            (x.stmt.begin == p.begin || m.block_of(x.range) != outer))
          a.prologue = p;
    }
    if (!a.prologue.valid()) continue;
    return a;
  }
  return std::nullopt;
}

// `text` for tile `var` where it was written for tile `var + step`; parentheses around the
// sum go too unless they are a call's or a cast's.
std::string back_a_tile(const std::string& text, const std::string& var, const std::string& step) {
  const std::string s = regex_escaped(step);
  const std::string out =
      std::regex_replace(text, std::regex("(^|[^\\w.>])" + var + "\\s*\\+\\s*" + s + "(?![\\w])"), "$1" + var);
  return std::regex_replace(out, std::regex("(^|[^\\w>\\s]|[^\\w>]\\s)\\(" + var + "\\)"), "$1" + var);
}

class EarlyCopyIn : public Motif {
public:
  std::string name() const override { return "early_copy_in"; }
  std::string summary() const override {
    return "the next tile's copy-in issued before this tile's compute <-> each tile copied in at the top of its "
           "iteration";
  }
  Detection detect(const KernelModel& m) const override {
    Detection d;
    for (const auto& l : m.loops)
      if (!m.is_host(l.range.file))
        if (auto a = ahead_loop(m, l)) d.ranges.push_back(l.range);
    if (!d.ranges.empty()) {
      d.state = State::Present;
      d.reason = std::to_string(d.ranges.size()) + " tile loop(s) copy the next tile in before this tile's compute";
      return d;
    }
    std::string why;
    for (const auto& l : m.loops)
      if (!m.is_host(l.range.file) && plain_loop(m, l, &why)) d.ranges.push_back(l.range);
    if (d.ranges.empty()) return not_applicable(why.empty() ? kNoCopyIn : why);
    d.state = State::Applicable;
    d.reason = std::to_string(d.ranges.size()) + " tile loop(s) copy each tile in at the top of its iteration, queues two deep";
    return d;
  }
  Transform apply(const KernelModel& m) const override {
    Transform t;
    std::string why;
    std::string flag_count;  // the buffer count the flag tests, once a loop needs it
    for (const auto& l : m.loops) {
      if (m.is_host(l.range.file) || ahead_loop(m, l)) continue;
      auto p = plain_loop(m, l, &why);
      if (!p) continue;
      const bool flag = !p->fit.count.empty();
      if (flag && !flag_count.empty() && without_this(flag_count) != without_this(p->fit.count)) {
        why = "the loop at " + file_line(l.range) + " tests a buffer count (" + p->fit.count +
              ") other than an earlier loop's (" + flag_count + ")";
        continue;
      }
      if (flag && flag_count.empty()) {
        if (std::any_of(m.vars.begin(), m.vars.end(), [](const Var& v) { return v.name == kFlag; })) {
          why = std::string("the kernel already names something ") + kFlag;
          continue;
        }
        if (!p->fit.count_init->stmt.valid()) {
          why = "the InitBuffer at " + file_line(p->fit.count_init->range) + " is not a statement of its own";
          continue;
        }
        flag_count = p->fit.count;
        t.edits.push_back(insert_line_before(m, p->fit.queue->decl, std::string("bool ") + kFlag + " = false;"));
        t.edits.push_back(insert_line_after(m, p->fit.count_init->stmt,
                                            std::string("this->") + kFlag + " = " + flag_count + " >= 2;"));
      }
      const std::string on = flag ? std::string(kFlag) + " && " : "";
      const std::string ind = indent_at(m, l.range), in2 = body_indent(m, l);
      const std::string step = in2.rfind(ind, 0) == 0 && in2.size() > ind.size() ? in2.substr(ind.size()) : "    ";
      std::vector<std::string> first, next;
      for (const Range& r : p->locals) {
        first.push_back(for_tile(m.text(r), p->h.var, p->h.start));
        next.push_back(for_tile(m.text(r), p->h.var, p->h.next()));
      }
      first.push_back(for_tile(m.text(p->copy_in->stmt), p->h.var, p->h.start));
      next.push_back(for_tile(m.text(p->copy_in->stmt), p->h.var, p->h.next()));
      t.edits.push_back(insert_line_before(m, l.range,
                                           "if (" + on + p->h.start + " < " + p->h.bound + ") {\n" +
                                               indented(first, ind + step, ind + step) + "\n" + ind + "}"));
      t.edits.push_back(insert_line_before(m, p->body->stmts.front(),
                                           "if (" + on + p->h.next() + " < " + p->h.bound + ") {\n" +
                                               indented(next, in2 + step, in2 + step) + "\n" + in2 + "}"));
      if (flag) {
        const std::string ind_copy = indent_at(m, p->copy_in->stmt);
        t.edits.push_back(replace(p->copy_in->stmt, "if (!" + std::string(kFlag) + ") {\n" + ind_copy + step +
                                                        m.text(p->copy_in->stmt) + "\n" + ind_copy + "}"));
      } else {
        t.edits.push_back(erase_statement(m, p->copy_in->stmt));
      }
      t.ranges.push_back(l.range);
    }
    if (t.edits.empty()) {
      for (const auto& l : m.loops)
        if (!m.is_host(l.range.file) && ahead_loop(m, l)) return refuse("the tile loops copy the next tile in early already");
      return refuse(why.empty() ? kNoCopyIn : why);
    }
    return t;
  }
  Transform remove(const KernelModel& m) const override {
    Transform t;
    bool flagged = false;
    for (const auto& l : m.loops) {
      if (m.is_host(l.range.file)) continue;
      auto a = ahead_loop(m, l);
      if (!a) continue;
      if (a->in_place.valid()) {  // the loop's own copy-in is still in place: unwrap it
        flagged = true;
        t.edits.push_back(erase_statement(m, a->prologue));
        t.edits.push_back(erase_statement(m, a->guard));
        t.edits.push_back(replace(a->in_place, m.text(a->own_copy)));
        t.ranges.push_back(l.range);
        continue;
      }
      // The copy-in of tile i, after the body's locals it reads (the guard's own locals come
      // along when the body has none of that name).
      std::vector<std::string> lines;
      for (const Var* v : a->guard_locals)
        if (!declared_in_body(m, *a, v->name)) lines.push_back(back_a_tile(m.text(v->decl), a->h.var, a->h.step));
      const std::string copy = back_a_tile(m.text(a->copy_in->stmt), a->h.var, a->h.step);
      lines.push_back(copy);
      // After the guard and after the last local of the body that the copy-in reads.
      const Range* anchor = nullptr;
      bool after_guard = false;
      for (size_t k = 0; k < a->body->stmts.size(); ++k) {
        const Range& s = a->body->stmts[k];
        if (s.begin == a->guard.begin) {
          after_guard = true;
          anchor = k + 1 < a->body->stmts.size() ? &a->body->stmts[k + 1] : nullptr;
          continue;
        }
        const Var* v = declared_local(m, s, l.function, l.klass);
        if (after_guard && v && names_word(copy, v->name))
          anchor = k + 1 < a->body->stmts.size() ? &a->body->stmts[k + 1] : nullptr;
      }
      if (!anchor) return refuse("the loop at " + file_line(l.range) + " has no statement after its early copy-in");
      t.edits.push_back(erase_statement(m, a->prologue));
      t.edits.push_back(erase_statement(m, a->guard));
      t.edits.push_back(insert_line_before(m, *anchor, indented(lines, "", indent_at(m, *anchor))));
      t.ranges.push_back(l.range);
    }
    if (t.edits.empty()) return refuse("no tile loop copies the next tile in before this tile's compute");
    if (flagged) {  // the flag's member and the statements that set it
      static const std::regex sets(std::string(R"(^(this->)?)") + kFlag + R"(\s*=[^=])");
      for (const auto& v : m.vars)
        if (v.is_member && v.name == kFlag) t.edits.push_back(erase_statement(m, v.decl));
      for (const auto& b : m.blocks)
        for (const Range& s : b.stmts)
          if (std::regex_search(m.text(s), sets)) t.edits.push_back(erase_statement(m, s));
    }
    return t;
  }

private:
  static bool declared_in_body(const KernelModel& m, const Ahead& a, const std::string& name) {
    for (const Range& s : a.body->stmts)
      if (const Var* v = declared_local(m, s, a.loop->function, a.loop->klass); v && v->name == name) return true;
    return false;
  }
};

const RegisterMotif<EarlyCopyIn> kRegistered{140};

}  // namespace

}  // namespace aoc::rewrite
