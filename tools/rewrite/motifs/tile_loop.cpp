#include "motifs/tile_loop.h"

#include <algorithm>
#include <set>

#include "motifs/motif_util.h"

namespace aoc::rewrite {

bool is_sync(const Call& c) { return is_api(c, "PipeBarrier") || is_api(c, "SetFlag") || is_api(c, "WaitFlag"); }

const Function* own_function(const KernelModel& m, const Call& c) {
  if (!(c.object.empty() || trim(c.object) == "this")) return nullptr;
  if (c.ns == "AscendC") return nullptr;
  const Function* f = m.find_function(c.callee, c.klass);
  return f && f->editable ? f : nullptr;
}

namespace {

bool calls_in_function(const Call& c, const Function& f) { return c.function == f.name && c.klass == f.klass; }

// Calls that order or reach local memory outside the queues: scalar reads and writes of
// tensors, explicit synchronisation, atomics and cache maintenance.
bool outside_queues(const Call& c) {
  static const std::set<std::string> names = {"GetValue",     "SetValue",      "SetFlag",
                                               "WaitFlag",     "PipeBarrier",   "SetAtomicAdd",
                                               "SetAtomicNone", "SetAtomicMax", "SetAtomicMin",
                                               "DataCacheCleanAndInvalid", "SyncAll"};
  return names.count(c.callee) > 0;
}

bool is_tbuf_get(const Call& c) { return c.object_type == "TBuf" && (c.callee == "Get" || c.callee == "GetWithOffset"); }

// Empty when `f` and the own functions it calls use local memory only through queues (or
// TBuf tensors no copy of theirs touches); else the first reason it does not.
std::string check_stage(const KernelModel& m, const Function& f, std::set<const Function*>& seen) {
  if (!seen.insert(&f).second) return "";
  bool get = false, copy = false;
  for (const auto& c : m.calls) {
    if (!calls_in_function(c, f)) continue;
    if (outside_queues(c))
      return c.callee + " at " + file_line(c.range) +
             " orders or touches local memory outside the queues";
    get = get || is_tbuf_get(c);
    copy = copy || is_copy(c);
    if (const Function* g = own_function(m, c))
      if (auto why = check_stage(m, *g, seen); !why.empty()) return why;
  }
  if (get && copy) return f.name + " copies with a TBuf tensor at hand (no queue orders that buffer)";
  return "";
}

}  // namespace

bool is_copy(const Call& c) { return is_api(c, "DataCopy") || is_api(c, "DataCopyPad"); }

std::string queue_only_stage(const KernelModel& m, const Function& f) {
  std::set<const Function*> seen;
  return check_stage(m, f, seen);
}

std::vector<TileLoop> tile_loops(const KernelModel& m) {
  std::vector<TileLoop> out;
  for (int l = 0; l < static_cast<int>(m.loops.size()); ++l) {
    TileLoop t;
    t.loop = l;
    std::set<const Function*> seen;
    for (const auto& c : m.calls) {
      if (c.loop_id != l) continue;
      if (is_sync(c)) {
        t.syncs.push_back(&c);
        continue;
      }
      const Function* f = own_function(m, c);
      if (!f) {
        if (t.why_not.empty() && c.ns == "AscendC")
          t.why_not = c.callee + " at line " + std::to_string(c.range.line) + " runs in the loop itself";
        continue;
      }
      if (c.stmt.valid() && c.editable) t.stages.push_back(&c);
      if (t.why_not.empty()) t.why_not = check_stage(m, *f, seen);
    }
    if (t.stages.empty()) continue;
    // A copy from a TBuf filled anywhere in the class is ordered by nothing but explicit syncs.
    for (const auto& f : m.functions) {
      if (!t.why_not.empty()) break;
      if (f.klass != m.loops[l].klass || m.is_host(f.body.file)) continue;
      bool get = false, copy = false;
      for (const auto& c : m.calls)
        if (calls_in_function(c, f)) get = get || is_tbuf_get(c), copy = copy || is_copy(c);
      if (get && copy) t.why_not = f.name + " copies with a TBuf tensor at hand (no queue orders that buffer)";
    }
    auto by_pos = [](const Call* a, const Call* b) { return a->range.begin < b->range.begin; };
    std::sort(t.stages.begin(), t.stages.end(), by_pos);
    std::sort(t.syncs.begin(), t.syncs.end(), by_pos);
    t.queue_ordered = t.why_not.empty();
    out.push_back(std::move(t));
  }
  return out;
}

std::string for_tile(const std::string& stmt, const std::string& var, const std::string& index) {
  std::string out;
  size_t i = 0;
  while (i < stmt.size()) {
    const bool word = stmt.compare(i, var.size(), var) == 0 && (i == 0 || !is_ident_char(stmt[i - 1])) &&
                      (i + var.size() >= stmt.size() || !is_ident_char(stmt[i + var.size()])) &&
                      (i < 2 || stmt.compare(i - 2, 2, "->") != 0) && (i == 0 || stmt[i - 1] != '.');
    if (!word) {
      out += stmt[i++];
      continue;
    }
    size_t b = i, e = i + var.size();
    while (b > 0 && stmt[b - 1] == ' ') --b;
    while (e < stmt.size() && stmt[e] == ' ') ++e;
    const bool whole_arg = b > 0 && (stmt[b - 1] == '(' || stmt[b - 1] == ',') && e < stmt.size() &&
                           (stmt[e] == ')' || stmt[e] == ',');
    out += whole_arg ? index : "(" + index + ")";
    i += var.size();
  }
  return out;
}

std::string body_indent(const KernelModel& m, const Loop& l) {
  const std::string body = m.text(l.body);
  const size_t nl = body.find('\n');
  if (nl == std::string::npos) return indent_at(m, l.range) + "    ";
  size_t e = nl + 1;
  while (e < body.size() && (body[e] == ' ' || body[e] == '\t')) ++e;
  return body.substr(nl + 1, e - nl - 1);
}

}  // namespace aoc::rewrite
