#!/usr/bin/env bash
# The compatibility figures of docs/compat.md: scripts/compat.sh over public AscendC operators
# (an open-source msopgen operator collection, pinned to one commit), with the goldens and
# small case lists this project wrote for them (data/compat/goldens). Nothing of the public
# repository is kept in this project: it is cloned into the work folder.
#
#   scripts/compat-public.sh [--work DIR] [--source DIR] [--timeout S] [--markdown]
#
# --work DIR     where the clone, the packages and the logs go (default: a fresh folder under $TMPDIR)
# --source DIR   an existing checkout (or bare clone) of the repository instead of cloning it
# --timeout S    limit per operator (default 600)
# --markdown     print the table as Markdown
#
# The operators are the folders listed in data/compat/public_ops.txt; each runs the cases of
# its first dtype variant (compat.sh --first-variant), or its own case list when the goldens
# folder has one. Needs git, jq and a built ascendopt (see scripts/compat.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
repo_url="https://github.com/Hayden727/cann-ops"
commit="eef0ff770ece1497e98bbf063028465a20417dfe"
work="" source="" pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work="$2"; shift 2 ;;
    --source) source="$2"; shift 2 ;;
    --timeout) pass+=(--timeout "$2"); shift 2 ;;
    --markdown) pass+=(--markdown); shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
command -v git >/dev/null || { echo "git is needed (apt-get install git)" >&2; exit 2; }
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
while read -r path; do
  [ -n "$path" ] || continue
  mkdir -p "$work/ops/$(basename "$path")"
  git -C "$source" archive "$commit" "$path/op_host" "$path/op_kernel" | tar -x -C "$work/ops/$(basename "$path")" --strip-components="$(tr -cd / <<<"$path" | wc -c | awk '{print $1 + 1}')"
done <"$here/data/compat/public_ops.txt"

exec "$here/scripts/compat.sh" --goldens "$here/data/compat/goldens" --work "$work/packages" --first-variant \
  "${pass[@]}" "$work/ops"
