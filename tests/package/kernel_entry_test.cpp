// Finding an operator's kernel entry for import: written out (with or without a space in
// `extern"C"`), or produced by the kernel's own macros, nested, with `##` pasting; not inside
// comments or macros never invoked.
#include <gtest/gtest.h>

#include <string>

#include "package/kernel_entry.h"

namespace {

using aoc::package::kernel_entries_in;

std::string symbols(const std::string& src, const std::string& headers = "") {
  std::string s;
  for (const auto& k : kernel_entries_in(src, "k.cpp", headers))
    s += (s.empty() ? "" : " ") + k.symbol + "/" + std::to_string(k.params) + (k.from_macro ? "m" : "");
  return s;
}

TEST(KernelEntry, WrittenOut) {
  EXPECT_EQ(symbols("extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,\n"
                    "    GM_ADDR workspace, GM_ADDR tiling) {}"),
            "add_custom/5");
  EXPECT_EQ(symbols("extern\"C\" __global__ __aicore__ void greater_equal(GM_ADDR a, GM_ADDR b) {}"), "greater_equal/2");
}

TEST(KernelEntry, CommentsHoldNoEntry) {
  EXPECT_EQ(symbols("// extern \"C\" __global__ __aicore__ void old(GM_ADDR x) {}\n"
                    "/* extern \"C\" __global__ __aicore__ void older(GM_ADDR x) {} */\n"),
            "");
}

TEST(KernelEntry, ProducedByNestedMacrosWithPasting) {
  const std::string src =
      "#define KERNEL_BODY(T) { run<T>(x, y); }\n"
      "#define DECLARE_ONE(NAME, T) \\\n"
      "  extern \"C\" __global__ __aicore__ void NAME##_##T(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) \\\n"
      "  KERNEL_BODY(T)\n"
      "#define DECLARE_ALL(T) DECLARE_ONE(rope, T)\n"
      "DECLARE_ALL(half)\n"
      "DECLARE_ALL(float)\n";
  EXPECT_EQ(symbols(src), "rope_half/4m rope_float/4m");
}

TEST(KernelEntry, MacrosFromTheFolderHeadersAndOnlyWhenInvoked) {
  const std::string header = "#define ENTRY(name) extern \"C\" __global__ __aicore__ void name(GM_ADDR x, GM_ADDR tiling)\n";
  EXPECT_EQ(symbols("ENTRY(softmax_custom) { }\n", header), "softmax_custom/2m");
  EXPECT_EQ(symbols("int x = 1;\n", header), "");
}

}  // namespace
