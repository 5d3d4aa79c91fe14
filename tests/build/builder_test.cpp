// The cached builder: a second build of the same sources does not run the
// compiler, an edit does, compile errors come back as file:line diagnostics, and
// several builds run at once within the builder's limit of compiler processes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "build/builder.h"
#include "build/op_build.h"
#include "package/op_package.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using namespace aoc::build;

namespace {

Builder make_builder(const fs::path& cache) {
  BuilderOptions o = default_builder_options();
  o.cache_dir = cache;
  return Builder(o);
}

}  // namespace

TEST(Builder, SecondBuildIsACacheHitAndAnEditRebuilds) {
  aoc::testing::ScratchDir src("build");
  aoc::testing::ScratchDir cache("build");
  std::ofstream(src.path() / "f.cpp") << "extern \"C\" int answer() { return 42; }\n";
  Builder b = make_builder(cache.path());
  BuildRequest req{"test", {{src.path() / "f.cpp", {}}}, {"-DX=1"}, {src.path()}};
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
  std::ofstream(src.path() / "f.cpp") << "extern \"C\" int answer() { return 43; }\n";
  EXPECT_FALSE(b.build(req).cache_hit);
  // A header beside the source is part of the key even though it is not a unit.
  const std::string before = b.cache_key(req);
  std::ofstream(src.path() / "f.h") << "#define Y 1\n";
  EXPECT_NE(b.cache_key(req), before);
}

TEST(Builder, CompileErrorsAreDiagnosticsWithFileAndLine) {
  aoc::testing::ScratchDir src("build");
  aoc::testing::ScratchDir cache("build");
  std::ofstream(src.path() / "bad.cpp") << "int ok() { return 1; }\n"
                                      << "int broken() { return undeclared_name; }\n";
  Builder b = make_builder(cache.path());
  BuildRequest req{"bad", {{src.path() / "bad.cpp", {}}}, {}, {}};
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

namespace {

// A library of a relocatable unit (op_host) and a kernel unit, in folders under `base`.
struct TwoUnitPackage {
  fs::path host, kernel;
  TwoUnitPackage(const fs::path& base, const std::string& kernel_body, const std::string& host_extra = "") {
    host = base / "op_host";
    kernel = base / "op_kernel";
    fs::create_directories(host);
    fs::create_directories(kernel);
    std::ofstream(host / "tiling.h") << "#define TILE 16\n";
    std::ofstream(host / "host.cpp") << "#include \"tiling.h\"\n" << host_extra
                                     << "extern \"C\" int tile() { return TILE; }\n"
                                     << "extern \"C\" const char* host_file() { return __FILE__; }\n";
    std::ofstream(kernel / "kernel.cpp") << kernel_body;
  }
  BuildRequest request() const {
    BuildRequest r{"two units", {}, {"-I" + host.string(), "-I" + kernel.string()}, {host, kernel}};
    r.units.push_back({host / "host.cpp", {}, {}, {}, /*relocatable=*/true});
    r.units.push_back({kernel / "kernel.cpp", {}});
    return r;
  }
};

// Two source folders and a build cache, each removed afterwards, and a builder on the cache.
struct TwoFolders {
  aoc::testing::ScratchDir a{"build"}, b{"build"}, cache{"build"};
  Builder builder = make_builder(cache.path());
};

}  // namespace

TEST(Builder, AnUnchangedRelocatableUnitIsReusedFromAnotherFolder) {
  TwoFolders folders;
  auto& [a, b, cache, builder] = folders;
  TwoUnitPackage first(a.path(), "extern \"C\" int k() { return 1; }\n");
  BuildResult r1 = builder.build(first.request());
  ASSERT_TRUE(r1.ok) << r1.log;
  EXPECT_EQ(r1.objects_reused, 0u);
  EXPECT_EQ(builder.compiler_runs(), 3u);  // both units (in parallel) and the link
  // The same op_host in another folder, with a different kernel: only the kernel compiles.
  TwoUnitPackage second(b.path(), "extern \"C\" int k() { return 2; }\n");
  BuildResult r2 = builder.build(second.request());
  ASSERT_TRUE(r2.ok) << r2.log;
  EXPECT_FALSE(r2.cache_hit);
  EXPECT_EQ(r2.objects_reused, 1u);
  EXPECT_EQ(builder.compiler_runs(), 5u);
  // A header of op_host's folder is part of the object's key.
  std::ofstream(b.path() / "op_host" / "tiling.h") << "#define TILE 32\n";
  std::ofstream(b.path() / "op_kernel" / "kernel.cpp") << "extern \"C\" int k() { return 3; }\n";
  BuildResult r3 = builder.build(second.request());
  ASSERT_TRUE(r3.ok) << r3.log;
  EXPECT_EQ(r3.objects_reused, 0u);
  EXPECT_EQ(builder.compiler_runs(), 8u);
  // The object names its sources by folder, not by path, so it is the same wherever it was built.
  std::ifstream so(r2.library, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(so)), std::istreambuf_iterator<char>());
  EXPECT_NE(bytes.find("op_host/host.cpp"), std::string::npos);
  EXPECT_EQ(bytes.find(a.path().string()), std::string::npos);
}

TEST(Builder, TheSameSourcesInAnotherFolderAreTheSameBuild) {
  TwoFolders folders;
  auto& [a, b, cache, builder] = folders;
  const std::string kernel = "extern \"C\" int k() { return 1; }\n";
  TwoUnitPackage first(a.path(), kernel);
  BuildResult r1 = builder.build(first.request());
  ASSERT_TRUE(r1.ok) << r1.log;
  const uint64_t runs = builder.compiler_runs();
  TwoUnitPackage second(b.path(), kernel);
  BuildResult r2 = builder.build(second.request());
  ASSERT_TRUE(r2.ok) << r2.log;
  EXPECT_TRUE(r2.cache_hit);
  EXPECT_EQ(builder.compiler_runs(), runs);
  EXPECT_EQ(r2.library, r1.library);
  // One more byte anywhere in a folder is another build.
  std::ofstream(second.host / "notes.txt") << "x";
  EXPECT_FALSE(builder.build(second.request()).cache_hit);
}

TEST(Builder, AStagedBuildsErrorsNameTheRequestersFiles) {
  TwoFolders folders;
  auto& [a, b, cache, builder] = folders;
  const std::string broken = "int k() {\n  return undeclared_in_kernel;\n}\n";
  TwoUnitPackage first(a.path(), broken);
  TwoUnitPackage second(b.path(), broken);
  for (const TwoUnitPackage* p : {&first, &second}) {
    BuildResult r = builder.build(p->request());
    ASSERT_FALSE(r.ok);
    const auto errs = errors_only(r.diagnostics);
    ASSERT_FALSE(errs.empty()) << r.log;
    EXPECT_EQ(fs::path(errs[0].file), p->kernel / "kernel.cpp") << r.log;
    EXPECT_EQ(errs[0].line, 2);
    EXPECT_EQ(r.log.find((cache.path() / "sources").string()), std::string::npos) << r.log;
  }
  // The second answer came from the first's cached failure, in the second's names.
  EXPECT_EQ(builder.compiler_runs(), 2u);  // the two units of the first build, no link
}

TEST(Builder, ARelocatableUnitThatReadsAnotherFolderIsNotReused) {
  TwoFolders folders;
  auto& [a, b, cache, builder] = folders;
  const std::string include_kernel = "#include \"kernel_consts.h\"\n";
  TwoUnitPackage first(a.path(), "extern \"C\" int k() { return 1; }\n", include_kernel);
  std::ofstream(first.kernel / "kernel_consts.h") << "#define K 1\n";
  ASSERT_TRUE(builder.build(first.request()).ok);
  TwoUnitPackage second(b.path(), "extern \"C\" int k() { return 2; }\n", include_kernel);
  std::ofstream(second.kernel / "kernel_consts.h") << "#define K 2\n";
  BuildResult r = builder.build(second.request());
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.objects_reused, 0u);  // its object depends on op_kernel/, which its key does not cover
}

TEST(Builder, UnitsCompiledInParallelReportEveryUnitsErrors) {
  aoc::testing::ScratchDir a("build");
  aoc::testing::ScratchDir cache("build");
  Builder builder = make_builder(cache.path());
  TwoUnitPackage p(a.path(), "int k() { return undeclared_in_kernel; }\n", "int h() { return undeclared_in_host; }\n");
  BuildResult r = builder.build(p.request());
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.log.find("undeclared_in_host"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("undeclared_in_kernel"), std::string::npos) << r.log;
  EXPECT_NE(r.first_error().find("host.cpp"), std::string::npos);  // units in order
}

TEST(ObjectCache, DepfilesAndRelocatedFlags) {
  const auto deps = depfile_dependencies("/t/u0.o: /a/host.cpp /a/my\\ tiling.h \\\n /inc/x.h\n");
  ASSERT_EQ(deps.size(), 3u);
  EXPECT_EQ(deps[1], fs::path("/a/my tiling.h"));
  EXPECT_TRUE(dependencies_within(deps, {"/a", "/inc"}));
  EXPECT_FALSE(dependencies_within(deps, {"/a"}));
  EXPECT_FALSE(dependencies_within({"/ab/x.h"}, {"/a"}));  // a prefix of the name is not the folder
  EXPECT_TRUE(dependencies_within({"/a/../a/x.h"}, {"/a"}));
  EXPECT_EQ(relocated("-I/p/op/op_host", {"/p/op", "/p/op/op_host"}), "-I@dir1");
  EXPECT_EQ(relocated("-include /p/h/t.h", {"/p/h"}), "-include @dir0/t.h");
}

namespace {

// A compiler wrapper that notes how many of its runs were under way when each started (a
// folder per running process), sleeping a little so that runs meant to overlap do.
fs::path counting_compiler(const fs::path& dir) {
  const fs::path script = dir / "cxx.sh";
  std::ofstream(script) << "#!/bin/sh\n"
                        << "mkdir \"" << dir.string() << "/running.$$\"\n"
                        // Counted from the glob itself: `ls` on its names could race a run's rmdir
                        // and print an error that would read as the compiler's
                        // (in a subshell, which keeps the compiler's own arguments).
                        << "(set -- \"" << dir.string() << "\"/running.*; echo $# >> \"" << dir.string()
                        << "/overlap\")\n"
                        << "sleep 0.3\n"
                        << "g++ \"$@\"\n"
                        << "rc=$?\n"
                        << "rmdir \"" << dir.string() << "/running.$$\"\n"
                        << "exit $rc\n";
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

int most_at_once(const fs::path& dir) {
  std::ifstream in(dir / "overlap");
  int most = 0;
  for (int n; in >> n;) most = std::max(most, n);
  return most;
}

std::vector<BuildRequest> three_requests(const fs::path& src, bool second_broken) {
  std::vector<BuildRequest> out;
  for (int i = 0; i < 3; ++i) {
    const fs::path dir = src / ("u" + std::to_string(i));
    fs::create_directories(dir);
    std::ofstream(dir / "f.cpp") << "extern \"C\" int answer() { return "
                                 << (second_broken && i == 1 ? "undeclared_name" : std::to_string(i)) << "; }\n";
    out.push_back(BuildRequest{"unit " + std::to_string(i), {{dir / "f.cpp", {}}}, {}, {dir}});
  }
  return out;
}

}  // namespace

TEST(Builder, BuildAllBuildsAtOnceWithinItsJobLimitAndGivesWhatBuildGives) {
  for (const size_t jobs : {1u, 2u}) {
    aoc::testing::ScratchDir src("build");
    aoc::testing::ScratchDir cache("build");
    aoc::testing::ScratchDir log("build");
    BuilderOptions o = default_builder_options();
    o.cache_dir = cache.path();
    o.compiler = counting_compiler(log.path()).string();
    o.jobs = jobs;
    o.sandbox = false;  // the stand-in compiler logs into a folder of the test
    Builder b(o);
    fs::remove(log.path() / "overlap");  // the compiler's identity was asked for: not a build
    const std::vector<BuildRequest> reqs = three_requests(src.path(), true);
    const std::vector<BuildResult> all = b.build_all(reqs);
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(b.compiler_runs(), 5u) << "three compilations, two links (the broken unit is not linked)";
    EXPECT_EQ(most_at_once(log.path()), static_cast<int>(jobs)) << "compiler processes at once with jobs = " << jobs;
    // Results in request order, each as a build of its own request gives it (from the cache now).
    for (size_t i = 0; i < reqs.size(); ++i) {
      const BuildResult one = b.build(reqs[i]);
      EXPECT_TRUE(one.cache_hit) << i;
      EXPECT_EQ(all[i].ok, i != 1) << i << ": " << all[i].log;
      EXPECT_EQ(one.ok, all[i].ok) << i;
      EXPECT_EQ(one.library, all[i].library) << i;
      EXPECT_EQ(one.first_error(), all[i].first_error()) << i;
    }
    EXPECT_NE(all[1].first_error().find("undeclared_name"), std::string::npos) << all[1].log;
    EXPECT_EQ(b.compiler_runs(), 5u);
  }
}

// op_host is compiled once per candidate, as the device build compiles it, not once per dtype
// variant: the variants built together wait for the first one's object and take it from the
// cache, and only their kernels (which see the DTYPE_ macros) compile.
TEST(Builder, TheDtypeVariantsOfAPackageShareOneOpHostObject) {
  aoc::testing::ScratchDir cache("build");
  Builder builder = make_builder(cache.path());
  const aoc::package::OpPackage p = aoc::package::load_op_package(fs::path(AOC_SOURCE_DIR) / "ops" / "elementwise" / "neg");
  ASSERT_EQ(p.variant_count(), 3u) << "neg builds fp16, bf16 and fp32";
  std::vector<BuildRequest> reqs;
  for (size_t v = 0; v < p.variant_count(); ++v)
    reqs.push_back(kernel_build_request(p, v, SourceDirs::of(p), builder.options().root));
  const std::vector<BuildResult> all = builder.build_all(reqs);
  size_t reused = 0;
  for (const auto& r : all) {
    ASSERT_TRUE(r.ok) << r.log;
    reused += r.objects_reused;
  }
  EXPECT_EQ(reused, 2u) << "op_host compiled more than once for the three variants";
  // op_host starts with the host API precompiled (and its object is still cached: the reuse above).
  EXPECT_TRUE(fs::exists(reqs[0].units.front().precompiled)) << reqs[0].units.front().source;
  bool host_pch = false;
  for (const auto& e : fs::recursive_directory_iterator(cache.path() / "pch"))
    host_pch = host_pch || e.path().filename() == "precompiled.h.gch";
  EXPECT_TRUE(host_pch) << "no precompiled host header in " << (cache.path() / "pch");
  EXPECT_NE(all[0].library, all[1].library);
  EXPECT_NE(all[1].library, all[2].library);
  // The DTYPE_ macros reach the kernel unit only.
  for (const auto& u : reqs[0].units) {
    const bool host = u.source.parent_path().filename() == "op_host";
    const bool has_dtype = std::any_of(u.flags.begin(), u.flags.end(), [](const std::string& f) { return f.rfind("-DDTYPE_", 0) == 0; });
    EXPECT_EQ(has_dtype, !host) << u.source;
  }
  for (const auto& f : reqs[0].flags) EXPECT_NE(f.rfind("-DDTYPE_", 0), 0u) << f << " is given to op_host too";
}
