#include "kernel_model.h"

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

const Function* KernelModel::find_function(const std::string& name, const std::string& klass) const {
  for (const auto& f : functions)
    if (f.name == name && f.klass == klass) return &f;
  return nullptr;
}

std::vector<const Call*> KernelModel::calls_named(const std::string& callee) const {
  std::vector<const Call*> out;
  for (const auto& c : calls)
    if (c.callee == callee) out.push_back(&c);
  return out;
}

}  // namespace aoc::rewrite
