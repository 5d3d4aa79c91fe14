#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sim/sim_error.h"
#include "sim/soc.h"

using namespace aoc::sim;

TEST(SocLoader, LoadsEveryShippedSoc) {
  auto names = available_socs();
  ASSERT_GE(names.size(), 4u);
  for (const char* n : {"Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4"}) {
    Soc s = load_soc(n);
    EXPECT_EQ(s.name, n);
    EXPECT_GT(s.aiv_cores, 0);
    EXPECT_EQ(s.aiv_cores, 2 * s.aic_cores);
    EXPECT_GT(s.clock_ghz, 1.0);
    EXPECT_EQ(s.limits.ub_bytes, 196608u);
    EXPECT_FALSE(s.vector_costs.empty());
    EXPECT_NO_THROW(s.path("gm_to_ub"));
  }
}

TEST(SocLoader, B1Numbers) {
  Soc s = load_soc("Ascend910B1");
  EXPECT_EQ(s.aiv_cores, 48);
  EXPECT_EQ(s.aic_cores, 24);
  EXPECT_DOUBLE_EQ(s.clock_ghz, 1.85);
  EXPECT_EQ(s.l2_bytes, 201326592u);
  EXPECT_NEAR(s.hbm_read_bytes_per_cycle, 1500 / 1.85, 1e-9);
  EXPECT_DOUBLE_EQ(s.cube_macs_per_cycle.at("f16"), 4096);
  EXPECT_DOUBLE_EQ(s.path("gm_to_ub").burst_cycles, 8.3);
  EXPECT_DOUBLE_EQ(s.path("ub_to_gm").burst_cycles, 0);  // optional: no burst rate limit
  Soc b4 = load_soc("Ascend910B4");
  EXPECT_EQ(b4.l2_bytes, 100663296u);
  EXPECT_DOUBLE_EQ(b4.clock_ghz, 1.5);
}

TEST(SocLoader, UnknownNameListsAvailable) {
  try {
    load_soc("Ascend999Z");
    FAIL() << "expected an error";
  } catch (const SimError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("unknown SoC 'Ascend999Z'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Ascend910B1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Ascend910B4"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("dav-c220-vector"), std::string::npos) << "cost tables are not SoCs: " << msg;
  }
}

TEST(SocLoader, MissingKeyIsNamed) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "aoc_soc_test";
  fs::create_directories(dir);
  fs::path p = dir / "Broken.toml";
  std::ofstream(p) << "name = \"Broken\"\n[chip]\naiv_cores = 2\n";
  try {
    load_soc(p.string());
    FAIL() << "expected an error";
  } catch (const SimError& e) {
    EXPECT_NE(std::string(e.what()).find("chip.aic_cores"), std::string::npos) << e.what();
  }
  EXPECT_THROW(load_soc((dir / "nope.toml").string()), SimError);
}

// B1 with one line replaced: each value that breaks a rule of the SoC file is refused with the
// file, the key and what it must be.
TEST(SocLoader, OutOfRangeValuesAreNamed) {
  namespace fs = std::filesystem;
  const fs::path src = fs::path(AOC_SOURCE_DIR) / "socs";
  std::ifstream in(src / "Ascend910B1.toml");
  const std::string b1((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const fs::path dir = fs::temp_directory_path() / "aoc_soc_range_test";
  fs::create_directories(dir);
  fs::copy_file(src / "dav-c220-vector.toml", dir / "dav-c220-vector.toml", fs::copy_options::overwrite_existing);
  const fs::path p = dir / "Edited.toml";
  const auto error_of = [&](const std::string& line, const std::string& replacement) {
    std::string text = b1;
    const size_t at = text.find(line);
    EXPECT_NE(at, std::string::npos) << line;
    text.replace(at, line.size(), replacement);
    std::ofstream(p) << text;
    try {
      load_soc(p.string());
    } catch (const SimError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string file = p.string() + ": ";
  EXPECT_EQ(error_of("clock_ghz = 1.85", "clock_ghz = 0"), file + "chip.clock_ghz must be positive");
  EXPECT_EQ(error_of("dma_vector_stall = 1.0", "dma_vector_stall = 1.5"),
            file + "ub_banks.dma_vector_stall must be in [0, 1] (the share of a DMA's UB-side rate a vector "
                   "instruction on the same banks takes)");
  EXPECT_EQ(error_of("dispatch_us = 0.25", "dispatch_us = -1"), file + "launch.dispatch_us must not be negative");
  EXPECT_EQ(error_of("bytes_per_cycle = 46", "bytes_per_cycle = 0"), file + "paths.gm_to_ub.bytes_per_cycle must be positive");
  EXPECT_EQ(error_of("burst_cycles = 8.3", "burst_cycles = -1"), file + "paths.gm_to_ub.burst_cycles must not be negative");
  EXPECT_EQ(error_of("bytes_per_cycle = 46", "bytes_per_cycle = \"fast\""),
            file + "key 'paths.gm_to_ub.bytes_per_cycle' has the wrong type");
  EXPECT_EQ(error_of("aiv_cores = 48", "aiv_cores = -4"), file + "key 'chip.aiv_cores' must not be negative");
  EXPECT_EQ(error_of("queue_depth = 32", "queue_depth = 0"), file + "scalar.queue_depth must be at least 1");
  // The untouched file loads, with B1's numbers.
  EXPECT_EQ(error_of("clock_ghz = 1.85", "clock_ghz = 1.85"), "no error");
}

TEST(SocLoader, ExplicitPathAndHomeDirectory) {
  namespace fs = std::filesystem;
  fs::path src = fs::path(AOC_SOURCE_DIR) / "socs";
  Soc s = load_soc((src / "Ascend910B3.toml").string());
  EXPECT_EQ(s.aiv_cores, 40);
  setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 1);
  EXPECT_EQ(load_soc("Ascend910B2").aiv_cores, 48);
  unsetenv("ASCENDOPT_HOME");
}

// The sandboxed harness looks SoCs up by name from a working directory of its own, and a
// compiler cache may make __FILE__ relative: the search must not depend on either.
TEST(SocLoader, NameLookupIsIndependentOfTheWorkingDirectory) {
  namespace fs = std::filesystem;
  unsetenv("ASCENDOPT_HOME");
  const auto dirs = soc_search_dirs();
  ASSERT_FALSE(dirs.empty());
  for (const auto& d : dirs) EXPECT_TRUE(d.is_absolute()) << d;
  const fs::path cwd = fs::current_path();
  const fs::path elsewhere = fs::temp_directory_path() / "aoc_soc_cwd_test";
  fs::create_directories(elsewhere);
  fs::current_path(elsewhere);
  EXPECT_EQ(load_soc("Ascend910B1").name, "Ascend910B1");
  EXPECT_GE(available_socs().size(), 4u);
  fs::current_path(cwd);
}

TEST(SocLoader, HomeDirectoryComesFirstAndMayBeRelative) {
  namespace fs = std::filesystem;
  const fs::path home = fs::temp_directory_path() / "aoc_soc_home_test";
  fs::create_directories(home / "socs");
  const fs::path src = fs::path(AOC_SOURCE_DIR) / "socs";
  // A copy of B1 under a new name, with its cost table beside it, is found only through the home.
  std::ifstream in(src / "Ascend910B1.toml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.replace(text.find("name = \"Ascend910B1\""), 20, "name = \"Ascend910Zz\"");
  std::ofstream(home / "socs" / "Ascend910Zz.toml") << text;
  fs::copy_file(src / "dav-c220-vector.toml", home / "socs" / "dav-c220-vector.toml",
                fs::copy_options::overwrite_existing);
  const fs::path cwd = fs::current_path();
  fs::current_path(fs::temp_directory_path());
  setenv("ASCENDOPT_HOME", "aoc_soc_home_test", 1);
  const auto dirs = soc_search_dirs();
  EXPECT_EQ(dirs.front(), home / "socs");
  EXPECT_EQ(load_soc("Ascend910Zz").name, "Ascend910Zz");
  unsetenv("ASCENDOPT_HOME");
  fs::current_path(cwd);
  EXPECT_THROW(load_soc("Ascend910Zz"), SimError);
}

TEST(Curve, InterpolatesAndExtrapolates) {
  Curve c{{{128, 4}, {256, 4}, {512, 6}}};
  EXPECT_DOUBLE_EQ(c.at(1), 4);
  EXPECT_DOUBLE_EQ(c.at(384), 5);
  EXPECT_DOUBLE_EQ(c.at(1024), 10);
  EXPECT_DOUBLE_EQ(c.asymptotic_slope(), 2.0 / 256);
}
