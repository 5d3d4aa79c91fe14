#!/usr/bin/env bash
# Runs per hour of `ascendopt bench` with the local executor (--jobs SLOTS) and with the Slurm
# executor on a one-node cluster of SLOTS CPUs started here (scripts/slurm-local.sh), on the same
# runs with a warm build cache; checks that both found the same results. docs/cluster.md.
# Usage: scripts/cluster-throughput.sh [BUILD_DIR] [SLOTS] [OPS...]
#   default: build, 2 slots, eight activation operators x best-of-n,optimize x budget 4
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
slots=${2:-2}
shift $(( $# > 2 ? 2 : $# ))
ops=("$@")
if [ ${#ops[@]} -eq 0 ]; then
  for op in elu gelu hardswish leaky_relu relu sigmoid silu tanh; do ops+=("$root/ops/activation/$op"); done
fi
bin="$build/bin/ascendopt"
[ -x "$bin" ] || { echo "error: $bin is missing; build it first (make programs)" >&2; exit 2; }
command -v jq >/dev/null || { echo "error: jq is needed (apt-get install jq)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/aoc-cluster-throughput-XXXXXX")
trap 'bash "$root/scripts/slurm-local.sh" stop "$work/cluster" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
args=(bench "${ops[@]}" --methods best-of-n,optimize --budgets 4 --seeds 1)
export ASCENDOPT_HIDDEN_SEED=20261207
echo "warming the build cache (one local pass, not timed)" >&2
"$bin" "${args[@]}" --jobs "$slots" --out "$work/warm" >/dev/null 2>&1
runs=$(ls "$work/warm/runs" | wc -l)

eval "$(bash "$root/scripts/slurm-local.sh" start "$work/cluster" "$slots")"
timed() {  # prints the seconds the command took
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>"$work/last.err" || { cat "$work/last.err" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
local_s=$(timed "$bin" "${args[@]}" --jobs "$slots" --out "$work/local")
slurm_s=$(timed "$bin" "${args[@]}" --executor slurm --poll-seconds 1 --out "$work/slurm")
same=yes
for r in "$work"/local/runs/*; do
  n=$(basename "$r")
  a=$(jq -c '[.speedup, .baseline_us, .best_us, .verified]' "$r/report.json")
  b=$(jq -c '[.speedup, .baseline_us, .best_us, .verified]' "$work/slurm/runs/$n/report.json")
  [ "$a" = "$b" ] || { same=no; echo "differs: $n: local $a, slurm $b" >&2; }
done
printf '%d runs (%d operators x best-of-n,optimize x budget 4), %d slots, warm build cache\n' "$runs" "${#ops[@]}" "$slots"
printf 'local  --jobs %d : %6.1f s  %6.0f runs/hour\n' "$slots" "$local_s" "$(echo "$runs * 3600 / $local_s" | bc -l)"
printf 'slurm  %d CPUs   : %6.1f s  %6.0f runs/hour\n' "$slots" "$slurm_s" "$(echo "$runs * 3600 / $slurm_s" | bc -l)"
echo "same per-run results: $same"
