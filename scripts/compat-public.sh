#!/usr/bin/env bash
# The compatibility figures of docs/compat.md: scripts/compat.sh over public AscendC operators
# (an open-source msopgen operator collection, pinned to one commit), with the goldens and
# small case lists this project wrote for them (data/compat/goldens). Nothing of the public
# repository is kept in this project: it is cloned into the work folder.
#
#   scripts/compat-public.sh [--work DIR] [--source DIR] [--manifest FILE] [--timeout S] [--markdown]
#
# --work DIR       where the clone, the packages and the logs go (default: a fresh folder under $TMPDIR)
# --source DIR     an existing checkout (or bare clone) of the repository instead of cloning it
# --manifest FILE  the collection's manifest (default: data/public/cann-ops.toml, docs/public-set.md)
# --timeout S      limit per operator (default 600)
# --markdown       print the table as Markdown
#
# The repository, its commit and the operator folders are those of the manifest (its `golden`
# and `cases` keys are not read: the goldens are data/compat/goldens/<package>.*); each operator
# runs the cases of its first dtype variant (compat.sh --first-variant), or its own case list
# when the goldens folder has one. Needs git, jq and a built ascendopt (see scripts/compat.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
manifest="$here/data/public/cann-ops.toml"
work="" source="" pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work="$2"; shift 2 ;;
    --source) source="$2"; shift 2 ;;
    --manifest) manifest="$2"; shift 2 ;;
    --timeout) pass+=(--timeout "$2"); shift 2 ;;
    --markdown) pass+=(--markdown); shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
command -v git >/dev/null || { echo "git is needed (apt-get install git)" >&2; exit 2; }
[ -f "$manifest" ] || { echo "no manifest $manifest" >&2; exit 2; }
# The manifest's url and commit ([collection]), and "folder package" per [[operator]] (the
# package defaults to the folder's basename). `ascendopt public export` validates manifests;
# this reads the plain `key = "value"` lines they are written with.
value() { sed -n "/^\[collection\]/,/^\[\[/s/^$1 *= *\"\(.*\)\"/\1/p" "$manifest" | head -1; }
repo_url="$(value url)"
commit="$(value commit)"
[ -n "$repo_url" ] && [ -n "$commit" ] || { echo "$manifest: no url or commit in [collection]" >&2; exit 2; }
operators() {
  awk -F'"' '/^\[\[operator\]\]/ { if (f != "") print f, (p != "" ? p : b); f = p = "" }
             /^folder *=/ { f = $2; n = split(f, parts, "/"); b = parts[n] }
             /^package *=/ { p = $2 }
             END { if (f != "") print f, (p != "" ? p : b) }' "$manifest"
}
work="${work:-$(mktemp -d "${TMPDIR:-/tmp}/compat-public.XXXXXX")}"
mkdir -p "$work"

if [ -z "$source" ]; then
  source="$work/repo"
  [ -d "$source" ] || git clone --quiet --bare "$repo_url" "$source"
fi
git -C "$source" cat-file -e "$commit^{commit}" 2>/dev/null ||
  { echo "$source does not hold commit $commit of $repo_url" >&2; exit 2; }

# One folder per operator (its op_host/ and op_kernel/), exported from the pinned commit.
rm -rf "$work/ops"
mkdir -p "$work/ops"
while read -r path package; do
  [ -n "$path" ] || continue
  mkdir -p "$work/ops/$package"
  git -C "$source" archive "$commit:$path" op_host op_kernel | tar -x -C "$work/ops/$package"
done < <(operators)

exec "$here/scripts/compat.sh" --goldens "$here/data/compat/goldens" --work "$work/packages" --first-variant \
  "${pass[@]}" "$work/ops"
