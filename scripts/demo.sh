#!/usr/bin/env bash
# `make demo`: the main job on a handful of suite operators. Each is optimized at a small
# budget (host tiling search and kernel motif rewrites, docs/optimize.md) and, at the same
# budget, sampled Best-of-N style; every result is verified on all public cases and a hidden
# draw. Prints each operator's summary and the comparison, and writes the HTML report.
# Usage: scripts/demo.sh [BUILD_DIR] [extra ascendopt bench options...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-build}"
shift || true
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
BIN="$BUILD/bin/ascendopt"
if [ ! -x "$BIN" ]; then
  echo "error: $BIN not found; build first with: cmake -S $ROOT -B $BUILD && cmake --build $BUILD" >&2
  exit 1
fi
OUT="$BUILD/demo"
OPS=(activation/relu elementwise/add elementwise/abs)
BUDGET="${DEMO_BUDGET:-8}"
echo "== ascendopt bench ${OPS[*]} --methods optimize,best-of-n --budgets $BUDGET --jobs 2"
status=0
"$BIN" bench "${OPS[@]/#/$ROOT/ops/}" --methods optimize,best-of-n --budgets "$BUDGET" --seeds 1 --jobs 2 \
  --out "$OUT" --html "$OUT/report.html" "$@" || status=$?
for op in "${OPS[@]}"; do
  summary="$OUT/runs/$(basename "$op")-optimize-b$BUDGET-s1/summary.txt"
  if [ -f "$summary" ]; then
    echo
    echo "== $(basename "$op"): ascendopt optimize --budget $BUDGET"
    cat "$summary"
  fi
done
echo
echo "HTML report: $OUT/report.html (rerunning resumes from $OUT; remove it to start afresh)"
exit $status
