// The optimizer's bank-backed motif chooser: applicable motifs in the bank's order for the
// parent kernel (measured effect and the parent's profile), unknown motifs after them, and a
// file that is not a bank refused when the chooser is made.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "bank/store.h"
#include "base/content_hash.h"
#include "optimize/motif_proposer.h"
#include "search/evaluator.h"

namespace fs = std::filesystem;

namespace {

aoc::rewrite::MotifState applicable(const std::string& m) { return {m, "", aoc::rewrite::State::Applicable, "", {}}; }

aoc::bank::Entry measured(const std::string& motif, double speedup) {
  aoc::bank::Entry e;
  e.kind = speedup > 1.02 ? aoc::bank::kPositive : aoc::bank::kNegative;
  e.motif = motif;
  e.category = "conversion";
  e.geomean = speedup;
  e.context.bound = "aiv_mte2_time";
  e.title = motif;
  return e;
}

}  // namespace

TEST(BankChooser, OrdersApplicableMotifsByTheBank) {
  const fs::path dir = fs::temp_directory_path() / ("aoc-bank-chooser-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path file = dir / "bank.sqlite";
  {
    aoc::bank::Bank b(file);
    b.insert(measured("event_sync", 0.99));
    b.insert(measured("double_buffer", 1.20));
  }
  const fs::path root = AOC_SOURCE_DIR;
  auto kernel = std::make_shared<aoc::search::Kernel>();
  kernel->cand = aoc::eval::load_candidate(root / "ops" / "conversion" / "tril",
                                           aoc::base::tree_hash(root / "include" / "ascendc"));
  aoc::search::Scored parent;
  parent.variant.kernel = kernel;
  aoc::search::CaseTiming ct;
  ct.name = "c";
  ct.block_dim = 48;
  ct.profile = {{"aiv_mte2_time", 3.0}, {"aiv_vec_time", 1.0}};
  parent.eval.cases.push_back(ct);

  aoc::optimize::BankMotifChooser chooser(file);
  EXPECT_EQ(chooser.name(), "bank");
  aoc::search::Rng rng(7);
  const auto order = chooser.order(parent, {applicable("unroll"), applicable("event_sync"), applicable("double_buffer")}, rng);
  EXPECT_EQ(order, (std::vector<std::string>{"double_buffer", "event_sync", "unroll"}));

  // The same kernel under a bank that says the opposite.
  {
    aoc::bank::Bank b(dir / "other.sqlite");
    b.insert(measured("event_sync", 1.20));
    b.insert(measured("double_buffer", 0.99));
  }
  aoc::optimize::BankMotifChooser other(dir / "other.sqlite");
  aoc::search::Rng rng2(7);
  EXPECT_EQ(other.order(parent, {applicable("unroll"), applicable("event_sync"), applicable("double_buffer")}, rng2),
            (std::vector<std::string>{"event_sync", "double_buffer", "unroll"}));

  std::ofstream(dir / "junk.sqlite") << "junk";
  EXPECT_THROW(aoc::optimize::BankMotifChooser bad(dir / "junk.sqlite"), aoc::bank::BankError);
  fs::remove_all(dir);
}
