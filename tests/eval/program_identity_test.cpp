// An executable's identity read from its file is the running program's own identity when the
// file is the running program; a file without a build-id is known by its content.
#include <gtest/gtest.h>

#include <fstream>

#include "build/program_identity.h"
#include "scratch_dir.h"


TEST(ProgramIdentity, TheRunningProgramsFileHasItsIdentity) {
  ASSERT_EQ(aoc::build::program_identity().rfind("build-id:", 0), 0u) << aoc::build::program_identity();
  EXPECT_EQ(aoc::build::executable_identity("/proc/self/exe"), aoc::build::program_identity());
}

TEST(ProgramIdentity, AFileWithoutABuildIdIsKnownByItsContent) {
  aoc::testing::ScratchDir d("identity");
  std::ofstream(d.path() / "tool") << "#!/bin/sh\necho one\n";
  const std::string one = aoc::build::executable_identity(d.path() / "tool");
  EXPECT_EQ(one.rfind("content:", 0), 0u) << one;
  std::ofstream(d.path() / "tool") << "#!/bin/sh\necho two\n";
  EXPECT_NE(aoc::build::executable_identity(d.path() / "tool"), one);
  EXPECT_THROW(aoc::build::executable_identity(d.path() / "missing"), std::exception);
}
