// Loop-invariant setup hoisted out of the tile loop: a Duplicate of a constant into a
// compute buffer (the "ones" of a Select, a fill value) done once in Init instead of once per
// tile. Remove: the Duplicate is repeated at the start of every per-tile function that
// reads the buffer (it stays in Init too), for a fill no condition guards whose buffer nothing
// else writes. Apply: a Duplicate in a per-tile function
// (one called from a loop) whose buffer nothing else writes moves into Init, after the
// buffer's InitBuffer and the last write of every member it reads (its count).
// Only statements whose every name is a class member, a global or a literal move.
#include <algorithm>
#include <string>

#include "motifs/motif_util.h"

namespace aoc::rewrite {
namespace {

// The TBuf member a Duplicate fills: `buf.Get<T>()` directly or a local bound to it.
std::string buffer_of(const KernelModel& m, const Call& dup) {
  const std::string dst = trim(dup.args[0].text);
  for (const auto& c : m.calls)
    if (c.callee == "Get" && c.range.file == dup.range.file && c.range.begin >= dup.args[0].range.begin &&
        c.range.end <= dup.args[0].range.end && c.object_type == "TBuf")
      return identifier_of(c.object);
  for (const auto& v : m.vars)
    if (!v.is_member && !v.is_param && v.name == dst && v.function == dup.function && v.klass == dup.klass)
      for (const auto& c : m.calls)
        if (c.callee == "Get" && c.object_type == "TBuf" && c.range.file == v.init_range.file &&
            c.range.begin >= v.init_range.begin && c.range.end <= v.init_range.end)
          return identifier_of(c.object);
  return "";
}

// Every variable the statement names is a member or a global (no locals, no parameters),
// apart from `allowed_local` (the destination alias, rewritten).
bool names_only_members(const KernelModel& m, const Range& stmt, const std::string& allowed_local) {
  for (const auto& v : m.vars) {
    if (v.is_member || (v.function.empty() && !v.is_param)) continue;
    for (const auto& u : v.uses)
      if (u.file == stmt.file && u.begin >= stmt.begin && u.end <= stmt.end && v.name != allowed_local) return false;
  }
  return true;
}

bool has_literal_value(const Call& dup) { return dup.args[1].is_literal; }

// Functions of the class called from inside a loop: the per-tile steps.
std::vector<std::string> per_tile_functions(const KernelModel& m, const std::string& klass) {
  std::vector<std::string> out;
  for (const auto& c : m.calls)
    if (c.klass == klass && c.loop_depth > 0 && c.object.empty() && m.find_function(c.callee, klass))
      out.push_back(c.callee);
  return out;
}

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// Calls in the class other than `dup` that write the buffer (it is their first argument).
bool written_elsewhere(const KernelModel& m, const Call& dup, const std::string& buf) {
  for (const auto& c : m.calls) {
    if (&c == &dup || c.klass != dup.klass || c.args.empty() || c.callee == "InitBuffer") continue;
    const std::string a0 = trim(c.args[0].text);
    if (a0.find(buf + ".Get") != std::string::npos) return true;
    for (const auto& v : m.vars)
      if (!v.is_member && v.name == a0 && v.function == c.function && v.init.find(buf + ".Get") != std::string::npos)
        return true;
  }
  return false;
}

struct Site {
  const Call* dup = nullptr;
  std::string buf;
};

// Constant fills outside the tile loop that every tile could repeat. Not one whose buffer
// something else writes (an accumulator zeroed once: filled per tile, it would restart every
// tile), nor one under a condition (the per-tile copy would run when the buffer may not even
// be set up); `why` gets the first such fill's reason.
std::vector<Site> hoisted(const KernelModel& m, std::string* why = nullptr) {
  std::vector<Site> out;
  auto skip = [&](const std::string& reason) {
    if (why && why->empty()) *why = reason;
  };
  for (const auto& c : m.calls) {
    if (!is_api(c, "Duplicate") || c.args.size() != 3 || !c.stmt.valid() || !c.editable || c.klass.empty()) continue;
    if (c.loop_depth > 0 || contains(per_tile_functions(m, c.klass), c.function) || !has_literal_value(c)) continue;
    const std::string buf = buffer_of(m, c);
    if (buf.empty() || trim(c.args[0].text).find(buf + ".Get") == std::string::npos) continue;
    if (!names_only_members(m, c.stmt, "")) continue;
    const std::string where = " (line " + std::to_string(c.range.line) + ")";
    if (written_elsewhere(m, c, buf)) {
      skip("the fill of " + buf + where + " starts what other calls write into: repeated per tile it would restart it");
      continue;
    }
    const Function* f = m.find_function(c.function, c.klass);
    const Block* b = m.block_of(c.stmt);
    if (!f || !b || b->range.begin != f->body.begin) {
      skip("the fill of " + buf + where + " is conditional: per tile it would run where the buffer may not be set up");
      continue;
    }
    out.push_back({&c, buf});
  }
  return out;
}

// Whether the use of a variable at `u` assigns it: `x = ...`, `x += ...`, `++x`, `x--`.
bool is_write(const KernelModel& m, const Range& u) {
  const std::string& s = m.files.at(u.file);
  size_t i = u.end;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (s.compare(i, 2, "++") == 0 || s.compare(i, 2, "--") == 0) return true;
  if (i < s.size() && s[i] == '=') return i + 1 >= s.size() || s[i + 1] != '=';
  for (const char* op : {"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="})
    if (s.compare(i, std::char_traits<char>::length(op), op) == 0) return true;
  // `++x`, `++this->x`: the operator before the name (and its `this->`).
  size_t b = u.begin;
  if (b >= 6 && s.compare(b - 6, 6, "this->") == 0) b -= 6;
  while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '\t')) --b;
  return b >= 2 && (s.compare(b - 2, 2, "++") == 0 || s.compare(b - 2, 2, "--") == 0);
}

bool inside(const Range& r, const Range& outer) {
  return r.file == outer.file && outer.begin <= r.begin && r.end <= outer.end;
}

// Where in Init the fill can go: after the InitBuffer of its buffer, in that call's block, and
// after the last write in Init of every member the statement reads (its count, say): the
// statement of that block to insert after, or why there is none.
struct Placement {
  const Range* after = nullptr;  // a statement of the InitBuffer's block
  std::string why;
};

Placement placement(const KernelModel& m, const Call& dup, const std::string& buf, const Function& init) {
  const Call* initbuf = nullptr;
  for (const auto& c : m.calls)
    if (c.callee == "InitBuffer" && c.klass == dup.klass && !c.args.empty() && identifier_of(c.args[0].text) == buf &&
        inside(c.range, init.body) && c.stmt.valid() && c.loop_depth == 0)
      initbuf = &c;
  if (!initbuf) return {nullptr, "the InitBuffer of " + buf + " is not a statement of Init"};
  const Block* block = m.block_of(initbuf->stmt);
  if (!block || !inside(block->range, init.body)) return {nullptr, "the InitBuffer of " + buf + " is not in a block of Init"};
  uint32_t latest = initbuf->stmt.end;
  std::string latest_name;  // the member written last, when after the InitBuffer
  for (const auto& v : m.vars) {
    if (!v.is_member || v.klass != dup.klass || v.name == buf) continue;
    const bool read = std::any_of(v.uses.begin(), v.uses.end(), [&](const Range& u) { return inside(u, dup.stmt); });
    if (!read) continue;
    for (const auto& u : v.uses) {
      if (!is_write(m, u)) continue;
      if (inside(u, init.body)) {
        if (u.end > latest) {
          latest = u.end;
          latest_name = v.name;
        }
        continue;
      }
      for (const auto& f : m.functions)
        if (f.klass == dup.klass && f.name != dup.klass && inside(u, f.body))  // a constructor runs before Init
          return {nullptr, "the fill reads " + v.name + ", which " + f.name +
                               " sets: its value in Init is not the one the tiles use"};
    }
  }
  for (const auto& st : block->stmts)
    if (st.begin < latest && latest <= st.end) return {&st, ""};
  return {nullptr, latest_name + " is set in Init after the block holding the InitBuffer of " + buf};
}

struct Candidate {
  Site site;
  Placement at;
};

// Constant fills in per-tile functions whose buffer nothing else writes, with where each
// would go in Init (or why it cannot).
std::vector<Candidate> candidates(const KernelModel& m) {
  std::vector<Candidate> out;
  for (const auto& c : m.calls) {
    if (!is_api(c, "Duplicate") || c.args.size() != 3 || !c.stmt.valid() || !c.editable || c.klass.empty()) continue;
    if (c.loop_depth > 0 || !contains(per_tile_functions(m, c.klass), c.function) || !has_literal_value(c)) continue;
    const std::string buf = buffer_of(m, c);
    if (buf.empty() || written_elsewhere(m, c, buf)) continue;
    if (!names_only_members(m, c.stmt, trim(c.args[0].text))) continue;
    const Function* init = m.find_function("Init", c.klass);
    if (!init || !init->editable || m.text(init->body).find("return") != std::string::npos) continue;
    out.push_back({{&c, buf}, placement(m, c, buf, *init)});
  }
  return out;
}

std::vector<Site> hoistable(const KernelModel& m) {
  std::vector<Site> out;
  for (const auto& c : candidates(m))
    if (c.at.after) out.push_back(c.site);
  return out;
}

// Why no fill can move though some would: the first one's reason.
std::string unplaceable(const std::vector<Candidate>& found) {
  for (const auto& c : found)
    if (!c.at.after) return "the constant fill of " + c.site.buf + " cannot move into Init: " + c.at.why;
  return "";
}

// Per-tile functions that read `buf` (a call there names it).
std::vector<const Function*> readers(const KernelModel& m, const std::string& klass, const std::string& buf) {
  std::vector<const Function*> out;
  for (const auto& name : per_tile_functions(m, klass)) {
    const Function* f = m.find_function(name, klass);
    if (!f || !f->editable || std::find(out.begin(), out.end(), f) != out.end()) continue;
    if (m.text(f->body).find(buf) != std::string::npos) out.push_back(f);
  }
  return out;
}

// Text of `r` with every unqualified use of a class member written `this->name`, so the
// statement means the same in a function whose parameters or locals shadow a member.
std::string qualified(const KernelModel& m, const Range& r) {
  std::vector<uint32_t> at;
  const std::string& file = m.files.at(r.file);
  for (const auto& v : m.vars) {
    if (!v.is_member) continue;
    for (const auto& u : v.uses) {
      if (u.file != r.file || u.begin < r.begin || u.end > r.end) continue;
      bool qualified_already = (u.begin >= 2 && file.compare(u.begin - 2, 2, "->") == 0) ||
                               (u.begin >= 1 && file[u.begin - 1] == '.');
      if (!qualified_already) at.push_back(u.begin);
    }
  }
  std::sort(at.begin(), at.end());
  std::string out;
  uint32_t pos = r.begin;
  for (uint32_t a : at) {
    out += file.substr(pos, a - pos) + "this->";
    pos = a;
  }
  return trim(out + file.substr(pos, r.end - pos));
}

// The statement with its destination written as `buf.Get<T>()` (a local alias does not
// exist where it moves to) and its members qualified.
std::string moved_text(const KernelModel& m, const Call& dup, const std::string& buf) {
  std::string dst = qualified(m, dup.args[0].range);
  if (dst.find(buf + ".Get") == std::string::npos) {
    for (const auto& v : m.vars)
      if (!v.is_member && v.name == trim(dup.args[0].text) && v.function == dup.function) dst = qualified(m, v.init_range);
  }
  return "AscendC::Duplicate(" + dst + ", " + qualified(m, dup.args[1].range) + ", " + qualified(m, dup.args[2].range) +
         ");";
}

class HoistedSetup : public Motif {
public:
  std::string name() const override { return "hoisted_setup"; }
  std::string summary() const override {
    return "constant fills of compute buffers done once in Init <-> once per tile";
  }
  Detection detect(const KernelModel& m) const override {
    Detection d;
    if (auto hs = hoistable(m); !hs.empty()) {
      d.state = State::Applicable;
      for (const auto& s : hs) d.ranges.push_back(s.dup->stmt);
      d.reason = std::to_string(hs.size()) + " constant fill(s) of " + hs.front().buf + " repeated per tile";
      return d;
    }
    std::string kept;
    auto hs = hoisted(m, &kept);
    std::vector<Site> removable;
    for (const auto& s : hs)
      if (!readers(m, s.dup->klass, s.buf).empty()) removable.push_back(s);
    if (!removable.empty()) {
      d.state = State::Present;
      for (const auto& s : removable) d.ranges.push_back(s.dup->stmt);
      d.reason = std::to_string(removable.size()) + " constant fill(s) of " + removable.front().buf +
                 " done once outside the tile loop";
      return d;
    }
    if (const std::string why = unplaceable(candidates(m)); !why.empty()) return not_applicable(why);
    if (!kept.empty()) return not_applicable(kept);
    return not_applicable("no constant Duplicate into a compute buffer, in or outside the tile loop, that can move");
  }
  Transform remove(const KernelModel& m) const override {
    Transform t;
    std::string kept;
    for (const auto& s : hoisted(m, &kept)) {
      for (const Function* f : readers(m, s.dup->klass, s.buf)) {
        // First line of the body: after the opening brace.
        const std::string& text = m.files.at(f->body.file);
        size_t nl = text.find('\n', f->body.begin);
        if (nl == std::string::npos) continue;
        Range next_line{f->body.file, static_cast<uint32_t>(nl + 1), static_cast<uint32_t>(nl + 1), 0};
        t.edits.push_back(Edit{f->body.file, next_line.begin, next_line.begin,
                               indent_at(m, s.dup->stmt) + moved_text(m, *s.dup, s.buf) + "\n"});
        t.ranges.push_back(f->body);
      }
    }
    if (t.edits.empty()) return refuse(kept.empty() ? "no constant fill outside the tile loop read by a per-tile function" : kept);
    return t;
  }
  Transform apply(const KernelModel& m) const override {
    Transform t;
    const std::vector<Candidate> found = candidates(m);
    for (const auto& [s, at] : found) {
      if (!at.after) continue;
      t.edits.push_back(erase_statement(m, s.dup->stmt));
      t.edits.push_back(insert_line_after(m, *at.after, moved_text(m, *s.dup, s.buf)));
      t.ranges.push_back(s.dup->stmt);
    }
    if (const std::string why = unplaceable(found); t.edits.empty() && !why.empty()) return refuse(why);
    if (t.edits.empty()) return refuse("no constant fill in a per-tile function whose buffer nothing else writes");
    return t;
  }
};

const RegisterMotif<HoistedSetup> kRegistered{70};

}  // namespace

}  // namespace aoc::rewrite
