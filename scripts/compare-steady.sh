#!/usr/bin/env bash
# Times the same cases twice with one ascendopt build, with steady-state skipping (the default)
# and with --full-sim, and compares every case's Task Duration and per-pipe times: they must
# agree within 0.1 %. Prints the largest difference and, for the suite, how many cases skipped
# anything and how many instructions they skipped. Exit status 1 when a case differs.
# Usage: scripts/compare-steady.sh [ASCENDOPT] [CANDIDATE_OR_PACKAGE...]
#        scripts/compare-steady.sh --calibration [ASCENDOPT]
# Defaults: build/bin/ascendopt (with the aoc-harness beside it) and the whole suite, ops/, each
# evaluated on its public cases with seed 1. --calibration compares the calibration kernels
# instead: `ascendopt calibrate` runs them once keeping their traces, then re-times the traces
# with --full-sim.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
calibration=0
if [ "${1:-}" = --calibration ]; then
  calibration=1
  shift
fi
bin="${1:-$ROOT/build/bin/ascendopt}"
shift || true
if [ ! -x "$bin" ]; then
  echo "error: $bin is not an ascendopt program; build it (make programs) or pass its path first" >&2
  exit 2
fi
[ $# -gt 0 ] || set -- "$ROOT/ops"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export AOC_HARNESS="$(dirname "$bin")/aoc-harness"

timed() {  # label command...: runs it, prints its wall time
  local label="$1" start
  shift
  start=$(date +%s)
  "$@" || true
  echo "$label: $(($(date +%s) - start)) s" >&2
}

if [ $calibration = 1 ]; then
  timed "calibrate, skipping" "$bin" calibrate --traces "$work/traces" --json >"$work/steady.json"
  timed "re-timed, --full-sim" "$bin" calibrate --traces "$work/traces" --json --full-sim >"$work/full.json"
  cases='[.cases[] | {key: .case, t: .simulated_task_us, s: 0, p: ((.pipes // {}) | map_values(.simulated_us))}]'
else
  timed "eval, skipping" "$bin" eval "$@" --json -j "${JOBS:-2}" --no-store --seed 1 >"$work/steady.json"
  timed "eval --full-sim" "$bin" eval "$@" --json -j "${JOBS:-2}" --no-store --seed 1 --full-sim >"$work/full.json"
  cases='[.candidates[] | .candidate as $c | .cases[] | {key: ($c + " " + .name), t: .task_duration_us,
          s: (.skipped_instructions // 0), p: ((.profile.fields // {}) | with_entries(select(.key | endswith("_time"))))}]'
fi
jq "$cases" "$work/steady.json" >"$work/steady.cases"
jq "$cases" "$work/full.json" >"$work/full.cases"
jq -n --slurpfile a "$work/steady.cases" --slurpfile b "$work/full.cases" -r '
  def rel(x; y): if x == null or y == null then (if x == y then 0 else 1 end)
                 elif y == 0 then (if x == 0 then 0 else 1 end) else ((x - y) / y | fabs) end;
  ($a[0] | map({(.key): .}) | add // {}) as $s
  | [$b[0][] | . as $f | ($s[$f.key] // {}) as $g
     | {key: $f.key, skipped: ($g.s // 0),
        diff: ([rel($g.t; $f.t)] + [$f.p | to_entries[] | rel($g.p[.key]; .value)] | max)}] as $rows
  | ($rows | map(select(.diff > 0.001))) as $bad
  | "cases: \($rows | length); with instructions skipped: \($rows | map(select(.skipped > 0)) | length) "
    + "(\($rows | map(.skipped) | add // 0) instructions); largest relative difference: \($rows | map(.diff) | max // 0)",
    ($bad[] | "DIFFERENT: \(.key) (relative difference \(.diff))"),
    if ($rows | length) == 0 then "FAILED: no case was timed"
    elif ($bad | length) > 0 then "FAILED: \($bad | length) cases differ by more than 0.1 %"
    else "agree within 0.1 %" end' | tee "$work/report"
! grep -q '^FAILED' "$work/report"
