#include "search/variant.h"

#include <sstream>

namespace aoc::search {

std::string Variant::key() const { return kernel->cand.hash + "|" + aoc::eval::to_json(config).dump(); }

std::string config_text(const aoc::eval::TuningConfig& c) {
  if (c.empty()) return "defaults";
  std::ostringstream os;
  if (c.cores) os << "cores=" << c.cores << " ";
  if (c.ub_bytes) os << "ub_bytes=" << c.ub_bytes << " ";
  for (const auto& [k, v] : c.knobs) os << k << "=" << v << " ";
  std::string s = os.str();
  s.pop_back();
  return s;
}

}  // namespace aoc::search
