// Tunable knobs of a host tiling function.
//
// A tiling function asks for a value it would otherwise hard-code, and says which
// values are legal:
//
//     #include "tiling/tuning_knobs.h"
//     uint32_t splitBytes = tuning::Knob("split_unit_bytes", 32, {32, 64, 128, 256, 512},
//                                        tuning::Role::CoreSplit);
//     uint32_t tileCap = tuning::KnobRange("tile_cap", 0, 0, 16384, 1024, tuning::Role::TileSize);
//
// Without a tuner each call returns its default, so the same op_host source builds and
// behaves as before on a real NPU toolchain: the header is self-contained and reaches the
// tuner only through one weak C symbol, aoc_tuning_knob, which nothing defines outside the
// AscendOptimizer runtime (the weak reference then resolves to null).
//
// Inside the runtime (the aoc-harness child, src/eval/kernel_exec.cpp) that symbol
//   - records every declaration (name, default, domain, role), so running the tiling
//     function once tells the tuner its search space (nothing is repeated in op.toml);
//   - returns the tuner's value for the knob when the configuration being evaluated sets
//     one, else the default.
// A value outside the declared domain is never handed out: the runtime falls back to the
// default and the tuner only proposes values of the domain.
#pragma once
#include <cstdint>
#include <initializer_list>

extern "C" {
// kind: 0 = `values` is the list of legal values; 1 = `values` is {lo, hi, step}.
// Returns 1 and stores the tuner's value in *chosen when one is configured, else 0.
#if defined(__GNUC__) && defined(__ELF__)
__attribute__((weak, visibility("default")))
#endif
int aoc_tuning_knob(const char* name, long long defaultValue, int kind, const long long* values,
                    unsigned long count, int role, long long* chosen);
}

namespace tuning {

// What a knob controls; the tuner's profile-guided moves use it (an MTE2-bound kernel with
// short copies gets longer tiles, idle cores get a finer core split ...).
enum class Role : int {
    Other = 0,
    TileSize = 1,     // larger value -> longer tiles / more elements per loop iteration
    BufferCount = 2,  // larger value -> more buffers in flight (pipelining depth)
    CoreSplit = 3,    // larger value -> coarser core split (fewer cores may be used)
    TilingKey = 4,    // a choice between implementations; no order
};

namespace detail {
inline int64_t Ask(const char* name, int64_t defaultValue, int kind, const long long* values, unsigned long count,
                   Role role)
{
#if defined(__GNUC__) && defined(__ELF__)
    if (aoc_tuning_knob != nullptr) {
        long long chosen = defaultValue;
        if (aoc_tuning_knob(name, defaultValue, kind, values, count, static_cast<int>(role), &chosen) == 1) {
            return chosen;
        }
    }
#else
    (void)name; (void)kind; (void)values; (void)count; (void)role;
#endif
    return defaultValue;
}
}  // namespace detail

// A knob whose legal values are listed (the default should be one of them).
inline int64_t Knob(const char* name, int64_t defaultValue, std::initializer_list<int64_t> values,
                    Role role = Role::Other)
{
    long long buf[64];
    unsigned long n = 0;
    for (int64_t v : values) {
        if (n < sizeof(buf) / sizeof(buf[0])) {
            buf[n++] = v;
        }
    }
    return detail::Ask(name, defaultValue, 0, buf, n, role);
}

// A knob taking lo, lo + step, ..., up to hi.
inline int64_t KnobRange(const char* name, int64_t defaultValue, int64_t lo, int64_t hi, int64_t step = 1,
                         Role role = Role::Other)
{
    const long long range[3] = {lo, hi, step};
    return detail::Ask(name, defaultValue, 1, range, 3, role);
}

}  // namespace tuning
