#!/usr/bin/env bash
# Evaluates every operator package of the suite (its baseline, and its expert when it has one)
# with two ascendopt builds, one package at a time through scripts/compare-eval.sh, and
# summarises: packages whose verdicts and simulated Task Durations are identical, and those
# that differ (with the differing cases). T_HW is compared too but listed apart, since a
# change of the hardware-limit formula alone moves it without touching the timing engine.
# Usage: scripts/compare-suite.sh OLD_ASCENDOPT NEW_ASCENDOPT [OUT_DIR] [PACKAGE_GLOB]
#   OUT_DIR (default ./compare-suite-out) receives one log per package and summary.txt,
#   written after every package so a long run can be read while it goes on. A package already
#   in OUT_DIR/results.tsv is not compared again: a stopped run goes on where it stopped when
#   given the same OUT_DIR (remove the folder to start afresh).
#   PACKAGE_GLOB (default 'ops/*/*') selects packages below the source root.
# Run it from the source root; AOC_ROOT and AOC_CACHE_DIR shared by both builds let them
# share the kernels' builds (see docs/performance.md). For a change to include/ascendc, set
# AOC_OLD_ROOT and AOC_NEW_ROOT instead (scripts/compare-eval.sh).
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OLD_ASCENDOPT NEW_ASCENDOPT [OUT_DIR] [PACKAGE_GLOB]" >&2
  exit 2
fi
old="$(realpath "$1")" new="$(realpath "$2")"
out="${3:-compare-suite-out}"
glob="${4:-ops/*/*}"
here="$(dirname "$(realpath "$0")")"
mkdir -p "$out"
summary="$out/summary.txt"
touch "$out/results.tsv"
write_summary() {
  local total same diff thw
  total=$(wc -l <"$out/results.tsv")
  same=$(awk -F'\t' '$2 == "identical"' "$out/results.tsv" | wc -l)
  thw=$(awk -F'\t' '$2 == "t_hw_only"' "$out/results.tsv" | wc -l)
  diff=$(awk -F'\t' '$2 == "different"' "$out/results.tsv" | wc -l)
  {
    echo "old: $old"
    echo "new: $new"
    echo "packages compared: $total ($(awk -F'\t' '{c += $3} END {print c + 0}' "$out/results.tsv") candidates," \
         "$(awk -F'\t' '{c += $4} END {print c + 0}' "$out/results.tsv") cases)," \
         "$(awk -F'\t' '{c += $6} END {print c + 0}' "$out/results.tsv") s"
    echo "identical verdicts, task_duration_us and t_hw_us: $same"
    echo "identical verdicts and task_duration_us, t_hw_us differs: $thw"
    echo "verdict or task_duration_us differs: $diff"
    awk -F'\t' '$2 != "identical" {print "  " $1 ": " $2 " " $5}' "$out/results.tsv"
  } >"$summary"
}
for pkg in $glob; do
  [ -f "$pkg/op.toml" ] || continue
  if cut -f1 "$out/results.tsv" | grep -qxF "$pkg"; then continue; fi
  cands=("$pkg")
  [ -d "$pkg/expert" ] && cands+=("$pkg/expert")
  log="$out/$(echo "$pkg" | tr / _).log"
  # A generous wall-clock limit per case: on a loaded machine a large case can pass the default
  # 30 s in one build and not the other, which is not what this compares.
  started=$(date +%s)
  "$here/compare-eval.sh" "$old" "$new" "${cands[@]}" --timeout 600 >"$log" 2>&1
  rc=$?
  seconds=$(( $(date +%s) - started ))
  ncases=$(sed -n 's/^compared: [0-9]* candidates, \([0-9]*\) cases$/\1/p' "$log")
  if [ $rc -eq 0 ]; then
    printf '%s\tidentical\t%s\t%s\t\t%s\n' "$pkg" "${#cands[@]}" "${ncases:-0}" "$seconds" >>"$out/results.tsv"
  else
    # Lines of the unified diff that change a verdict or a task duration, not only T_HW.
    changed=$(grep -E '^[-+] ' "$log" | grep -E '"(v|t)":' | tr -s ' ' | tr '\n' ' ' | cut -c1-300)
    if [ -z "$changed" ] && grep -qE '^[-+] .*"hw":' "$log"; then kind=t_hw_only; else kind=different; fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$pkg" "$kind" "${#cands[@]}" "${ncases:-0}" "$changed" "$seconds" >>"$out/results.tsv"
  fi
  write_summary
done
write_summary
cat "$summary"
! grep -q $'\tdifferent\t' "$out/results.tsv"
