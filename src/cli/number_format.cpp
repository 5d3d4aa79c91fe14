#include "cli/number_format.h"

#include <iomanip>
#include <sstream>

namespace aoc::cli {

std::string fixed(std::optional<double> v, int digits) {
  if (!v) return "-";
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << *v;
  return os.str();
}

}  // namespace aoc::cli
