// The cached builder: a second build of the same sources does not run the
// compiler, an edit does, and compile errors come back as file:line diagnostics.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "eval/builder.h"

namespace fs = std::filesystem;
using namespace aoc::eval;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("aoc_build_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  static inline int n = 0;
};

Builder make_builder(const fs::path& cache) {
  BuilderOptions o = default_builder_options();
  o.cache_dir = cache;
  return Builder(o);
}

}  // namespace

TEST(Builder, SecondBuildIsACacheHitAndAnEditRebuilds) {
  TempDir src, cache;
  std::ofstream(src.path / "f.cpp") << "extern \"C\" int answer() { return 42; }\n";
  Builder b = make_builder(cache.path);
  BuildRequest req{"test", {{src.path / "f.cpp", {}}}, {"-DX=1"}, {src.path}};
  BuildResult r1 = b.build(req);
  ASSERT_TRUE(r1.ok) << r1.log;
  EXPECT_FALSE(r1.cache_hit);
  const uint64_t runs = b.compiler_runs();
  EXPECT_EQ(runs, 2u);  // compile + link
  BuildResult r2 = b.build(req);
  ASSERT_TRUE(r2.ok);
  EXPECT_TRUE(r2.cache_hit);
  EXPECT_EQ(b.compiler_runs(), runs);
  EXPECT_EQ(r2.library, r1.library);
  // A different flag or an edited source is a different key.
  req.flags = {"-DX=2"};
  EXPECT_FALSE(b.build(req).cache_hit);
  std::ofstream(src.path / "f.cpp") << "extern \"C\" int answer() { return 43; }\n";
  EXPECT_FALSE(b.build(req).cache_hit);
  // A header beside the source is part of the key even though it is not a unit.
  const std::string before = b.cache_key(req);
  std::ofstream(src.path / "f.h") << "#define Y 1\n";
  EXPECT_NE(b.cache_key(req), before);
}

TEST(Builder, CompileErrorsAreDiagnosticsWithFileAndLine) {
  TempDir src, cache;
  std::ofstream(src.path / "bad.cpp") << "int ok() { return 1; }\n"
                                      << "int broken() { return undeclared_name; }\n";
  Builder b = make_builder(cache.path);
  BuildRequest req{"bad", {{src.path / "bad.cpp", {}}}, {}, {}};
  BuildResult r = b.build(req);
  ASSERT_FALSE(r.ok);
  auto errs = errors_only(r.diagnostics);
  ASSERT_FALSE(errs.empty()) << r.log;
  EXPECT_EQ(fs::path(errs[0].file).filename(), "bad.cpp");
  EXPECT_EQ(errs[0].line, 2);
  EXPECT_NE(errs[0].message.find("undeclared_name"), std::string::npos);
  EXPECT_NE(r.first_error().find("bad.cpp:2:"), std::string::npos);
  // The failure is cached: asking again does not run the compiler.
  const uint64_t runs = b.compiler_runs();
  BuildResult again = b.build(req);
  EXPECT_FALSE(again.ok);
  EXPECT_TRUE(again.cache_hit);
  EXPECT_EQ(b.compiler_runs(), runs);
  EXPECT_EQ(errors_only(again.diagnostics).size(), errs.size());
}

TEST(Diagnostics, ParsesCompilerAndLinkerLines) {
  auto ds = parse_diagnostics(
      "k.cpp: In function 'void f()':\n"
      "k.cpp:12:5: error: 'x' was not declared in this scope\n"
      "   12 |     x = 1;\n"
      "k.cpp:3:1: note: declared here\n"
      "/usr/bin/ld: u0.o: in function `f':\n"
      "k.cpp:(.text+0x5): undefined reference to `g()'\n"
      "collect2: error: ld returned 1 exit status\n");
  ASSERT_EQ(ds.size(), 4u);
  EXPECT_EQ(ds[0].line, 12);
  EXPECT_EQ(ds[0].column, 5);
  EXPECT_EQ(ds[1].severity, "note");
  EXPECT_EQ(ds[2].severity, "linker");
  EXPECT_NE(ds[2].message.find("g()"), std::string::npos);
  EXPECT_EQ(errors_only(ds).size(), 3u);
}
