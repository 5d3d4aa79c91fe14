#!/usr/bin/env bash
# The compatibility figures of docs/compat.md: scripts/compat.sh over the public AscendC operator
# collections pinned in data/public/*.toml (docs/public-set.md), with the goldens and case lists
# this project wrote for them (data/compat/goldens). Nothing of the public repositories is kept in
# this project: they are cloned into the work folder.
#
#   scripts/compat-public.sh [--work DIR] [--source NAME=DIR]... [--manifest FILE]... [--timeout S] [--hidden N] [--markdown]
#
# --work DIR          where the clones, the packages and the logs go (default: a fresh folder under $TMPDIR);
#                     every collection's packages go to DIR/packages (package names are unique across manifests)
# --source NAME=DIR   an existing checkout (or bare clone) of collection NAME instead of cloning it (repeatable)
# --manifest FILE     a collection's manifest (repeatable; default: every data/public/*.toml)
# --timeout S         limit per operator (default 600)
# --hidden N          also draw N hidden cases per operator (compat.sh --hidden; seed $ASCENDOPT_HIDDEN_SEED, default 1)
# --markdown          print the tables as Markdown
#
# The repositories, their commits and the operator folders are those of the manifests (their
# `golden` and `cases` keys are not read: the goldens are data/compat/goldens/<package>.*); each
# operator runs the cases of its first dtype variant (compat.sh --first-variant), or its own case
# list when the goldens folder has one. Prints one table per collection, then a summary per
# collection. Needs git, jq and a built ascendopt (see scripts/compat.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="" manifests=() pass=() markdown=0
declare -A sources=()
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work="$2"; shift 2 ;;
    --source) [[ "$2" == *=* ]] || { echo "--source takes NAME=DIR (the collection's name in its manifest)" >&2; exit 2; }
              sources["${2%%=*}"]="${2#*=}"; shift 2 ;;
    --manifest) manifests+=("$2"); shift 2 ;;
    --timeout) pass+=(--timeout "$2"); shift 2 ;;
    --hidden) pass+=(--hidden "$2"); shift 2 ;;
    --markdown) pass+=(--markdown); markdown=1; shift ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
command -v git >/dev/null || { echo "git is needed (apt-get install git)" >&2; exit 2; }
[ ${#manifests[@]} -gt 0 ] || manifests=("$here"/data/public/*.toml)
for m in "${manifests[@]}"; do [ -f "$m" ] || { echo "no manifest $m" >&2; exit 2; }; done
work="${work:-$(mktemp -d "${TMPDIR:-/tmp}/compat-public.XXXXXX")}"
mkdir -p "$work/packages"

# A manifest's [collection] values, and "folder package" per [[operator]] (the package defaults
# to the folder's basename). `ascendopt public export` validates manifests; this reads the plain
# `key = "value"` lines they are written with.
value() { sed -n "/^\[collection\]/,/^\[\[/s/^$2 *= *\"\(.*\)\"/\1/p" "$1" | head -1; }
operators() {
  awk -F'"' '/^\[\[operator\]\]/ { if (f != "") print f, (p != "" ? p : b); f = p = "" }
             /^folder *=/ { f = $2; n = split(f, parts, "/"); b = parts[n] }
             /^package *=/ { p = $2 }
             END { if (f != "") print f, (p != "" ? p : b) }' "$1"
}

summary=()
for manifest in "${manifests[@]}"; do
  name="$(value "$manifest" name)" repo_url="$(value "$manifest" url)" commit="$(value "$manifest" commit)"
  [ -n "$name" ] && [ -n "$repo_url" ] && [ -n "$commit" ] ||
    { echo "$manifest: no name, url or commit in [collection]" >&2; exit 2; }
  source="${sources[$name]:-}"
  if [ -z "$source" ]; then
    source="$work/sources/$name"
    [ -d "$source" ] || git clone --quiet --bare "$repo_url" "$source"
  fi
  git -C "$source" cat-file -e "$commit^{commit}" 2>/dev/null ||
    { echo "$source does not hold commit $commit of $repo_url" >&2; exit 2; }

  # One folder per operator (its op_host/ and op_kernel/), exported from the pinned commit.
  ops="$work/ops/$name"
  rm -rf "$ops"
  mkdir -p "$ops"
  while read -r path package; do
    [ -n "$path" ] || continue
    mkdir -p "$ops/$package"
    git -C "$source" archive "$commit:$path" op_host op_kernel | tar -x -C "$ops/$package"
  done < <(operators "$manifest")

  if [ $markdown -eq 1 ]; then echo "### $name ($repo_url at ${commit:0:12})"; else echo "== $name ($repo_url at ${commit:0:12})"; fi
  echo
  "$here/scripts/compat.sh" --goldens "$here/data/compat/goldens" --work "$work/packages" --first-variant \
    "${pass[@]}" "$ops" | tee "$work/$name.table"
  echo
  # compat.sh's last line: "N operators: a import, b compile, c run, d pass (...)".
  counts="$(tail -1 "$work/$name.table" | sed -n 's/^\([0-9]*\) operators: \([0-9]*\) import, \([0-9]*\) compile, \([0-9]*\) run, \([0-9]*\) pass.*/\1 \2 \3 \4 \5/p')"
  summary+=("$name $counts")
done

if [ $markdown -eq 1 ]; then
  echo "| collection | operators | import | compile | run | pass |"
  echo "|---|---|---|---|---|---|"
else
  printf '%-26s %9s %6s %7s %4s %4s\n' collection operators import compile run pass
fi
t=(0 0 0 0 0)
for s in "${summary[@]}"; do
  read -r n a b c d e <<<"$s"
  t=($((t[0] + a)) $((t[1] + b)) $((t[2] + c)) $((t[3] + d)) $((t[4] + e)))
  if [ $markdown -eq 1 ]; then echo "| $n | $a | $b | $c | $d | $e |"; else printf '%-26s %9s %6s %7s %4s %4s\n' "$n" "$a" "$b" "$c" "$d" "$e"; fi
done
if [ $markdown -eq 1 ]; then echo "| all | ${t[0]} | ${t[1]} | ${t[2]} | ${t[3]} | ${t[4]} |"
else printf '%-26s %9s %6s %7s %4s %4s\n' all "${t[@]}"; fi
