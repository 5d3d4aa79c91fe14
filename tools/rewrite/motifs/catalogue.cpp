// The motif catalogue: the motifs register themselves (motif.h, RegisterMotif) before main, and
// the catalogue is built from them, in rank order, on first use.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "motif.h"

namespace aoc::rewrite {
namespace {

struct Registered {
  int rank;
  MotifFactory make;
};

// A function-local static: registrations from other files' initialisers may come before this
// file's own namespace-scope objects are initialised.
std::vector<Registered>& registry() {
  static std::vector<Registered> all;
  return all;
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "aoc-rewrite: motif catalogue: %s\n", what.c_str());
  std::abort();
}

}  // namespace

void register_motif(int rank, MotifFactory make) { registry().push_back({rank, make}); }

const std::vector<std::unique_ptr<Motif>>& catalogue() {
  static const std::vector<std::unique_ptr<Motif>> all = [] {
    std::vector<Registered> order = registry();
    std::sort(order.begin(), order.end(), [](const Registered& a, const Registered& b) { return a.rank < b.rank; });
    std::vector<std::unique_ptr<Motif>> v;
    for (size_t i = 0; i < order.size(); ++i) {
      v.push_back(order[i].make());
      // Two motifs of one rank would be listed in link order, which nothing fixes.
      if (i > 0 && order[i].rank == order[i - 1].rank)
        fail("motifs " + v[i - 1]->name() + " and " + v[i]->name() + " share rank " + std::to_string(order[i].rank));
    }
    return v;
  }();
  return all;
}

const Motif* find_motif(const std::string& name) {
  for (const auto& m : catalogue())
    if (m->name() == name) return m.get();
  return nullptr;
}

}  // namespace aoc::rewrite
