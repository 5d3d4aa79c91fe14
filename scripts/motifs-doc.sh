#!/usr/bin/env bash
# Regenerates the suite table of docs/motifs.md: every motif's state on every package and
# expert of ops/, every transform the detectors allow written and evaluated with
# `ascendopt eval` (public cases + a seeded hidden draw), and the median simulated effect.
# Slow (every transform is evaluated): run it after changing a motif and commit the page.
# Usage: scripts/motifs-doc.sh [BUILD_DIR] [scripts/motifs_suite.py options, e.g. --jobs 2]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-build}"
shift || true
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$BUILD" -j "${JOBS:-$(nproc)}" --target ascendopt aoc-harness aoc-rewrite >/dev/null
exec python3 "$ROOT/scripts/motifs_suite.py" --build "$BUILD" "$@"
