// Compute-only temporaries in a TBuf: a TQue whose tensors are only allocated and freed
// (never EnQue'd or DeQue'd) pays queue bookkeeping and implicit syncs for nothing; a TBuf
// hands out its buffer with Get. Apply: TQue -> TBuf, AllocTensor -> Get, FreeTensor
// statements go, InitBuffer drops the buffer count. Remove: a TBuf fetched once per function
// (bound to a local) in functions without early returns becomes a TQue of depth 1, with
// AllocTensor and a FreeTensor at the end of each function.
#include <algorithm>
#include <map>
#include <optional>

#include "motifs/motif_util.h"

namespace aoc::rewrite {
namespace {

struct Member {
  const Var* var = nullptr;
  std::vector<const Call*> calls;  // member calls on it
  const Call* init = nullptr;
};

std::vector<Member> members_of(const KernelModel& m, const std::string& tmpl) {
  std::vector<Member> out;
  for (const auto& v : m.vars) {
    if (!v.is_member || v.type_template != tmpl || m.is_host(v.decl.file)) continue;
    Member mem{&v, {}, nullptr};
    for (const auto& c : m.calls) {
      if (c.klass != v.klass) continue;
      if (identifier_of(c.object) == v.name) mem.calls.push_back(&c);
      if (c.callee == "InitBuffer" && !c.args.empty() && identifier_of(c.args[0].text) == v.name) mem.init = &c;
    }
    out.push_back(mem);
  }
  return out;
}

// "AscendC::TQue<AscendC::QuePosition::VECCALC, 1>" -> "AscendC::QuePosition::VECCALC".
std::string position_of(const std::string& type) {
  size_t l = type.find('<'), r = type.rfind('>');
  if (l == std::string::npos || r == std::string::npos) return "";
  std::string inner = type.substr(l + 1, r - l - 1);
  return trim(inner.substr(0, inner.find(',')));
}

std::string prefix_of(const std::string& type, const std::string& tmpl) { return type.substr(0, type.find(tmpl)); }

bool queue_only_alloc(const Member& q) {
  if (!q.init || !q.init->editable || !q.init->stmt.valid() || q.init->args.size() != 3 || !q.var->single_decl ||
      !q.var->editable)
    return false;
  int alloc = 0;
  for (const Call* c : q.calls) {
    if (c->callee == "AllocTensor" && c->editable) ++alloc;
    else if (c->callee == "FreeTensor" && c->stmt.valid() && c->editable) continue;
    else return false;
  }
  return alloc > 0;
}

class TbufTemporaries : public Motif {
public:
  std::string name() const override { return "tbuf_temporaries"; }
  std::string summary() const override { return "compute-only temporaries in TBuf (Get) <-> in a TQue (AllocTensor/FreeTensor)"; }
  Detection detect(const KernelModel& m) const override {
    Detection d;
    for (const auto& q : members_of(m, "TQue"))
      if (queue_only_alloc(q)) d.ranges.push_back(q.var->decl);
    if (!d.ranges.empty()) {
      d.state = State::Applicable;
      d.reason = std::to_string(d.ranges.size()) + " queue(s) never EnQue'd: temporaries";
      return d;
    }
    auto removable = tbufs_removable(m);
    if (!removable.empty()) {
      d.state = State::Present;
      for (const auto& b : removable) d.ranges.push_back(b.var->decl);
      d.reason = std::to_string(removable.size()) + " TBuf temporaries fetched once per function";
      return d;
    }
    for (const auto& b : members_of(m, "TBuf"))
      if (!b.calls.empty()) return not_applicable("TBuf " + b.var->name + " is present but fetched in a way a queue cannot mirror");
    return not_applicable("no queue used only as a temporary and no TBuf temporaries");
  }
  Transform apply(const KernelModel& m) const override {
    Transform t;
    for (const auto& q : members_of(m, "TQue")) {
      if (!queue_only_alloc(q)) continue;
      const std::string pos = position_of(q.var->type);
      if (pos.empty()) continue;
      t.edits.push_back(replace(q.var->type_range, prefix_of(q.var->type, "TQue") + "TBuf<" + pos + ">"));
      for (const Call* c : q.calls) {
        if (c->callee == "AllocTensor") {
          t.edits.push_back(replace(c->range, trim(c->object) + ".Get<" + c->template_args + ">()"));
        } else {
          t.edits.push_back(erase_statement(m, c->stmt));
        }
      }
      const auto head = init_head(m, *q.init);
      if (!head) return refuse("the InitBuffer of " + q.var->name + " is not called on a named pipe object");
      t.edits.push_back(replace(q.init->range, *head + trim(q.init->args[0].text) + ", " +
                                                   trim(q.init->args[2].text) + ")"));
      t.ranges.push_back(q.var->decl);
    }
    if (t.edits.empty()) return refuse("no TQue used only through AllocTensor/FreeTensor");
    return t;
  }
  Transform remove(const KernelModel& m) const override {
    auto bs = tbufs_removable(m);
    if (bs.empty())
      return refuse("no TBuf fetched once per function into a local, in functions without early returns");
    Transform t;
    std::map<uint32_t, std::vector<const Var*>> shared;  // `TBuf<> a, b;`: the statements to split
    for (const auto& b : bs) {
      const std::string queue = queue_type(*b.var);
      if (b.var->single_decl) t.edits.push_back(replace(b.var->type_range, queue));
      else shared[b.var->decl.begin].push_back(b.var);
      for (const Call* c : b.calls) {
        t.edits.push_back(replace(c->range, trim(c->object) + ".AllocTensor<" + c->template_args + ">()"));
        const Var* local = bound_local(m, *c);
        // Free at the end of the block declaring the local (an `if constexpr` branch, say):
        // the local is out of scope after it.
        const Range& block = local->scope;
        Range close{block.file, block.end - 1, block.end - 1, 0};
        t.edits.push_back(insert_line_before(m, close, "    " + trim(c->object) + ".FreeTensor(" +
                                                           local->name + ");"));
      }
      const auto head = init_head(m, *b.init);
      if (!head) return refuse("the InitBuffer of " + b.var->name + " is not called on a named pipe object");
      t.edits.push_back(replace(b.init->range, *head + trim(b.init->args[0].text) + ", 1, " +
                                                   trim(b.init->args[1].text) + ")"));
      t.ranges.push_back(b.var->decl);
    }
    // A declaration of several buffers becomes one declaration per buffer, the removed ones
    // as queues, so the others keep their TBuf type.
    for (const auto& [begin, removed] : shared) {
      std::vector<const Var*> all;
      for (const auto& v : m.vars)
        if (v.is_member && v.decl.file == removed.front()->decl.file && v.decl.begin == begin) all.push_back(&v);
      std::sort(all.begin(), all.end(), [](const Var* a, const Var* b) { return a->decl.end < b->decl.end; });
      const std::string& text = m.files.at(all.back()->decl.file);
      const size_t semi = text.find(';', all.back()->decl.end);
      const auto split = declarators(text, begin, all);
      if (semi == std::string::npos || trim(text.substr(all.back()->decl.end, semi - all.back()->decl.end)) != "" ||
          !split)
        return refuse("the declaration of " + removed.front()->name + " is not a plain list of names");
      std::string out;
      for (size_t i = 0; i < all.size(); ++i) {
        const Var* v = all[i];
        if (!v->init.empty()) return refuse("the declaration of " + v->name + " has an initializer");
        const bool is_removed = std::find(removed.begin(), removed.end(), v) != removed.end();
        if (!out.empty()) out += "\n" + indent_at(m, v->decl);
        out += (is_removed ? queue_type(*v) : split->specifier) + " " + split->declarators[i] + ";";
      }
      Range stmt{all.front()->decl.file, begin, static_cast<uint32_t>(semi + 1), 0};
      t.edits.push_back(replace(stmt, out));
    }
    return t;
  }

private:
  // `T a, b[N];` split into its shared type (`T`) and each name with its array bounds
  // (`a`, `b[N]`): a declarator's own type is not `T` when it has bounds, so the written
  // type of each Var cannot be reused. Nullopt for anything else (pointers, references).
  struct Declarators {
    std::string specifier;
    std::vector<std::string> declarators;
  };
  static std::optional<Declarators> declarators(const std::string& text, uint32_t begin,
                                                const std::vector<const Var*>& vars) {
    Declarators d;
    uint32_t from = begin;
    for (const Var* v : vars) {
      std::string piece = trim(text.substr(from, v->decl.end - from));
      if (from != begin) {
        if (piece.empty() || piece[0] != ',') return std::nullopt;
        piece = trim(piece.substr(1));
      }
      from = v->decl.end;
      // The name is the last word before any bounds.
      const std::string head = trim(piece.substr(0, piece.find('[')));
      if (head.size() < v->name.size() || head.compare(head.size() - v->name.size(), v->name.size(), v->name) != 0)
        return std::nullopt;
      const size_t at = head.size() - v->name.size();
      if (at > 0 && is_ident_char(head[at - 1])) return std::nullopt;
      const std::string spec = trim(head.substr(0, at));
      if (d.declarators.empty()) d.specifier = spec;
      else if (!spec.empty()) return std::nullopt;
      if (d.specifier.empty() || d.specifier.back() == '*' || d.specifier.back() == '&') return std::nullopt;
      d.declarators.push_back(trim(piece.substr(at)));
    }
    return d;
  }

  // The rewritten InitBuffer keeps the call's own text up to its first argument, so the pipe
  // is reached as written: `pipe.`, `pipe->` for a TPipe* member or parameter, `this->pipe.`.
  static std::optional<std::string> init_head(const KernelModel& m, const Call& init) {
    if (init.object.empty() || init.args.empty()) return std::nullopt;
    const Range& first = init.args[0].range;
    if (first.file != init.range.file || first.begin < init.range.begin) return std::nullopt;
    return m.text(Range{init.range.file, init.range.begin, first.begin, init.range.line});
  }
  // The depth-1 queue replacing a TBuf: `TBuf<>` defaults to VECCALC, a queue has no default.
  static std::string queue_type(const Var& buf) {
    std::string pos = position_of(buf.type);
    if (pos.empty()) pos = prefix_of(buf.type, "TBuf") + "TPosition::VECCALC";
    return prefix_of(buf.type, "TBuf") + "TQue<" + pos + ", 1>";
  }
  static const Var* bound_local(const KernelModel& m, const Call& get) {
    for (const auto& v : m.vars)
      if (!v.is_member && v.function == get.function && v.init_range.file == get.range.file &&
          v.init_range.begin <= get.range.begin && v.init_range.end >= get.range.end && trim(v.init) == m.text(get.range))
        return &v;
    return nullptr;
  }
  std::vector<Member> tbufs_removable(const KernelModel& m) const {
    std::vector<Member> out;
    for (const auto& b : members_of(m, "TBuf")) {
      if (b.calls.empty() || !b.init || !b.init->editable || b.init->args.size() != 2 || !b.var->editable) continue;
      bool ok = true;
      std::map<std::string, int> per_fn;
      for (const Call* c : b.calls) {
        const Function* f = m.find_function(c->function, c->klass);
        // Get(len) views a part of the buffer; AllocTensor hands out all of it.
        const Var* local = bound_local(m, *c);
        ok = ok && c->callee == "Get" && c->args.empty() && c->editable && c->loop_depth == 0 && f && f->editable &&
             local && local->scope.valid() && local->editable;
        ok = ok && ++per_fn[c->function] == 1;
        if (f) ok = ok && m.text(f->body).find("return") == std::string::npos;
      }
      if (ok && per_fn.size() == 1) out.push_back(b);
    }
    return out;
  }
};

const RegisterMotif<TbufTemporaries> kRegistered{60};

}  // namespace

}  // namespace aoc::rewrite
