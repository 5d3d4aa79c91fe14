// Registry of the operators an op_host translation unit declared with OP_ADD, queried by
// op type name. The harness finds an op's tiling and inference functions here.
#pragma once
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "register/op_def.h"

namespace aoc::host {

class OpRegistry {
 public:
  static OpRegistry& instance() {
    static OpRegistry r;
    return r;
  }
  // Keeps a copy of the op's description. A later registration of the same type replaces
  // the earlier one in place (a rebuilt op library), so pointers from find() stay valid.
  bool add(const ops::OpDef& def) {
    std::lock_guard<std::mutex> g(mu_);
    std::string name = def.type();
    auto it = defs_.find(name);
    if (it == defs_.end())
      defs_.emplace(name, def);
    else
      it->second = def;
    return true;
  }
  const ops::OpDef* find(const std::string& type) const {
    std::lock_guard<std::mutex> g(mu_);
    auto it = defs_.find(type);
    return it == defs_.end() ? nullptr : &it->second;
  }
  std::vector<std::string> names() const {
    std::lock_guard<std::mutex> g(mu_);
    std::vector<std::string> out;
    for (const auto& [k, v] : defs_) out.push_back(k);
    return out;
  }
  void remove(const std::string& type) {
    std::lock_guard<std::mutex> g(mu_);
    defs_.erase(type);
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, ops::OpDef> defs_;
};

}  // namespace aoc::host
