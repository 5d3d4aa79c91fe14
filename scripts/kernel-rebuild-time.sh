#!/usr/bin/env bash
# Time to evaluate a kernel rewrite of PACKAGE: the package is copied to a new folder with its
# kernel sources edited (a comment), as a rewrite makes a candidate, and evaluated on one case;
# the time outside the case is the build. Run N times (default 3): the first may also build
# the goldens and the precompiled header; the later ones are what a search pays per rewrite.
# Usage: scripts/kernel-rebuild-time.sh ASCENDOPT PACKAGE CASE [N]
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 ASCENDOPT PACKAGE CASE [N]" >&2
  exit 2
fi
bin="$1" pkg="$2" case_name="$3" n="${4:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 "$n"); do
  dir="$work/candidate-$i"
  cp -a "$pkg" "$dir"
  for f in "$dir"/op_kernel/*.cpp; do echo "// candidate $i $$" >>"$f"; done
  AOC_HARNESS="$(dirname "$bin")/aoc-harness" "$bin" eval "$dir" --case "$case_name" --json -j 1 --no-store --seed 1 \
    >"$work/r.json" || true
  jq -r --arg i "$i" '.candidates[0] | "candidate \($i): \(.seconds * 100 | round / 100) s, of which outside the case \((.seconds - ([.cases[].wall_ms] | add) / 1000) * 100 | round / 100) s, verdict \(.verdict)"' "$work/r.json"
done
