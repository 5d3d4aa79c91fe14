#include "kernel_model.h"

#include <algorithm>
#include <cctype>

namespace aoc::rewrite {

bool KernelModel::is_host(const std::string& file) const {
  for (const auto& h : host_files) {
    const auto slash = h.rfind('/');
    if (slash != std::string::npos && file.compare(0, slash + 1, h, 0, slash + 1) == 0) return true;
  }
  return false;
}

std::string KernelModel::text(const Range& r) const {
  auto it = files.find(r.file);
  if (it == files.end() || r.end > it->second.size() || r.begin > r.end) return "";
  return it->second.substr(r.begin, r.end - r.begin);
}

const Var* KernelModel::find_var(const std::string& name, const std::string& klass, bool host) const {
  for (const auto& v : vars) {
    if (v.name != name || is_host(v.decl.file) != host) continue;
    if (!klass.empty() && !v.klass.empty() && v.klass != klass) continue;
    return &v;
  }
  return nullptr;
}

const Var* KernelModel::var_seen_by(const Call& c, const std::string& name) const {
  if (name.empty()) return nullptr;
  const bool host = is_host(c.range.file);
  const Var* local = nullptr;
  for (const auto& v : vars)
    if (v.name == name && !v.is_member && v.function == c.function && v.klass == c.klass && is_host(v.decl.file) == host)
      local = &v;
  return local ? local : find_var(name, c.klass, host);
}

const Function* KernelModel::find_function(const std::string& name, const std::string& klass) const {
  for (const auto& f : functions)
    if (f.name == name && f.klass == klass) return &f;
  return nullptr;
}

const Block* KernelModel::block_of(const Range& r) const {
  const Block* best = nullptr;
  for (const auto& b : blocks)
    if (b.range.file == r.file && b.range.begin <= r.begin && r.end <= b.range.end &&
        (!best || b.range.end - b.range.begin < best->range.end - best->range.begin))
      best = &b;
  return best;
}

namespace {

bool holds(const Range& outer, const Range& inner) {
  return outer.file == inner.file && outer.begin <= inner.begin && inner.end <= outer.end;
}

// The text without leading whitespace.
std::string lstrip(const std::string& s) {
  const size_t at = s.find_first_not_of(" \t\r\n");
  return at == std::string::npos ? "" : s.substr(at);
}

bool starts_with_word(const std::string& text, const std::string& word) {
  return text.rfind(word, 0) == 0 && (text.size() == word.size() || !is_ident_char(text[word.size()]));
}

}  // namespace

const Block* KernelModel::outermost_block_in(const Range& stmt, const Range& r) const {
  const Block* best = nullptr;
  for (const auto& b : blocks)
    if (holds(stmt, b.range) && holds(b.range, r) && (!best || b.range.end - b.range.begin > best->range.end - best->range.begin))
      best = &b;
  return best;
}

bool KernelModel::exclusive(const Call& a, const Call& b) const {
  if (a.range.file != b.range.file) return false;
  const Range both{a.range.file, std::min(a.range.begin, b.range.begin), std::max(a.range.end, b.range.end), 0};
  const Block* p = block_of(both);
  if (!p) return false;
  const auto stmt_of = [&](const Range& r) -> int {
    for (size_t i = 0; i < p->stmts.size(); ++i)
      if (holds(p->stmts[i], r)) return static_cast<int>(i);
    return -1;
  };
  const int ia = stmt_of(a.range), ib = stmt_of(b.range);
  if (ia < 0 || ib < 0) return false;
  const Call& first = ia <= ib ? a : b;
  const Range& s = p->stmts[static_cast<size_t>(std::min(ia, ib))];
  if (!starts_with_word(lstrip(text(s)), "if")) return false;
  const Block* arm = outermost_block_in(s, first.range);
  if (!arm) return false;
  if (ia == ib) {
    // Two arms of one if: only `else` (or `else if (...)`) between the earlier arm and the later.
    const Call& second = &first == &a ? b : a;
    const Block* other = outermost_block_in(s, second.range);
    if (!other || other == arm) return false;
    const Block* earlier = arm->range.begin < other->range.begin ? arm : other;
    const Block* later = earlier == arm ? other : arm;
    return starts_with_word(lstrip(text(Range{s.file, earlier->range.end, later->range.begin, 0})), "else");
  }
  // An if before the other call whose arm holding this call ends by leaving the pass.
  if (arm->stmts.empty()) return false;
  const std::string last = lstrip(text(arm->stmts.back()));
  return starts_with_word(last, "continue") || starts_with_word(last, "break") || starts_with_word(last, "return");
}

std::vector<const Call*> KernelModel::calls_named(const std::string& callee) const {
  std::vector<const Call*> out;
  for (const auto& c : calls)
    if (c.callee == callee) out.push_back(&c);
  return out;
}

std::vector<const Call*> KernelModel::calls_beside(const Call& c) const {
  std::vector<const Call*> out;
  for (const auto& x : calls)
    if (x.function == c.function && x.klass == c.klass && x.range.file == c.range.file) out.push_back(&x);
  std::sort(out.begin(), out.end(), [](const Call* a, const Call* b) { return a->range.begin < b->range.begin; });
  return out;
}

std::string argument_variable(const std::string& text) {
  size_t b = text.find_first_not_of(" \t\n");
  if (b == std::string::npos) return "";
  if (text.compare(b, 6, "this->") == 0) b += 6;
  size_t e = b;
  while (e < text.size() && is_ident_char(text[e])) ++e;
  return text.substr(b, e - b);
}

namespace {
bool nested_in(const Call& inner, const Call& outer) {
  return inner.range.begin >= outer.range.begin && inner.range.end <= outer.range.end;
}


bool names(const Call& c, const std::string& text) {
  const std::string tensor = argument_variable(text);
  if (names_word(c.object, tensor)) return true;
  for (const auto& a : c.args)
    if (names_word(a.text, tensor)) return true;
  return false;
}
}  // namespace

const Call* KernelModel::next_use(const Call& after, const std::string& tensor) const {
  for (const Call* x : calls_beside(after))
    if (x->range.begin >= after.range.end && names(*x, tensor)) return x;
  return nullptr;
}

bool KernelModel::used_elsewhere(const Call& c, const std::string& tensor, const Call* skip) const {
  for (const Call* x : calls_beside(c)) {
    if (nested_in(*x, c) || (skip && nested_in(*x, *skip))) continue;
    if (names(*x, tensor)) return true;
  }
  return false;
}

bool is_ident_char(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; }

bool names_word(const std::string& text, const std::string& name) {
  if (name.empty()) return false;
  for (size_t p = text.find(name); p != std::string::npos; p = text.find(name, p + 1)) {
    const size_t e = p + name.size();
    if ((p == 0 || !is_ident_char(text[p - 1])) && (e >= text.size() || !is_ident_char(text[e]))) return true;
  }
  return false;
}

}  // namespace aoc::rewrite
