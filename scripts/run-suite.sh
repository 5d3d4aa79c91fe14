#!/usr/bin/env bash
# `make suite`: runs every operator package in ops/ on the CPU against its golden
# reference and prints per-case verdicts, errors and simulated times.
# Usage: scripts/run-suite.sh [BUILD_DIR] [extra ascendopt run options...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-build}"
shift || true
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
BIN="$BUILD/bin/ascendopt"
if [ ! -x "$BIN" ]; then
  echo "error: $BIN not found; build first with: cmake -S $ROOT -B $BUILD && cmake --build $BUILD --target ascendopt" >&2
  exit 1
fi
echo "== operator suite: $("$BIN" ops list "$ROOT/ops" | tail -n +2 | wc -l) packages"
"$BIN" ops list "$ROOT/ops"
echo
echo "== ascendopt run $ROOT/ops $*"
exec "$BIN" run "$ROOT/ops" "$@"
