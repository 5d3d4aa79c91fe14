#!/usr/bin/env python3
"""Figures of an `ascendopt bench` output folder from its finished runs alone, so a benchmark
still running (or stopped, or unpacked from scripts/bench-runs.sh) can be read: per method and
budget over the operators every listed method finished for every seed, the geomean speedup
(unverified runs count 1.0), the share of operators made faster, the geomean best speedup after
each number of evaluations, the evaluations spent to reach the final best, and how many
evaluations took exactly the time of an earlier one of the same run with the same motifs (a
configuration that changed nothing the kernel did: spent, but nothing learnt); then one line per
operator.

Usage: scripts/bench-runs-table.py OUT_DIR [--methods M,...] [--budget B] [--seeds K]"""
import argparse
import glob
import json
import math
import os
import re
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--methods", default="", help="comma-separated (default: every method found)")
    ap.add_argument("--budget", type=int, default=0, help="default: the largest found")
    ap.add_argument("--seeds", type=int, default=3)
    a = ap.parse_args()
    runs = {}
    for f in glob.glob(os.path.join(a.out, "runs", "*", "report.json")):
        m = re.match(r"(.+)-(.+?)-b(\d+)-s(\d+)$", os.path.basename(os.path.dirname(f)))
        if not m:
            continue
        r = json.load(open(f))
        runs[(r["op"], r["method"] + ("@bank" if r.get("motif_order", "random") != "random" else ""),
              r["budget"], r["seed"])] = r
    if not runs:
        sys.exit(f"error: {a.out} has no finished run (runs/*/report.json)")
    methods = [x for x in a.methods.split(",") if x] or sorted({k[1] for k in runs})
    budget = a.budget or max(k[2] for k in runs)
    seeds = range(1, a.seeds + 1)
    ops = sorted({k[0] for k in runs if all((k[0], m, budget, s) in runs for m in methods for s in seeds)})
    if not ops:
        sys.exit("error: no operator has every method and seed finished at budget %d" % budget)

    def speedup(r):
        return r["speedup"] if r.get("verified") and r["speedup"] > 0 else 1.0

    def same_time(r):
        seen, n = set(), 0
        for h in r.get("history", []):
            if h.get("verdict") != "ok":
                continue
            k = (tuple(h.get("motifs", [])), h["time_us"])
            n += k in seen
            seen.add(k)
        return n

    def to_best(r):
        p = r.get("progress") or [1.0]
        return next(i + 1 for i, v in enumerate(p) if v >= p[-1])

    points = [n for n in (1, 2, 4, 8, 16, 32, 64, 128, 256) if n <= budget]
    print(f"{len(ops)} operators with every method and seed 1-{a.seeds} finished at budget {budget}")
    print(f"{'method':<20} {'geomean':>8} {'seed range':>15} {'f1':>5} {'evals spent':>11} {'evals to best':>13} {'same time':>9}  "
          f"progress (geomean best after {', '.join(map(str, points))} evaluations)")
    for m in methods:
        rs = [runs[(o, m, budget, s)] for o in ops for s in seeds]
        g = math.exp(sum(math.log(speedup(r)) for r in rs) / len(rs))
        per_seed = [math.exp(sum(math.log(speedup(runs[(o, m, budget, s)])) for o in ops) / len(ops)) for s in seeds]
        f1 = sum(1 for r in rs if speedup(r) > 1.0) / len(rs)
        spent = sum(r["evaluations"] for r in rs) / len(rs)
        best_at = sum(to_best(r) for r in rs) / len(rs)
        repeats = f"{sum(same_time(r) for r in rs)}/{sum(len(r.get('history', [])) for r in rs)}"
        curve = []
        for n in points:
            vals = [(r.get("progress") or [1.0]) for r in rs]
            curve.append(math.exp(sum(math.log(v[min(n, len(v)) - 1]) for v in vals) / len(vals)))
        print(f"{m:<20} {g:8.4f} {min(per_seed):7.4f}-{max(per_seed):.4f} {f1:5.2f} {spent:11.2f} {best_at:13.2f} {repeats:>9}  "
              + " ".join(f"{c:.4f}" for c in curve))
    print()
    print("per operator, speedup of seeds 1-%d (evaluations to the best):" % a.seeds)
    for o in ops:
        cells = []
        for m in methods:
            rs = [runs[(o, m, budget, s)] for s in seeds]
            cells.append(m + " " + "/".join(f"{speedup(r):.3f}({to_best(r)})" for r in rs))
        print(f"  {o:<22} " + "   ".join(cells))


if __name__ == "__main__":
    main()
