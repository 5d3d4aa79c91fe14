// Registry of the operators an op_host translation unit declared with OP_ADD, queried by
// op type name. The harness finds an op's tiling and inference functions here.
#pragma once
#include <map>
#include <memory>
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
  // A later registration of the same type replaces the earlier one (a rebuilt op library).
  bool add(std::unique_ptr<ops::OpDef> def) {
    std::lock_guard<std::mutex> g(mu_);
    std::string name = def->type();
    defs_[name] = std::move(def);
    return true;
  }
  const ops::OpDef* find(const std::string& type) const {
    std::lock_guard<std::mutex> g(mu_);
    auto it = defs_.find(type);
    return it == defs_.end() ? nullptr : it->second.get();
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
  std::map<std::string, std::unique_ptr<ops::OpDef>> defs_;
};

}  // namespace aoc::host
