#!/usr/bin/env bash
# Evaluates the same candidates with two ascendopt builds and compares, case by case, the
# verdict, the simulated Task Duration and T_HW (they must be identical), and prints each
# build's wall time. Used to check that an evaluator change keeps results unchanged.
# Usage: scripts/compare-eval.sh OLD_ASCENDOPT NEW_ASCENDOPT CANDIDATE_OR_PACKAGE...
# Each binary uses the aoc-harness beside it. Exit status 1 when any case differs.
# A change to include/ascendc changes what the kernels compile against: set AOC_OLD_ROOT and
# AOC_NEW_ROOT to the two source trees, and each build compiles the kernels with its own headers
# (both default to AOC_ROOT, or the tree the binary was built from).
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 OLD_ASCENDOPT NEW_ASCENDOPT CANDIDATE_OR_PACKAGE..." >&2
  exit 2
fi
old="$1" new="$2"
shift 2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
run() {  # binary root output-file candidates...
  local bin="$1" root="$2" out="$3"
  shift 3
  local start end
  start=$(date +%s.%N)
  if [ -n "$root" ]; then export AOC_ROOT="$root"; fi
  AOC_HARNESS="$(dirname "$bin")/aoc-harness" "$bin" eval "$@" --json -j 1 --no-store --seed 1 >"$out" || true
  end=$(date +%s.%N)
  echo "$bin: $(echo "$end - $start" | bc) s"
}
run "$old" "${AOC_OLD_ROOT:-${AOC_ROOT:-}}" "$work/old.json" "$@"
run "$new" "${AOC_NEW_ROOT:-${AOC_ROOT:-}}" "$work/new.json" "$@"
summary='[.candidates[] | {c: .candidate, v: .verdict, cases: [.cases[] | {n: .name, v: .verdict, t: .task_duration_us, hw: .t_hw_us}]}]'
jq -S "$summary" "$work/old.json" >"$work/old.sum"
jq -S "$summary" "$work/new.json" >"$work/new.sum"
cases=$(jq '[.[].cases[]] | length' "$work/new.sum")
echo "compared: $(jq length "$work/new.sum") candidates, $cases cases"
if diff -u "$work/old.sum" "$work/new.sum"; then
  echo "identical: $(jq length "$work/new.sum") candidates, $cases cases (verdicts, task_duration_us, t_hw_us)"
else
  echo "DIFFERENT (above)"
  exit 1
fi
