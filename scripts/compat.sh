#!/usr/bin/env bash
# Compatibility report for a folder of AscendC operators: for every operator folder (one with
# op_host/ and op_kernel/), whether it imports (an op.toml from its OpDef; folders that already
# have op.toml are taken as they are), compiles, runs its cases without a kernel error, and
# passes them against a golden with the simulator and its hazard check on. Nothing in the
# operator folders is modified: packages are made under --work.
#
#   scripts/compat.sh [--goldens DIR] [--work DIR] [--timeout S] [--markdown] OPS_DIR...
#
# --goldens DIR   DIR/<package name>.cpp is used as the golden of that operator (see
#                 docs/op-package.md); without one, an imported package keeps the template golden,
#                 so it can compile and run but not pass. DIR/<package name>.cases.toml, when
#                 present, replaces the generated placeholder [[cases]] of the imported op.toml.
# --work DIR      where the packages and logs go (default: a fresh folder under $TMPDIR)
# --timeout S     limit per operator for `ascendopt run` (default 600)
# --first-variant run only the cases of an imported package's first dtype variant (one kernel
#                 build per operator instead of one per variant)
# --hidden N      also draw N hidden cases per operator (its [hidden] table; seed
#                 $ASCENDOPT_HIDDEN_SEED, default 1): passing means every case run and the draw
# --markdown      print the table as Markdown (docs/compat.md)
#
# Needs the ascendopt binary ($ASCENDOPT, else build/bin/ascendopt next to this script) and jq.
set -u
here="$(cd "$(dirname "$0")/.." && pwd)"
ascendopt="${ASCENDOPT:-$here/build/bin/ascendopt}"
goldens="" work="" timeout_s=600 markdown=0 first_variant=0 hidden=0 dirs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --goldens) goldens="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    --markdown) markdown=1; shift ;;
    --first-variant) first_variant=1; shift ;;
    --hidden) hidden="$2"; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) dirs+=("$1"); shift ;;
  esac
done
if [ ${#dirs[@]} -eq 0 ]; then echo "usage: scripts/compat.sh [--goldens DIR] [--work DIR] OPS_DIR..." >&2; exit 2; fi
[ -x "$ascendopt" ] || { echo "no ascendopt at $ascendopt: build it (cmake --build build --target ascendopt) or set ASCENDOPT" >&2; exit 2; }
command -v jq >/dev/null || { echo "jq is needed (apt-get install jq)" >&2; exit 2; }
work="${work:-$(mktemp -d "${TMPDIR:-/tmp}/compat.XXXXXX")}"
mkdir -p "$work"
case_set=()
if [ "$hidden" != 0 ]; then
  case_set=(--cases all --hidden-count "$hidden")
  export ASCENDOPT_HIDDEN_SEED="${ASCENDOPT_HIDDEN_SEED:-1}"
fi

# Operator folders: op_host/ and op_kernel/ side by side.
mapfile -t ops < <(for d in "${dirs[@]}"; do find "$d" -type d -name op_host -exec dirname {} \; ; done | sort -u)

# The kind of a first problem (docs/compat.md lists what each means).
category() {
  case "$1" in
    "") echo "" ;;
    *"still the template"*) echo "no golden" ;;
    *"no value for attribute"*) echo "attribute without a value" ;;
    import:*"does not compile"*) echo "host code" ;;
    import:*) echo "unsupported construct" ;;
    compile:*) echo "missing API" ;;
    *"race:"*) echo "race" ;;
    *"relative error"*|*"errors in the"*) echo "tolerance" ;;
    *"NaN mismatches"*) echo "output not written" ;;
    *"outside its buffer"*|*"out of bounds"*) echo "kernel out of bounds" ;;
    *SIGSEGV*|*"killed by"*) echo "crash" ;;
    *) echo "other" ;;
  esac
}

total=0 n_import=0 n_compile=0 n_run=0 n_pass=0
rows=()
for op in "${ops[@]}"; do
  [ -d "$op/op_kernel" ] || continue
  total=$((total + 1))
  name="$(basename "$op")"
  pkg="$work/$name"
  log="$work/$name.log"
  imported=no compiled=no ran=no passed=no problem=""
  if [ -f "$op/op.toml" ]; then
    rm -rf "$pkg"; cp -r "$op" "$pkg"; imported=yes
  elif out="$("$ascendopt" import "$op" --out "$pkg" --force --json 2>&1)" && [ "$(jq -r .ok <<<"$out" 2>/dev/null)" = true ]; then
    imported=yes
    name_from_import="$(jq -r .name <<<"$out")"
    [ -n "$goldens" ] && [ -f "$goldens/$name_from_import.cpp" ] && cp "$goldens/$name_from_import.cpp" "$pkg/golden.cpp"
    [ -n "$goldens" ] && [ -f "$goldens/$name.cpp" ] && cp "$goldens/$name.cpp" "$pkg/golden.cpp"
    # One case list replaces the generated cases: the folder's own, else the imported name's.
    cases=""
    for c in "$goldens/$name.cases.toml" "$goldens/$name_from_import.cases.toml"; do
      [ -n "$goldens" ] && [ -f "$c" ] && { cases="$c"; break; }
    done
    if [ -n "$cases" ]; then sed -i '/^\[\[cases\]\]/,$d' "$pkg/op.toml" && cat "$cases" >>"$pkg/op.toml"; fi
  else
    problem="import: $(jq -r '.error // empty' <<<"$out" 2>/dev/null | head -1)"
    [ "$problem" = "import: " ] && problem="import: $(head -1 <<<"$out")"
  fi
  if [ "$imported" = yes ]; then
    only=()
    if [ $first_variant -eq 1 ] && [ ! -f "$op/op.toml" ]; then
      while read -r c; do only+=(--case "$c"); done < <(sed -n 's/^name = "\(.*_v0\)"$/\1/p' "$pkg/op.toml")
      [ ${#only[@]} -eq 0 ] && only=()  # own cases (a .cases.toml): all of them
    fi
    timeout "$timeout_s" "$ascendopt" run "$pkg" --json --seed 1 "${case_set[@]}" "${only[@]}" >"$log.out" 2>"$log"
    rc=$?
    # Host code may print to stdout before the report: keep the JSON document only.
    sed -n '/^{/,$p' "$log.out" >"$log.json"
    if ! jq -e . "$log.json" >/dev/null 2>&1; then
      problem="run: exit status $rc, no report$( [ $rc -eq 124 ] && echo ' (timeout)') $(tail -1 "$log")"
    else
      rep='.ops[0]'
      if [ "$(jq -r "$rep | (.build_failures | length)" "$log.json")" = 0 ]; then
        compiled=yes
        setup="$(jq -r "$rep | .setup_error" "$log.json")"
        # A case ran when the kernel finished: it passed, failed the comparison, raced, or only the golden errored.
        kernel_errors="$(jq -r "$rep | [.cases[] | select((.verdict | IN(\"runtime_error\", \"crash\", \"timeout\", \"memory_limit\", \"rejected\")) and (.message | startswith(\"race:\") | not) or (.verdict == \"error\" and (.message | test(\"golden\") | not)))] | length" "$log.json")"
        ncases="$(jq -r "$rep | .cases | length" "$log.json")"
        if [ -z "$setup" ] && [ "$ncases" -gt 0 ] && [ "$kernel_errors" = 0 ]; then ran=yes; fi
        if [ "$ran" = yes ] && [ "$(jq -r "$rep | .passed" "$log.json")" = true ]; then passed=yes; fi
        [ "$passed" = yes ] || problem="$( [ -n "$setup" ] && echo "setup: $setup" || jq -r "$rep | [.cases[] | select(.verdict != \"ok\") | .name + \": \" + .message][0] // empty" "$log.json")"
      else
        problem="compile: $(jq -r "$rep | .build_failures[0].diagnostics | map(select(.severity == \"error\"))[0] | \"\((.file // \"?\") | split(\"/\") | .[-1]):\(.line): \(.message)\" // \"no diagnostics (the compiler was killed?)\"" "$log.json")"
      fi
    fi
  fi
  [ "$imported" = yes ] && n_import=$((n_import + 1))
  [ "$compiled" = yes ] && n_compile=$((n_compile + 1))
  [ "$ran" = yes ] && n_run=$((n_run + 1))
  [ "$passed" = yes ] && n_pass=$((n_pass + 1))
  rows+=("$name|$imported|$compiled|$ran|$passed|$(category "$problem")|${problem:0:160}")
done

if [ $markdown -eq 1 ]; then
  echo "| operator | imports | compiles | runs | passes | category | first problem |"
  echo "|---|---|---|---|---|---|---|"
  for r in "${rows[@]}"; do IFS='|' read -r a b c d e k f <<<"$r"; echo "| $a | $b | $c | $d | $e | $k | ${f//|/\\|} |"; done
else
  printf '%-28s %-8s %-9s %-5s %-7s %-22s %s\n' operator imports compiles runs passes category "first problem"
  for r in "${rows[@]}"; do IFS='|' read -r a b c d e k f <<<"$r"; printf '%-28s %-8s %-9s %-5s %-7s %-22s %s\n' "$a" "$b" "$c" "$d" "$e" "$k" "$f"; done
fi
echo
echo "$total operators: $n_import import, $n_compile compile, $n_run run, $n_pass pass (packages and logs in $work)"
