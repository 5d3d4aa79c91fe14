#!/usr/bin/env bash
# Compatibility of the official single-file AscendC samples (.asc programs, docs/asc.md): for each
# sample folder listed in data/compat/asc_samples.txt, at a pinned commit of the samples'
# repository, whether it builds for the CPU runtime, runs (exit status 0, no failed launch, no
# race) and passes its own check: the sample's scripts/gen_data.py writes the inputs and the
# expected output, `ascendopt asc --workdir` runs the program there, and scripts/verify_result.py
# compares. Nothing of the repository is kept in this project: it is exported into the work folder.
#
#   scripts/compat-asc.sh --source DIR [--work DIR] [--markdown]
#
# --source DIR   a clone (or bare clone) of the samples' repository holding the pinned commit
# --work DIR     where the samples are exported and run (default: a fresh folder under $TMPDIR)
# --markdown     print the table as Markdown (docs/asc.md)
#
# A sample built for one of several scenarios (SCENARIO_NUM in its CMakeLists.txt) runs the first
# its CMakeLists.txt accepts; the gen_data.py and verify_result.py arguments are the ones its
# README gives, with that scenario. Needs git, jq, a built ascendopt ($ASCENDOPT, else build/bin) and a
# python3 with numpy (Debian: apt-get install python3-numpy).
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
ascendopt="${ASCENDOPT:-$here/build/bin/ascendopt}"
list="$here/data/compat/asc_samples.txt"
commit="$(sed -n 's/^# commit: *//p' "$list")"
source="" work="" markdown=0
while [ $# -gt 0 ]; do
  case "$1" in
    --source) source="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --markdown) markdown=1; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -n "$source" ] || { echo "--source DIR is needed: a clone of $(sed -n 's/^# repository: *//p' "$list")" >&2; exit 2; }
git -C "$source" cat-file -e "$commit^{commit}" 2>/dev/null || { echo "$source does not hold commit $commit" >&2; exit 2; }
[ -x "$ascendopt" ] || { echo "no ascendopt at $ascendopt: build it or set ASCENDOPT" >&2; exit 2; }
python=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import numpy' 2>/dev/null; then python="$p"; break; fi
done
[ -n "$python" ] || { echo "a python3 with numpy is needed (apt-get install python3-numpy)" >&2; exit 2; }
work="${work:-$(mktemp -d "${TMPDIR:-/tmp}/compat-asc.XXXXXX")}"
mkdir -p "$work"

total=0 n_build=0 n_run=0 n_pass=0 rows=()
while read -r folder; do
  case "$folder" in ''|'#'*) continue ;; esac
  total=$((total + 1))
  name="$(basename "$folder")"
  dir="$work/$name"
  rm -rf "$dir" && mkdir -p "$dir"
  git -C "$source" archive "$commit" "$folder" | tar -x -C "$dir" --strip-components="$(tr -cd / <<<"$folder" | wc -c | awk '{print $1 + 1}')"
  program="$(ls "$dir"/*.asc 2>/dev/null | head -1)"
  defines=() scenario=""
  if grep -q 'SCENARIO_NUM' "$dir/CMakeLists.txt" 2>/dev/null; then
    scenario="$(grep -oE 'VALID_SCENARIOS +[0-9]+|set\(SCENARIO_NUM +"?[0-9]+|SCENARIO_NUM must be [0-9]+|-DSCENARIO_NUM=[0-9]+' "$dir/CMakeLists.txt" | head -1 | grep -oE '[0-9]+$')"
    scenario="${scenario:-0}"
    defines=(-D "SCENARIO_NUM=$scenario")
  fi
  # The script arguments the README shows, with the scenario put in.
  readme_args() {
    grep -m1 -oE "python3? +[^ ]*$1[^#\`]*" "$dir/README.md" 2>/dev/null | sed -e "s/^.*$1//" -e "s/\\\${\{0,1\}SCENARIO_NUM}\{0,1\}/$scenario/g"
  }
  read -r -a gen <<<"$(readme_args 'gen_data\.py')"
  read -r -a verify <<<"$(readme_args 'verify_result\.py')"
  [ ${#verify[@]} -gt 0 ] || verify=(output/output.bin output/golden.bin)
  mkdir -p "$dir/run"
  built=no ran=no passed=no problem=""
  if [ -f "$dir/scripts/gen_data.py" ] && ! (cd "$dir/run" && "$python" ../scripts/gen_data.py "${gen[@]}" >"$dir/gen.log" 2>&1); then
    problem="gen_data.py failed: $(tail -1 "$dir/gen.log")"
  else
    (cd "$dir/run" && "$ascendopt" asc "$program" "${defines[@]}" --workdir . --json >"$dir/asc.json" 2>"$dir/asc.err")
    if [ ! -s "$dir/asc.json" ]; then
      problem="build: $(grep -m1 -E ': (fatal )?error:' "$dir/asc.err" | sed "s|$dir/||g" | cut -c1-160)"
    else
      built=yes
      if [ "$(jq -r .ok "$dir/asc.json")" = true ]; then
        ran=yes
        if [ ! -f "$dir/scripts/verify_result.py" ]; then
          passed=yes
        elif (cd "$dir/run" && "$python" ../scripts/verify_result.py "${verify[@]}" >"$dir/verify.log" 2>&1); then
          passed=yes
        else
          problem="verify_result.py: $(tail -1 "$dir/verify.log" | cut -c1-160)"
        fi
      else
        problem="$(jq -r '[.launches[] | select(.ok == false) | .error][0] // ([.launches[] | .hazards[]?][0] | if . then "race: " + . else null end) // ("exit " + (.exit_code|tostring) + ": " + (.output | split("\n") | map(select(length > 0)) | last // ""))' "$dir/asc.json" | sed "s|$dir/||g" | cut -c1-160)"
      fi
    fi
  fi
  [ "$built" = yes ] && n_build=$((n_build + 1))
  [ "$ran" = yes ] && n_run=$((n_run + 1))
  [ "$passed" = yes ] && n_pass=$((n_pass + 1))
  rows+=("$name|$built|$ran|$passed|${problem//|//}")
done <"$list"

if [ "$markdown" = 1 ]; then
  echo "| sample | builds | runs | passes | first problem |"
  echo "|---|---|---|---|---|"
  for r in "${rows[@]}"; do IFS='|' read -r a b c d e <<<"$r"; echo "| $a | $b | $c | $d | $e |"; done
else
  for r in "${rows[@]}"; do IFS='|' read -r a b c d e <<<"$r"; printf '%-32s %-4s %-4s %-4s %s\n' "$a" "$b" "$c" "$d" "$e"; done
fi
echo
echo "$total samples: $n_build build, $n_run run, $n_pass pass (work folder $work)"
