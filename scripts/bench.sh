#!/usr/bin/env bash
# Runs every benchmark program of bench/ (built by `make bench`) and prints its figures.
# Usage: scripts/bench.sh BUILD_DIR [extra Google Benchmark flags, e.g. --benchmark_filter=small]
set -euo pipefail
build="${1:?usage: scripts/bench.sh BUILD_DIR [benchmark flags]}"
shift
found=0
for b in "$build"/bin/*_bench; do
  [ -x "$b" ] || continue
  found=1
  echo "== $(basename "$b")"
  "$b" "$@"
done
if [ "$found" = 0 ]; then
  echo "error: no benchmark programs in $build/bin; build them with 'make bench'" >&2
  exit 1
fi
