#!/usr/bin/env bash
# Keeps the finished runs of an `ascendopt bench` output folder in one file and puts them back:
# each run's report.json and the folder's hidden seed are all that `bench` reads to skip a
# finished run and to report it, so a benchmark too long for one sitting can go on after its
# folder is lost, or on another machine, with the same verification draw.
# Usage: scripts/bench-runs.sh pack OUT_DIR FILE.tar.gz [RUN_GLOB]
#        scripts/bench-runs.sh unpack FILE.tar.gz OUT_DIR
# RUN_GLOB keeps only the runs whose folder name matches it (e.g. '*-b32-*': one budget).
set -euo pipefail
usage() { echo "usage: $0 pack OUT_DIR FILE.tar.gz [RUN_GLOB] | unpack FILE.tar.gz OUT_DIR" >&2; exit 2; }
[ $# -eq 3 ] || { [ $# -eq 4 ] && [ "$1" = pack ]; } || usage
case "$1" in
  pack)
    out="$2" file="$3" glob="${4:-*}"
    [ -f "$out/hidden_seed" ] || { echo "error: $out/hidden_seed is missing: $out is not an ascendopt bench output folder" >&2; exit 1; }
    list="$(cd "$out" && find runs -mindepth 2 -maxdepth 2 -path "runs/$glob/report.json" | sort)"
    [ -n "$list" ] || { echo "error: $out has no finished run matching '$glob' (no runs/$glob/report.json)" >&2; exit 1; }
    # Sorted names, fixed owner and time: the same runs make the same file.
    (cd "$out" && printf '%s\n' hidden_seed $list |
       tar --owner=0 --group=0 --numeric-owner --mtime='2000-01-01 00:00Z' --no-recursion -cf - -T -) |
      gzip -n -9 > "$file"
    echo "$(printf '%s\n' $list | wc -l) finished run(s) of $out kept in $file"
    ;;
  unpack)
    file="$2" out="$3"
    [ -f "$file" ] || { echo "error: $file does not exist" >&2; exit 1; }
    mkdir -p "$out"
    if [ -f "$out/hidden_seed" ] && ! tar -xzf "$file" -O hidden_seed | cmp -s - "$out/hidden_seed"; then
      echo "error: $out already holds runs verified with another hidden seed; unpack into an empty folder" >&2
      exit 1
    fi
    tar -xzf "$file" -C "$out" --skip-old-files
    echo "$(tar -tzf "$file" | grep -c 'report.json$') finished run(s) in $out; 'ascendopt bench ... --out $out' skips them"
    ;;
  *) usage ;;
esac
