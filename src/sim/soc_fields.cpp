#include "sim/soc_fields.h"

#include <cstdint>
#include <span>
#include <type_traits>
#include <variant>

#include "sim/sim_error.h"

namespace aoc::sim {

namespace {

// A required value of type T (int, uint32_t, uint64_t, double or std::string) from `node`;
// integers must not be negative. Errors name the file and the key.
template <typename T>
T need_value(toml::node_view<const toml::node> node, const std::string& key, const std::string& file) {
  if (!node) throw SimError(file + ": missing key '" + key + "'");
  if constexpr (std::is_floating_point_v<T>) {
    if (auto v = node.value<double>()) return static_cast<T>(*v);
  } else if constexpr (std::is_integral_v<T>) {
    if (auto v = node.value<int64_t>()) {
      if (*v < 0) throw SimError(file + ": key '" + key + "' must not be negative");
      return static_cast<T>(*v);
    }
  } else {
    if (auto v = node.value<std::string>()) return *v;
  }
  throw SimError(file + ": key '" + key + "' has the wrong type");
}

}  // namespace

std::string need_string(const toml::table& t, const std::string& dotted, const std::string& file) {
  return need_value<std::string>(t.at_path(dotted), dotted, file);
}

namespace {

// What a value must satisfy besides its type.
enum class Check { Any, Positive, NonNegative, AtLeastOne, Fraction };
// A value of the file kept in another unit.
enum class Unit { AsWritten, GbpsToBytesPerCycle };
// An optional key that is absent leaves the struct's default.
enum class Presence { Required, Optional };

template <typename S>
using Member = std::variant<int S::*, uint32_t S::*, uint64_t S::*, double S::*, std::string S::*>;

template <typename S>
struct Field {
  const char* key;  // dotted, below the table read
  Member<S> member;
  Check check = Check::Any;
  Presence presence = Presence::Required;
  Unit unit = Unit::AsWritten;
  const char* why = "";  // what the value means, when the check alone does not say
};

constexpr auto kRequired = Presence::Required;
constexpr auto kOptional = Presence::Optional;

// In the order of the SoC file; the clock comes before the bandwidths converted with it.
const Field<Soc> kSocFields[] = {
    {"name", &Soc::name},
    {"chip.aiv_cores", &Soc::aiv_cores},
    {"chip.aic_cores", &Soc::aic_cores},
    {"chip.clock_ghz", &Soc::clock_ghz, Check::Positive},
    {"chip.l2_bytes", &Soc::l2_bytes},
    // S3 names 128/256/512 B lines; GM requests are handled at 512 B granularity.
    {"chip.l2_line_bytes", &Soc::l2_line_bytes, Check::Any, kOptional},
    {"chip.hbm_bytes", &Soc::hbm_bytes},
    // Bandwidths are written in GB/s (as the sources quote them).
    {"bandwidth.hbm_read_gbps", &Soc::hbm_read_bytes_per_cycle, Check::Any, kRequired, Unit::GbpsToBytesPerCycle},
    {"bandwidth.l2_write_gbps", &Soc::l2_write_bytes_per_cycle, Check::Any, kRequired, Unit::GbpsToBytesPerCycle},
    {"bandwidth.rw_mix_efficiency", &Soc::rw_mix_efficiency},
    {"burst.granule_bytes", &Soc::burst_granule_bytes},
    {"ub_banks.block_bytes", &Soc::ub_block_bytes},
    {"ub_banks.bank_groups", &Soc::ub_bank_groups},
    {"ub_banks.bank_id_shift", &Soc::ub_bank_id_shift},
    {"ub_banks.conflict_cycles_per_beat", &Soc::bank_conflict_cycles_per_beat},
    {"ub_banks.dma_vector_stall", &Soc::dma_vector_bank_stall, Check::Fraction, kRequired, Unit::AsWritten,
     "the share of a DMA's UB-side rate a vector instruction on the same banks takes"},
    {"launch.dispatch_us", &Soc::launch_dispatch_us, Check::NonNegative},
    {"launch.block_dispatch_us", &Soc::launch_block_dispatch_us, Check::NonNegative},
    {"launch.block_start_cycles", &Soc::launch_block_start_cycles, Check::NonNegative},
    {"launch.block_end_cycles", &Soc::launch_block_end_cycles, Check::NonNegative},
    {"launch.end_response_us", &Soc::launch_end_response_us, Check::NonNegative},
    {"launch.per_wave_us", &Soc::launch_per_wave_us, Check::NonNegative},
    {"scalar.cycles_per_op", &Soc::scalar_cycles_per_op},
    // SoC files written before kernel blocks were counted lack it: read_soc_fields makes it
    // cost a block like one op.
    {"scalar.cycles_per_block", &Soc::scalar_cycles_per_block, Check::Any, kOptional},
    {"scalar.access_cycles", &Soc::scalar_access_cycles},
    {"scalar.issue_cycles", &Soc::issue_cycles},
    {"scalar.queue_depth", &Soc::queue_depth, Check::AtLeastOne},
    {"sync.set_flag_cycles", &Soc::set_flag_cycles},
    {"sync.wait_flag_cycles", &Soc::wait_flag_cycles},
    {"sync.barrier_cycles", &Soc::barrier_cycles},
    {"sync.sync_all_cycles", &Soc::sync_all_cycles},
    {"vector.bytes_per_cycle", &Soc::vector_bytes_per_cycle},
    {"vector.floor_cycles", &Soc::vector_floor_cycles},
    {"cube.mmad_overhead_cycles", &Soc::mmad_overhead_cycles},
};

const Field<CoreLimits> kMemoryFields[] = {
    {"memory.ub_bytes", &CoreLimits::ub_bytes},
    {"memory.l1_bytes", &CoreLimits::l1_bytes},
    {"memory.l0a_bytes", &CoreLimits::l0a_bytes},
    {"memory.l0b_bytes", &CoreLimits::l0b_bytes},
    {"memory.l0c_bytes", &CoreLimits::l0c_bytes},
    {"memory.bt_bytes", &CoreLimits::bt_bytes},
    {"memory.fb_bytes", &CoreLimits::fb_bytes},
    {"memory.max_pipe_buffers", &CoreLimits::max_pipe_buffers},
    {"memory.event_ids", &CoreLimits::event_ids},
};

// Below [paths.<name>].
const Field<DmaPath> kPathFields[] = {
    {"bytes_per_cycle", &DmaPath::core_bytes_per_cycle, Check::Positive},
    {"issue_cycles", &DmaPath::issue_cycles},
    {"latency_cycles", &DmaPath::latency_cycles},
    {"burst_cycles", &DmaPath::burst_cycles, Check::NonNegative, kOptional},
};

// What a value failing its check must be instead, or nothing when it passes.
const char* failed(Check check, double v) {
  switch (check) {
    case Check::Any: return nullptr;
    case Check::Positive: return v <= 0 ? "must be positive" : nullptr;
    case Check::NonNegative: return v < 0 ? "must not be negative" : nullptr;
    case Check::AtLeastOne: return v < 1 ? "must be at least 1" : nullptr;
    case Check::Fraction: return !(v >= 0 && v <= 1) ? "must be in [0, 1]" : nullptr;
  }
  return nullptr;
}

// Reads the rows of `fields` from `t` into `out`; `prefix` is the path of `t` in the file, for
// the messages. A value in GB/s becomes bytes per cycle at *clock_ghz, read by an earlier row.
template <typename S>
void read_fields(const toml::table& t, const std::string& prefix, std::span<const Field<S>> fields, S& out,
                 const std::string& file, const double* clock_ghz = nullptr) {
  for (const Field<S>& f : fields) {
    const auto node = t.at_path(f.key);
    if (!node && f.presence == Presence::Optional) continue;
    const std::string key = prefix + f.key;
    std::visit(
        [&](auto member) {
          using T = std::remove_reference_t<decltype(out.*member)>;
          T v = need_value<T>(node, key, file);
          if constexpr (std::is_arithmetic_v<T>) {
            if (const char* expected = failed(f.check, double(v)))
              throw SimError(file + ": " + key + " " + expected + (*f.why ? std::string(" (") + f.why + ")" : ""));
            // The same product as `gbps * (1 / clock)` always gave, to the last bit.
            if constexpr (std::is_floating_point_v<T>)
              if (f.unit == Unit::GbpsToBytesPerCycle) v = v * (1.0 / *clock_ghz);
          }
          out.*member = v;
        },
        f.member);
  }
}

}  // namespace

void read_soc_fields(const toml::table& t, const std::string& file, Soc& s) {
  read_fields(t, "", std::span<const Field<Soc>>(kSocFields), s, file, &s.clock_ghz);
  read_fields(t, "", std::span<const Field<CoreLimits>>(kMemoryFields), s.limits, file);
  if (!t.at_path("scalar.cycles_per_block")) s.scalar_cycles_per_block = s.scalar_cycles_per_op;
}

DmaPath read_dma_path(const toml::table& pt, const std::string& key, const std::string& file) {
  DmaPath p;
  read_fields(pt, "paths." + key + ".", std::span<const Field<DmaPath>>(kPathFields), p, file);
  return p;
}

}  // namespace aoc::sim
