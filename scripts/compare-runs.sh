#!/usr/bin/env bash
# Runs the same searches with two ascendopt builds and compares their JSON reports: every
# `optimize` method on a few packages, `tune` (evolve and random), `tune-bench` and a small
# `bench`. A change that should not change behaviour (a move of code, a new layer) must give
# identical reports: the same candidates in the same order, the same budgets spent, times,
# verdicts and verification. scripts/compare-suite.sh compares single evaluations over the
# suite; this compares what the searches do with them.
# Usage: scripts/compare-runs.sh OLD_ASCENDOPT NEW_ASCENDOPT [OUT_DIR]
#   OUT_DIR (default ./compare-runs-out) gets old/ and new/ (reports and run folders) and
#   summary.txt. A report already in OUT_DIR is not made again (remove the folder to start
#   afresh). Run from the source root: the packages are read from its ops/.
#   Environment: PKGS (default "activation/relu elementwise/add normalization/softmax"),
#   METHODS (default every method of NEW's `optimize --help`), AOC_CACHE_DIR (a build cache
#   both builds share; default OUT_DIR/cache).
# Compared after dropping wall-clock fields, the run folders' own paths and the content-hash
# prefix of rewritten kernels' folder names (a candidate's hash covers the API headers, so
# moving a header renames those folders and changes nothing that runs). Exit status 1 when a
# report differs or is missing.
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OLD_ASCENDOPT NEW_ASCENDOPT [OUT_DIR]" >&2
  exit 2
fi
old="$(realpath "$1")" new="$(realpath "$2")"
out="$(realpath -m "${3:-compare-runs-out}")"
for bin in "$old" "$new"; do
  [ -x "$bin" ] || { echo "error: $bin is not an executable ascendopt" >&2; exit 2; }
done
[ -d ops ] || { echo "error: run from the source root (no ops/ here)" >&2; exit 2; }
command -v jq >/dev/null || { echo "error: jq is needed (apt-get install jq)" >&2; exit 2; }
pkgs="${PKGS:-activation/relu elementwise/add normalization/softmax}"
if [ -z "${METHODS:-}" ]; then
  # The registry's names as the help lists them: "  name  description" under "Methods:".
  METHODS=$("$new" optimize --help | awk '/^Methods:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}')
fi
[ -n "$METHODS" ] || { echo "error: no methods (set METHODS)" >&2; exit 2; }
cache="${AOC_CACHE_DIR:-$out/cache}"
# Verification draws its hidden cases from this seed; unset, every run would draw its own.
export ASCENDOPT_HIDDEN_SEED=424242
mkdir -p "$out"

# run TAG BIN: every report of one build into OUT/TAG/json.
run() {
  local tag=$1 bin=$2 dir="$out/$1"
  mkdir -p "$dir/json"
  each() {  # each NAME COMMAND...: the command's stdout is the report NAME.json
    local name=$1; shift
    [ -s "$dir/json/$name.json" ] && return 0
    if ! "$@" >"$dir/json/$name.json.part" 2>"$dir/json/$name.err"; then
      echo "$tag: $name failed (see $dir/json/$name.err)" >&2
    fi
    mv "$dir/json/$name.json.part" "$dir/json/$name.json"
  }
  for p in $pkgs; do
    for m in $METHODS; do
      local n; n="$(basename "$p")-$m"
      rm -rf "$dir/runs/$n"
      each "optimize-$n" "$bin" optimize "ops/$p" --method "$m" --budget 12 --seed 3 --no-store --json \
        --out "$dir/runs/$n" --cache-dir "$cache"
    done
  done
  for p in $pkgs; do
    for m in evolve random; do
      each "tune-$(basename "$p")-$m" "$bin" tune "ops/$p" --method "$m" --budget 10 --seed 2 --no-repository \
        --json --cache-dir "$cache"
    done
  done
  local first second
  first=$(echo $pkgs | cut -d' ' -f1) second=$(echo $pkgs | cut -d' ' -f2)
  each tune-bench "$bin" tune-bench "ops/$first" "ops/$second" --budgets 4 8 --seed 1 --json --cache-dir "$cache"
  [ -s "$dir/json/bench.json" ] || rm -rf "$dir/bench"
  each bench "$bin" bench "ops/$first" "ops/$second" --methods optimize random --budgets 8 --seeds 1 --json \
    --out "$dir/bench" --cache-dir "$cache"
  for f in "$dir"/bench/runs/*/report.json; do
    [ -f "$f" ] && cp "$f" "$dir/json/bench-run-$(basename "$(dirname "$f")").json"
  done
}

norm() {  # norm REPORT RUN_ROOT
  jq -S --arg root "$2" '
    walk(if type == "object" then with_entries(select(.key | test("seconds|wall") | not)) else . end)
    | walk(if type == "string" then (gsub($root; "<OUT>") | gsub("[0-9a-f]{12}-"; "<hash>-")) else . end)' "$1"
}

# The two builds at once (each search is one process at a time).
run old "$old" &
run new "$new" &
wait
same=0 differ=0
{
  echo "old: $old"
  echo "new: $new"
  for f in "$out"/old/json/*.json; do
    name=$(basename "$f") g="$out/new/json/$(basename "$f")"
    if [ ! -f "$g" ]; then
      echo "missing in new: $name"; differ=$((differ + 1)); continue
    fi
    if d=$(diff <(norm "$f" "$out/old") <(norm "$g" "$out/new")); then
      echo "identical: $name"; same=$((same + 1))
    else
      echo "different: $name"; echo "$d" | head -20; differ=$((differ + 1))
    fi
  done
  echo "reports compared: $((same + differ)), identical: $same, different or missing: $differ"
} | tee "$out/summary.txt"
grep -q "different or missing: 0$" "$out/summary.txt"
