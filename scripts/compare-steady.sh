#!/usr/bin/env bash
# Evaluates candidates twice with one ascendopt build, with steady-state skipping (the default)
# and with --full-sim, and compares every case's Task Duration and per-pipe times (the profile's
# *_time fields): they must agree within 0.1 %. Prints the largest difference, how many cases
# skipped anything and how many instructions they skipped. Exit status 1 when a case differs.
# Usage: scripts/compare-steady.sh [ASCENDOPT] [CANDIDATE_OR_PACKAGE...]
# (defaults: build/bin/ascendopt and the whole suite, ops/; the aoc-harness beside the binary)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-$ROOT/build/bin/ascendopt}"
shift || true
[ $# -gt 0 ] || set -- "$ROOT/ops"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export AOC_HARNESS="$(dirname "$bin")/aoc-harness"
for mode in steady full; do
  flag=""
  [ "$mode" = full ] && flag="--full-sim"
  start=$(date +%s)
  "$bin" eval "$@" --json -j "${JOBS:-2}" --no-store --seed 1 $flag >"$work/$mode.json" || true
  echo "$mode: $(( $(date +%s) - start )) s"
done
cases='[.candidates[] | .candidate as $c | .cases[] | {key: ($c + " " + .name), t: .task_duration_us,
        s: (.skipped_instructions // 0), p: ((.profile.fields // {}) | with_entries(select(.key | endswith("_time"))))}]'
jq -S "$cases" "$work/steady.json" >"$work/steady.cases"
jq -S "$cases" "$work/full.json" >"$work/full.cases"
jq -n --slurpfile a "$work/steady.cases" --slurpfile b "$work/full.cases" -r '
  def rel(x; y): if x == null or y == null then (if x == y then 0 else 1 end)
                 elif y == 0 then (if x == 0 then 0 else 1 end) else ((x - y) / y | fabs) end;
  ($a[0] | map({(.key): .}) | add // {}) as $s
  | [$b[0][] | . as $f | $s[$f.key] as $g
     | {key: $f.key, skipped: ($g.s // 0),
        diff: ([rel($g.t; $f.t)] + [$f.p | to_entries[] | rel($g.p[.key]; .value)] | max)}] as $rows
  | ($rows | map(select(.diff > 0.001))) as $bad
  | "cases: \($rows | length); with instructions skipped: \($rows | map(select(.skipped > 0)) | length) "
    + "(\($rows | map(.skipped) | add // 0) instructions); largest relative difference: \($rows | map(.diff) | max // 0)",
    ($bad[] | "DIFFERENT: \(.key) (relative difference \(.diff))"),
    if ($bad | length) > 0 then "FAILED: \($bad | length) cases differ by more than 0.1 %" else "agree within 0.1 %" end' \
  | tee "$work/report"
! grep -q '^FAILED' "$work/report"
