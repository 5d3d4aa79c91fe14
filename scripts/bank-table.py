#!/usr/bin/env python3
"""The per-motif table of docs/bank.md from an experience bank: for each motif, its positive
and negative entries and, per source operator, the kernel's speedup over its rewound variant
(geomean over the cases the entry measured), then a totals line.

Usage: scripts/bank-table.py BANK.sqlite [--ascendopt build/bin/ascendopt]
Reads the bank through `ascendopt bank export --json`, so it needs no knowledge of the schema."""
import argparse
import collections
import json
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bank", help="experience bank file (SQLite)")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--ascendopt", default=os.path.join(root, "build", "bin", "ascendopt"))
    args = ap.parse_args()
    if not os.path.isfile(args.bank):
        sys.exit(f"error: {args.bank}: no such bank file")
    if not os.access(args.ascendopt, os.X_OK):
        sys.exit(f"error: {args.ascendopt} is not built (cmake --build build --target ascendopt)")
    out = subprocess.run([args.ascendopt, "bank", "export", "--json", "--bank", args.bank],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"error: ascendopt bank export failed: {out.stderr.strip()}")
    entries = json.loads(out.stdout)["entries"]

    by_motif = collections.defaultdict(list)
    for e in entries:
        by_motif[e["motif"]].append(e)
    print("| motif | positive | negative | kernel over rewound (geomean over the cases) |")
    print("|---|---|---|---|")
    for motif in sorted(by_motif):
        es = sorted(by_motif[motif], key=lambda e: e["op"])
        pos = sum(e["kind"] == "positive" for e in es)
        neg = sum(e["kind"] == "negative" for e in es)
        effects = ", ".join(f"{e['op']} {float(e['geomean']):.3f}x" for e in es)
        print(f"| `{motif}` | {pos} | {neg} | {effects} |")
    kinds = collections.Counter(e["kind"] for e in entries)
    ops = {e["op"] for e in entries}
    created = sorted(e["created"] for e in entries)
    span = f", created {created[0]} to {created[-1]}" if created else ""
    print(f"\n{len(entries)} entries ({kinds['positive']} positive, {kinds['negative']} negative) "
          f"from {len(ops)} kernels over {len(by_motif)} motifs{span}")


if __name__ == "__main__":
    main()
