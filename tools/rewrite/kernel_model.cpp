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
