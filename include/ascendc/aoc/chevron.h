// Kernel launches in the device's launch syntax, `kernel<<<blockDim, l2ctrl, stream>>>(args...)`,
// as single-file kernel programs write them. The program build rewrites each launch to
// `kernel * ::aoc::runtime::chevron(blockDim, l2ctrl, stream)(args...)` (build/program_source.h);
// operator* runs the kernel on blockDim simulated vector cores right away (streams are
// synchronous here) and hands the run to the launch observer (the program host times it).
#pragma once
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "aoc/launch.h"

namespace aoc::runtime {

template <class... A> struct PendingLaunch {
  uint32_t block_dim;
  void* stream;
  std::tuple<A...> args;
};

struct Chevron {
  uint32_t block_dim;
  void* stream;
  template <class... A> PendingLaunch<std::decay_t<A>...> operator()(A&&... a) const {
    return {block_dim, stream, std::tuple<std::decay_t<A>...>(std::forward<A>(a)...)};
  }
};

// `l2ctrl` (nullptr or 0 in every launch seen) selects an L2 control block the CPU runtime has not.
inline Chevron chevron(uint32_t block_dim, const void* /*l2ctrl*/, void* stream) { return {block_dim, stream}; }

// The launch configuration of a chevron launch and where its run goes.
LaunchConfig chevron_config(uint32_t block_dim);
void finish_chevron_launch(const void* kernel, void* stream, LaunchResult run);

template <class... P, class... A> void operator*(void (*kernel)(P...), PendingLaunch<A...>&& p) {
  static_assert(sizeof...(P) == sizeof...(A), "kernel<<<...>>>(args): the argument count differs from the kernel's");
  LaunchResult run = launch(chevron_config(p.block_dim), [&] {
    std::apply([&](auto&... a) { kernel(static_cast<P>(a)...); }, p.args);
  });
  finish_chevron_launch(reinterpret_cast<const void*>(kernel), p.stream, std::move(run));
}

}  // namespace aoc::runtime

// The program's main, renamed by the build (-Dmain=aoc_program_main): declared with C linkage so
// the program host finds it by name; a main() without arguments keeps C++ linkage.
extern "C" int aoc_program_main(int, char**);
