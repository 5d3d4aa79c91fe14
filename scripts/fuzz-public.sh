#!/usr/bin/env bash
# docs/fuzz.md's figures: `ascendopt fuzz` over every operator that passes in a compat-public work
# folder (scripts/compat-public.sh --work DIR), with one seed and a fixed number of rounds, and a
# table of what it found.
#
#   scripts/fuzz-public.sh --packages DIR/packages [--out DIR] [--rounds N] [--batch N]
#                          [--max-elements N] [--markdown]
#
# An operator passes when its compat log (<package>.log.json) says so. Needs jq and a built
# ascendopt ($ASCENDOPT, else build/bin/ascendopt).
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
ascendopt="${ASCENDOPT:-$here/build/bin/ascendopt}"
packages="" out="" rounds=2 batch=6 max_elements=20000 markdown=0
while [ $# -gt 0 ]; do
  case "$1" in
    --packages) packages="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --batch) batch="$2"; shift 2 ;;
    --max-elements) max_elements="$2"; shift 2 ;;
    --markdown) markdown=1; shift ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -d "$packages" ] || { echo "--packages DIR: the packages folder of a compat-public.sh work folder" >&2; exit 2; }
out="${out:-$(mktemp -d "${TMPDIR:-/tmp}/fuzz-public.XXXXXX")}"
mkdir -p "$out"
total=0 with=0 cases=0 rows=()
for log in "$packages"/*.log.json; do
  name="$(basename "$log" .log.json)"
  [ "$(jq -r '.ops[0].passed' "$log" 2>/dev/null)" = true ] || continue
  total=$((total + 1))
  "$ascendopt" fuzz "$packages/$name" --seed 1 --rounds "$rounds" --batch "$batch" --max-elements "$max_elements" \
    --time 600 --out "$out/$name" --json >"$out/$name.json" 2>"$out/$name.err"
  n="$(jq -r '.findings | length' "$out/$name.json" 2>/dev/null || echo '?')"
  cases=$((cases + $(jq -r '.cases_run' "$out/$name.json" 2>/dev/null || echo 0)))
  [ "$n" != 0 ] && with=$((with + 1))
  while IFS=$'\t' read -r verdict first minimal message; do
    rows+=("$name|$verdict|$first|$minimal|${message//|//}")
  done < <(jq -r '.findings[] | [.verdict, .first_shape, .minimal_shape, (.message | gsub("\n"; " ") | .[0:150])] | @tsv' \
             "$out/$name.json" 2>/dev/null | sed "s|$packages/||g")
done
if [ "$markdown" = 1 ]; then
  echo "| operator | verdict | first seen on | smallest | message |"
  echo "|---|---|---|---|---|"
  for r in "${rows[@]}"; do IFS='|' read -r a b c d e <<<"$r"; echo "| $a | $b | $c | $d | $e |"; done
else
  for r in "${rows[@]}"; do IFS='|' read -r a b c d e <<<"$r"; printf '%-16s %-14s %-18s %-14s %s\n' "$a" "$b" "$c" "$d" "$e"; done
fi
echo
echo "$total operators fuzzed, $cases cases drawn, $with with findings, ${#rows[@]} distinct failures (state and reports in $out)"
