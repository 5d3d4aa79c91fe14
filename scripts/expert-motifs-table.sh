#!/usr/bin/env bash
# Prints the "which expert carries which motif" table of docs/ops.md: one row per expert/
# folder under ops/, one column per motif of `aoc-rewrite list`, "x" where
# `ascendopt motifs <expert> --json` reports the motif present, and a last row counting the
# experts per motif. With --write, replaces the table between the expert-motifs markers
# of docs/ops.md instead of printing it.
# Usage: scripts/expert-motifs-table.sh [--write] [BUILD_DIR]
# Needs ascendopt and aoc-rewrite built in BUILD_DIR (default build) and python3.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WRITE=0
if [ "${1:-}" = "--write" ]; then
  WRITE=1
  shift
fi
BUILD="${1:-build}"
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
for tool in ascendopt aoc-rewrite; do
  if [ ! -x "$BUILD/bin/$tool" ]; then
    echo "error: $BUILD/bin/$tool is not built (cmake --build $BUILD --target $tool)" >&2
    exit 1
  fi
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$BUILD/bin/aoc-rewrite" list >"$work/list.json"
cd "$ROOT"
for dir in ops/*/*/expert; do
  rel="${dir#ops/}"
  rel="${rel%/expert}"
  "$BUILD/bin/ascendopt" motifs "$dir" --json >"$work/${rel//\//__}.json"
done

python3 - "$work" >"$work/table.md" <<'PY'
import json, os, sys
work = sys.argv[1]
motifs = [m["motif"] for m in json.load(open(os.path.join(work, "list.json")))["motifs"]]

def states(node, out):
    if isinstance(node, dict):
        if "motif" in node and "state" in node:
            out[node["motif"]] = node["state"]
        for v in node.values():
            states(v, out)
    elif isinstance(node, list):
        for v in node:
            states(v, out)

rows = []
for name in sorted(os.listdir(work)):
    if not name.endswith(".json") or name == "list.json":
        continue
    found = {}
    states(json.load(open(os.path.join(work, name))), found)
    rows.append((name[:-5].replace("__", "/"), found))
print("| expert | " + " | ".join("`%s`" % m for m in motifs) + " |")
print("|---|" + "|".join(":-:" for _ in motifs) + "|")
for expert, found in rows:
    print("| " + expert + " | " + " | ".join("x" if found.get(m) == "present" else "" for m in motifs) + " |")
counts = [sum(1 for _, f in rows if f.get(m) == "present") for m in motifs]
print("| **experts** | " + " | ".join(str(c) for c in counts) + " |")
PY

if [ "$WRITE" -eq 0 ]; then
  cat "$work/table.md"
  exit 0
fi
doc="$ROOT/docs/ops.md"
begin='<!-- expert-motifs:begin -->'
end='<!-- expert-motifs:end -->'
if ! grep -qF "$begin" "$doc" || ! grep -qF "$end" "$doc"; then
  echo "error: $doc has no $begin ... $end markers" >&2
  exit 1
fi
python3 - "$doc" "$work/table.md" "$begin" "$end" <<'PY'
import sys
doc, table, begin, end = sys.argv[1:5]
s = open(doc).read()
a = s.index(begin) + len(begin)
b = s.index(end)
open(doc, "w").write(s[:a] + "\n" + open(table).read() + s[b:])
PY
echo "wrote the expert/motif table of $doc"
