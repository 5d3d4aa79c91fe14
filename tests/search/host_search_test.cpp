// Search on a synthetic objective: budgets are counted exactly, no configuration is
// evaluated twice, invalid ones count with their reason, a seed reproduces the search,
// budget prefixes agree, profile moves follow the profile, evolve improves on the start.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "search/profile_moves.h"
#include "search/host_search.h"

namespace {

using namespace aoc::search;

Space test_space() {
  aoc::host::PlatformConfig p;
  p.aiv_cores = 16;
  p.ub_bytes = 128 * 1024;
  return make_space({{"split", 32, false, {32, 64, 128, 256, 512}, 3}, {"tile_cap", 0, false, {0, 1024, 2048, 4096}, 1}},
                    p);
}

// A bowl with its minimum away from the defaults; points with split 512 and 1 core fail.
struct Objective {
  const Space& s;
  std::map<std::string, int> calls;
  Evaluation operator()(const Point& p) {
    ++calls[s.key(p)];
    Evaluation e;
    const double cores = double(s.dims[0].values[p[0]]);
    const double ub = double(s.dims[1].values[p[1]]) / 1024;
    const double split = double(s.dims[2].values[p[2]]);
    const double tile = double(s.dims[3].values[p[3]]);
    if (split == 512 && cores == 1) {
      e.reason = "tiling_error: rejected";
      return e;
    }
    e.valid = true;
    e.time_us = 100.0 / cores + std::abs(ub - 96) * 0.1 + std::abs(split - 128) * 0.01 + std::abs(tile - 2048) * 0.001;
    e.cases.push_back({"c", e.time_us, static_cast<uint32_t>(cores), "aiv_mte2_time", {{"aiv_mte2_ratio", 0.9}}});
    return e;
  }
};

std::vector<std::string> keys(const SearchResult& r) {
  std::vector<std::string> k;
  for (const auto& e : r.history) k.push_back(e.key);
  return k;
}

// Evaluations the caller marks free (a result it knew without running anything) do not
// count against the budget, up to max_free of them; past that they count like any other.
TEST(HostSearch, FreeEvaluationsAreNotCountedUpToTheirLimit) {
  const Space s = test_space();
  for (HostMethod m : {HostMethod::Evolve, HostMethod::Random}) {
    for (const size_t max_free : {size_t{0}, size_t{5}, size_t{1000}}) {
      Objective obj{s, {}};
      size_t calls = 0;
      EvalFn fn = [&](const Point& p) {
        Evaluation e = obj(p);
        e.free = ++calls % 2 == 0;  // every second evaluation is free
        return e;
      };
      SearchOptions o;
      o.method = m;
      o.budget = 20;
      o.seed = 7;
      o.max_free = max_free;
      const SearchResult r = run_search(s, fn, o, {});
      // Free answers past the limit were counted, and the history says so: `free` marks exactly
      // the entries the budget did not pay for.
      EXPECT_EQ(r.free_count(), std::min(calls / 2, max_free)) << to_string(m) << " max_free " << max_free;
      EXPECT_EQ(r.history.size() - r.free_count(), 20u) << to_string(m) << " max_free " << max_free;
      // What a budget of n would have evaluated ends at the n-th counted entry.
      EXPECT_EQ(r.entries_within(20), r.history.size());
      EXPECT_EQ(r.entries_within(0), 0u);
      const size_t five = r.entries_within(5);
      size_t counted = 0;
      for (size_t i = 0; i < five; ++i) counted += r.history[i].free ? 0 : 1;
      EXPECT_EQ(counted, 5u);
      EXPECT_FALSE(r.history[five - 1].free);
    }
  }
}

TEST(HostSearch, BudgetAndNoDuplicates) {
  const Space s = test_space();
  for (HostMethod m : {HostMethod::Evolve, HostMethod::Random}) {
    Objective obj{s, {}};
    EvalFn fn = [&](const Point& p) { return obj(p); };
    SearchOptions o;
    o.method = m;
    o.budget = 40;
    o.seed = 7;
    const auto r = run_search(s, fn, o, {s.defaults(), s.defaults()});
    EXPECT_EQ(r.history.size(), 40u) << to_string(m);
    for (const auto& [k, n] : obj.calls) EXPECT_EQ(n, 1) << k;  // never twice
    EXPECT_EQ(obj.calls.size(), 40u);
    EXPECT_EQ(r.history.front().key, s.key(s.defaults()));  // seeds first
    size_t invalid = 0;
    for (const auto& e : r.history) {
      invalid += e.valid ? 0 : 1;
      if (!e.valid) {
        EXPECT_EQ(e.reason, "tiling_error: rejected");
      }
    }
    EXPECT_EQ(invalid, r.invalid);
    ASSERT_TRUE(r.best);
    for (const auto& e : r.history)
      if (e.valid) EXPECT_LE(r.history[*r.best].time_us, e.time_us);
  }
}

TEST(HostSearch, SeededAndReproducibleWithBudgetPrefixes) {
  const Space s = test_space();
  for (HostMethod m : {HostMethod::Evolve, HostMethod::Random}) {
    auto run = [&](uint64_t seed, size_t budget) {
      Objective obj{s, {}};
      EvalFn fn = [&](const Point& p) { return obj(p); };
      SearchOptions o;
      o.method = m;
      o.seed = seed;
      o.budget = budget;
      return keys(run_search(s, fn, o, {s.defaults()}));
    };
    const auto a = run(3, 32), b = run(3, 32), c = run(4, 32), small = run(3, 16);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    EXPECT_EQ(std::vector<std::string>(a.begin(), a.begin() + 16), small);
  }
}

TEST(HostSearch, SmallSpaceIsExhaustedWithoutRepeats) {
  aoc::host::PlatformConfig p;
  p.aiv_cores = 2;
  p.ub_bytes = 32 * 1024;  // one UB value
  const Space s = make_space({{"k", 0, false, {0, 1}, 0}}, p);
  ASSERT_EQ(s.size(), 4u);
  Objective obj{s, {}};
  EvalFn fn = [&](const Point& pt) {
    Evaluation e;
    e.valid = true;
    e.time_us = 1 + pt[0] + pt[2];
    ++obj.calls[s.key(pt)];
    return e;
  };
  SearchOptions o;
  o.budget = 50;
  const auto r = run_search(s, fn, o, {s.defaults()});
  EXPECT_EQ(r.history.size(), 4u);
  EXPECT_EQ(obj.calls.size(), 4u);
}

TEST(HostSearch, EvolveBeatsTheStart) {
  const Space s = test_space();
  Objective obj{s, {}};
  EvalFn fn = [&](const Point& p) { return obj(p); };
  SearchOptions o;
  o.budget = 64;
  const auto r = run_search(s, fn, o, {s.defaults()});
  ASSERT_TRUE(r.best);
  EXPECT_LT(r.history[*r.best].time_us, r.history[0].time_us * 0.95);
  EXPECT_EQ(r.best_within(1), std::optional<size_t>(0));
}

// A short search with a capped random fill: the same first random points as an uncapped
// one (the same draws), then children of the population instead of more random points. The
// seeds it is given (a search continued from earlier evaluations) are evaluated first.
TEST(HostSearch, CappedRandomFillLeavesRoomForChildren) {
  const Space s = test_space();
  const auto run = [&](size_t cap) {
    Objective obj{s, {}};
    EvalFn fn = [&](const Point& p) { return obj(p); };
    SearchOptions o;
    o.budget = 6;
    o.seed = 11;
    o.max_random_fill = cap;
    Point other = s.defaults();
    other[0] = 0;  // a second seed: one core
    return keys(run_search(s, fn, o, {s.defaults(), other}));
  };
  const auto uncapped = run(SIZE_MAX);
  const auto capped = run(2);
  ASSERT_EQ(uncapped.size(), 6u);
  ASSERT_EQ(capped.size(), 6u);
  EXPECT_EQ(std::vector<std::string>(capped.begin(), capped.begin() + 4),
            std::vector<std::string>(uncapped.begin(), uncapped.begin() + 4))
      << "seeds, then the same two random points";
  EXPECT_NE(capped, uncapped) << "the cap changed nothing: the last two are random points again";
}

TEST(ProfileMoves, FollowTheProfile) {
  const Space s = test_space();
  Evaluation e;
  e.valid = true;
  e.point = s.defaults();
  e.point[3] = 1;  // tile_cap 1024
  // Idle cores (blockDim 4 of 16) and MTE2-bound: finer split is impossible at the
  // smallest split, so the moves are longer tiles.
  e.cases.push_back({"c", 10, 4, "aiv_mte2_time", {{"aiv_mte2_ratio", 0.95}}});
  auto moves = profile_moves(s, e);
  bool tile_up = false;
  for (const auto& m : moves) {
    EXPECT_NE(m.point, e.point);
    if (m.point[3] == 2 || m.point[1] > e.point[1]) tile_up = true;
  }
  EXPECT_TRUE(tile_up);

  // A coarse split with idle cores: the split goes down.
  e.point[2] = 4;
  moves = profile_moves(s, e);
  bool split_down = false;
  for (const auto& m : moves) split_down |= m.point[2] == 3;
  EXPECT_TRUE(split_down);

  // Poor overlap without a buffer knob: longer tiles.
  e.cases[0] = {"c", 10, 16, "aiv_vec_time", {{"aiv_vec_ratio", 0.3}, {"aiv_mte2_ratio", 0.2}}};
  moves = profile_moves(s, e);
  bool longer = false;
  for (const auto& m : moves) longer |= m.point[3] == 2;
  EXPECT_TRUE(longer);

  // Launch-bound (cores busy 2 of 10 us) on all 16 cores: half the cores, and one step fewer.
  e.point[0] = static_cast<uint32_t>(s.dims[0].values.size() - 1);
  e.cases[0] = {"c", 10, 16, "aiv_mte2_time", {{"aiv_time", 2.0}, {"aiv_mte2_ratio", 0.9}}};
  moves = profile_moves(s, e);
  bool halved = false, fewer = false;
  for (const auto& m : moves) {
    halved |= s.dims[0].values[m.point[0]] == 8;
    fewer |= m.point[0] + 1 == e.point[0];
  }
  EXPECT_TRUE(halved);
  EXPECT_TRUE(fewer);
  // Not launch-bound (cores busy 9 of 10 us): no move reduces the cores.
  e.cases[0] = {"c", 10, 16, "aiv_mte2_time", {{"aiv_time", 9.0}, {"aiv_mte2_ratio", 0.9}}};
  for (const auto& m : profile_moves(s, e)) EXPECT_GE(m.point[0], e.point[0]);

  Evaluation bad;
  EXPECT_TRUE(profile_moves(s, bad).empty());
}

}  // namespace
