// The benchmark as one self-contained HTML file (no scripts, no external resources): the
// figures table, SVG plots (progress curves per method and budget, per-operator speedup bars,
// per-pipe stacked bars of the baseline and the best of each operator) and the lineage of each
// operator's best with its diff.
#pragma once
#include <string>

#include "bench/metrics.h"

namespace aoc::bench {

std::string html_report(const BenchSummary& s);

}  // namespace aoc::bench
