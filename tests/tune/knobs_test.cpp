// The knob header: defaults without a tuner (also in a program with no registry at all),
// the tuner's values through the registry, and the declarations it records.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "eval/kernel_exec.h"
#include "tiling/tuning_knobs.h"

namespace {

using aoc::eval::KnobDecl;

int64_t tile_knob() { return tuning::Knob("tile_cap", 0, {0, 1024, 2048}, tuning::Role::TileSize); }
int64_t split_knob() { return tuning::KnobRange("split", 32, 32, 512, 32, tuning::Role::CoreSplit); }

TEST(TuningKnobs, DefaultsWhenNoValueIsSet) {
  aoc::eval::set_knob_values({});
  EXPECT_EQ(tile_knob(), 0);
  EXPECT_EQ(split_knob(), 32);
  const auto d = aoc::eval::knob_declarations();
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].name, "tile_cap");
  EXPECT_FALSE(d[0].is_range);
  EXPECT_EQ(d[0].values, (std::vector<int64_t>{0, 1024, 2048}));
  EXPECT_EQ(d[0].role, 1);
  EXPECT_EQ(d[1].name, "split");
  EXPECT_TRUE(d[1].is_range);
  EXPECT_EQ(d[1].values, (std::vector<int64_t>{32, 512, 32}));
  EXPECT_EQ(d[1].default_value, 32);
}

TEST(TuningKnobs, ValuesFromTheRegistryAndDomainChecks) {
  aoc::eval::set_knob_values({{"tile_cap", 2048}, {"split", 96}});
  EXPECT_EQ(tile_knob(), 2048);
  EXPECT_EQ(split_knob(), 96);
  EXPECT_EQ(aoc::eval::knob_domain_error(), "");
  // Asking again does not declare the knob twice.
  EXPECT_EQ(tile_knob(), 2048);
  EXPECT_EQ(aoc::eval::knob_declarations().size(), 2u);

  aoc::eval::set_knob_values({{"tile_cap", 3000}, {"split", 100}});
  EXPECT_EQ(tile_knob(), 0);  // outside the list: the default, and the error is kept
  EXPECT_EQ(split_knob(), 32);  // off the step grid
  EXPECT_NE(aoc::eval::knob_domain_error().find("tile_cap = 3000"), std::string::npos);
  aoc::eval::set_knob_values({});
}

TEST(TuningKnobs, AllowsMatchesTheDeclaredDomain) {
  KnobDecl set{"a", 1, false, {1, 4, 16}, 0};
  KnobDecl range{"b", 0, true, {0, 100, 25}, 0};
  EXPECT_TRUE(aoc::eval::knob_allows(set, 4));
  EXPECT_FALSE(aoc::eval::knob_allows(set, 5));
  EXPECT_TRUE(aoc::eval::knob_allows(range, 75));
  EXPECT_FALSE(aoc::eval::knob_allows(range, 125));
  EXPECT_FALSE(aoc::eval::knob_allows(range, 30));
}

// A tiling source built with the header alone (as on a real NPU toolchain) links without
// any registry and returns its defaults.
TEST(TuningKnobs, BuildsAndRunsWithoutTheRuntime) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("aoc-knob-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  {
    std::ofstream src(dir / "main.cpp");
    src << "#include \"tiling/tuning_knobs.h\"\n"
           "int main() {\n"
           "  int64_t a = tuning::Knob(\"tile_cap\", 4096, {1024, 4096}, tuning::Role::TileSize);\n"
           "  int64_t b = tuning::KnobRange(\"bufs\", 2, 1, 4, 1, tuning::Role::BufferCount);\n"
           "  return (a == 4096 && b == 2) ? 0 : 1;\n"
           "}\n";
  }
  const std::string inc = std::string(AOC_SOURCE_DIR) + "/include/ascendc";
  const std::string cmd = "g++ -std=c++17 -I" + inc + " " + (dir / "main.cpp").string() + " -o " +
                          (dir / "prog").string() + " && " + (dir / "prog").string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  fs::remove_all(dir);
}

}  // namespace
