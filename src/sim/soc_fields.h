// The scalar settings of a SoC file, one table row per TOML key: where the value goes, what it
// must satisfy and its unit. Errors name the file, the key and what is expected.
#pragma once
#include <toml++/toml.h>

#include <string>

#include "sim/soc.h"

namespace aoc::sim {

// A required string at the dotted path. Throws SimError naming `file` and the key.
std::string need_string(const toml::table& t, const std::string& dotted, const std::string& file);

// Every scalar of the SoC file's tables [chip], [memory], [bandwidth], [burst], [ub_banks],
// [launch], [scalar], [sync], [vector] and [cube] into `s` (name and clock first: bandwidths
// written in GB/s are kept in bytes per cycle).
void read_soc_fields(const toml::table& t, const std::string& file, Soc& s);

// One [paths.<key>] table.
DmaPath read_dma_path(const toml::table& pt, const std::string& key, const std::string& file);

}  // namespace aoc::sim
