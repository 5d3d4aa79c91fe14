// One experience-bank entry: what removing (or, for imported text, describing) one
// optimization did to one kernel, with the context needed to judge whether it carries over to
// another kernel (docs/bank.md). Plain data plus its JSON form, which is also the export
// format that `ascendopt bank import` reads back.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aoc::bank {

// positive: removing the optimization slowed the kernel by more than the threshold;
// negative: it did not; text: imported text-only advice (no measurement).
inline constexpr const char* kPositive = "positive";
inline constexpr const char* kNegative = "negative";
inline constexpr const char* kText = "text";
inline constexpr const char* kUnclassified = "unclassified";

// Speedup of the optimized kernel over the rewound one on one public case.
struct CaseEffect {
  std::string name;
  double optimized_us = 0, rewound_us = 0;
  double speedup() const { return optimized_us > 0 ? rewound_us / optimized_us : 0; }
};

// What the kernel looks like to the simulator and the package: compared between an entry's
// source kernel and a target kernel when ranking.
struct Context {
  std::vector<std::string> dtypes;
  std::string shape_class;            // small | medium | large (elements of the largest case)
  std::string bound;                  // busiest pipe (msprof field name) over the cases
  std::optional<double> ub_bytes;     // unknown for now
  uint32_t cores = 0;                 // largest block_dim over the cases
  std::optional<double> vec_mte2_ratio;  // vector time / MTE2 time, summed over the cases
};

struct ProfileDelta {
  std::map<std::string, double> before, after;  // mean per-pipe times (us): optimized, rewound
  std::string bound_before, bound_after;
};

struct Entry {
  int64_t id = 0;
  std::string kind = kText;
  std::string motif = kUnclassified;
  std::string op, category;
  std::string source_path, source_hash;
  std::string diff;  // unified diff optimized -> rewound
  std::vector<CaseEffect> cases;
  std::optional<double> geomean;  // geomean speedup over the cases
  ProfileDelta profile;
  Context context;
  nlohmann::json provenance = nlohmann::json::object();  // kernel hash, soc, seed, tool version
  std::string title, description, bottleneck;
  std::string created;  // UTC, set by the store
};

nlohmann::json to_json(const Context& c);
nlohmann::json to_json(const ProfileDelta& p);
nlohmann::json to_json(const Entry& e);
// The reverse of to_json for JSON this program wrote (missing fields keep their defaults).
Context context_from_json(const nlohmann::json& j);
ProfileDelta profile_from_json(const nlohmann::json& j);

double geomean_speedup(const std::vector<CaseEffect>& cases);

}  // namespace aoc::bank
