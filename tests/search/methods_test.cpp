// The method registry: every name the optimizer, its help and the benchmark use comes from it.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "search/methods.h"

namespace {

using namespace aoc::search;

TEST(Methods, EveryMethodIsFoundByItsOwnNameOnly) {
  std::set<std::string> names;
  for (const Method& m : methods()) {
    EXPECT_TRUE(names.insert(m.name).second) << m.name << " is registered twice";
    EXPECT_EQ(find_method(m.name), &m);
    EXPECT_FALSE(m.description.empty()) << m.name;
    EXPECT_TRUE(m.run) << m.name;
  }
  EXPECT_EQ(find_method("evolve"), nullptr);
  EXPECT_EQ(find_method(""), nullptr);
}

TEST(Methods, TheListNamesEveryMethodInOrder) {
  EXPECT_EQ(method_names(), "optimize, best-of-n, openevolve, random, tune-only or rewrite-only");
  EXPECT_EQ(default_method().name, "optimize");
}

TEST(Methods, OnlyMethodsThatProposeKernelsUseAModel) {
  for (const char* name : {"optimize", "best-of-n", "openevolve", "rewrite-only"}) EXPECT_TRUE(find_method(name)->uses_model);
  for (const char* name : {"random", "tune-only"}) EXPECT_FALSE(find_method(name)->uses_model);
}

}  // namespace
