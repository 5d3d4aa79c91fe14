// A golden for the add package that misbehaves as $AOC_HOSTILE_GOLDEN says: "segv"
// dereferences null, "throw" throws a non-standard exception (std::terminate, SIGABRT),
// "exit" ends the process, "spin" never returns; anything else computes z = x + y.
// One build serves every behaviour, so the tests pay for one package copy.
#include <cstdlib>
#include <cstring>

#include "aoc_golden.h"

using golden_api::real;

extern "C" int aoc_golden(AocGoldenCall* raw) {
  const char* mode = std::getenv("AOC_HOSTILE_GOLDEN");
  if (mode != nullptr && std::strcmp(mode, "segv") == 0) {
    volatile int* nowhere = nullptr;
    *nowhere = 1;
  }
  if (mode != nullptr && std::strcmp(mode, "throw") == 0) throw 42;
  if (mode != nullptr && std::strcmp(mode, "exit") == 0) std::exit(0);
  if (mode != nullptr && std::strcmp(mode, "spin") == 0)
    for (volatile unsigned long k = 0;; k = k + 1) {}
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  const AocGoldenTensor& y = call.input("y");
  AocGoldenTensor& z = call.output("z");
  for (int64_t i = 0; i < z.size; ++i) z.data[i] = static_cast<real>(x.data[i]) + static_cast<real>(y.data[i]);
  return 0;
}
