#!/usr/bin/env python3
"""Motifs over the operator suite: detection on every package and expert, every transform
the detectors allow (remove where present, apply where applicable), each transform evaluated
with `ascendopt eval` (public cases plus a seeded hidden draw) against its source kernel on
the same cases, and the table of docs/motifs.md written between its markers.

Usage: scripts/motifs_suite.py [--build build] [--jobs N] [--work DIR] [--only PKG,...]
                               [--motif M,...] [--batch N] [--experts-first] [--no-doc]
                               [--json FILE] [--resume FILE [--table-only | --redo PKG,...]]
                               [--packages DIR]
                               [--no-eval]
Run by scripts/motifs-doc.sh (which builds the programs first). --no-eval detects and writes
every transform without evaluating any (minutes instead of hours): the table then says which
transforms were written and which the rewriter refused, between the motifs-written markers.
--packages runs over the operator packages in DIR instead of ops/ (e.g. the public operators
scripts/compat-public.sh imports into WORK/packages); the table then goes to standard output,
not to docs/motifs.md. --resume takes the --json file of an earlier run (stopped, or from another
machine) and runs only the packages it did not cover, so a run of many hours can go on where it
stopped; its rows count as if this run had made them. With --table-only it only writes the table
of that file (a partial run's table, labelled as such). With --redo PKG,... it first forgets
those packages' rows and runs them again (after a motif changed what it detects there).
--resume may be given several times: the files' packages are combined (runs made on several
machines, or a --only run of a few packages made again), a later file's rows replacing an
earlier file's for a package both cover. A later file made with --motif M (a motif that changed,
run again on the packages whose detection of it changed) replaces only M's rows and detections
of the packages it covers: `--resume data/motifs-suite.json --resume F --table-only --json
data/motifs-suite.json` merges it into the suite's file. The first --resume file must have been
made with the run's own --motif (none: every motif) unless --table-only."""
import argparse
import concurrent.futures as futures
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- motifs-suite:begin -->"
END = "<!-- motifs-suite:end -->"
WRITTEN_BEGIN = "<!-- motifs-written:begin -->"
WRITTEN_END = "<!-- motifs-written:end -->"
HIDDEN_SEED = "1"
HIDDEN_COUNT = "2"
HIDDEN_MAX_ELEMENTS = "65536"


def targets(only, packages_dir=""):
    """(name, kind, folder) of every package (and its expert) of ops/, or of packages_dir."""
    folders = []
    if packages_dir:
        for name in sorted(os.listdir(packages_dir)):
            folders.append(os.path.join(packages_dir, name))
    else:
        ops = os.path.join(ROOT, "ops")
        for cat in sorted(os.listdir(ops)):
            for name in sorted(os.listdir(os.path.join(ops, cat))):
                folders.append(os.path.join(ops, cat, name))
    out = []
    for pkg in folders:
        name = os.path.basename(pkg)
        if not os.path.isfile(os.path.join(pkg, "op.toml")):
            continue
        if only and name not in only:
            continue
        out.append((name, "baseline", pkg))
        if os.path.isdir(os.path.join(pkg, "expert")):
            out.append((name, "expert", os.path.join(pkg, "expert")))
    return out


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def detect(ascendopt, target):
    name, kind, path = target
    rc, out, err = run([ascendopt, "motifs", path, "--json"])
    if rc != 0:
        return target, None, (err or out).strip()
    return target, json.loads(out)["motifs"], ""


def transform(ascendopt, work, target, motif, action):
    name, kind, path = target
    out_dir = os.path.join(work, "candidates", f"{name}-{kind}-{action}-{motif}")
    rc, out, err = run([ascendopt, "rewrite", path, "--" + action, motif, "--out", out_dir, "--json"])
    if rc == 3:
        return {"refused": json.loads(out).get("refused", "")}
    if rc != 0:
        return {"error": (err or out).strip()[:300]}
    return {"dir": out_dir}


def evaluate(ascendopt, dirs, jobs, work, timeout):
    env = dict(os.environ, ASCENDOPT_HIDDEN_SEED=HIDDEN_SEED)
    rc, out, err = run([ascendopt, "eval", *dirs, "-j", str(jobs), "--cases", "all", "--hidden-count", HIDDEN_COUNT,
                        "--hidden-max-elements", HIDDEN_MAX_ELEMENTS, "--seed", "1", "--json", "--timeout", str(timeout),
                        "--store", os.path.join(work, "eval.sqlite")], env)
    if rc > 1:
        sys.exit(f"error: ascendopt eval failed (exit {rc}): {err.strip()[:500]}")
    reports = {}
    for c in json.loads(out)["candidates"]:
        reports[os.path.realpath(c["candidate"])] = c
    return reports


def geomean_time(report, cases=None):
    """Geomean Task Duration of a passing report over its cases (or only those named)."""
    ts = [c["task_duration_us"] for c in report["cases"]
          if c.get("task_duration_us") and (cases is None or c["name"] in cases)]
    if not ts or (cases is None and report["verdict"] != "ok"):
        return None
    return math.exp(sum(math.log(t) for t in ts) / len(ts))


def judge(rep, base, relative):
    """(verdict, message, time, source time) of a transform's report against its source's.
    relative: the transform needs to pass only the cases its source passes (imported public
    kernels fail some of the placeholder cases and hidden draws themselves), and both are timed
    over those cases."""
    if not relative or rep["verdict"] == "compile_error" or base is None:
        t, t0 = geomean_time(rep), (geomean_time(base) if base else None)
        return rep["verdict"], rep.get("message", ""), t, t0
    passed = [c["name"] for c in base["cases"] if c["verdict"] == "ok"]
    by_name = {c["name"]: c for c in rep["cases"]}
    for name in passed:
        c = by_name.get(name)
        if c is None or c["verdict"] != "ok":
            verdict = c["verdict"] if c else "missing"
            return verdict, f"case {name}: " + (c.get("message", "") if c else "not run"), None, None
    if not passed:
        return "source_fails_every_case", base.get("message", ""), None, None
    return "ok", "", geomean_time(rep, set(passed)), geomean_time(base, set(passed))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--work", default="")
    ap.add_argument("--only", default="", help="comma-separated package names")
    ap.add_argument("--motif", default="", help="comma-separated motifs whose transforms to make (default: all)")
    ap.add_argument("--timeout", type=float, default=300,
                    help="wall-clock limit per case, seconds (the 1e7-element cases need more than eval's 30 s on a loaded machine)")
    ap.add_argument("--no-doc", action="store_true")
    ap.add_argument("--batch", type=int, default=0,
                    help="packages per batch: the JSON and the table are rewritten after each batch, so a stopped run "
                         "leaves a table of the packages done, labelled partial (default: all in one batch)")
    ap.add_argument("--experts-first", action="store_true",
                    help="run the packages that have an expert before the others (with --batch)")
    ap.add_argument("--json", default="", help="also write every result to this file")
    ap.add_argument("--resume", action="append", default=[],
                    help="the --json file of an earlier run with the same options: its packages are not run again; "
                         "given more than once, the files' packages are combined, a later file's rows replacing an "
                         "earlier one's for a package both cover (a later file made with --motif replaces only "
                         "those motifs' rows and detections)")
    ap.add_argument("--redo", default="",
                    help="with --resume: comma-separated packages of that file to run again, their earlier rows dropped")
    ap.add_argument("--table-only", action="store_true",
                    help="with --resume: write the table of that file's packages and run nothing")
    ap.add_argument("--packages", default="",
                    help="run over the operator packages in this folder instead of ops/ (implies --no-doc)")
    ap.add_argument("--relative", action="store_true",
                    help="a transform is correct when it passes every case its source kernel passes, and is timed "
                         "over those (for imported kernels that fail some of their own cases)")
    ap.add_argument("--no-eval", action="store_true",
                    help="detect and write every transform but evaluate none; the table goes between the "
                         "motifs-written markers of docs/motifs.md")
    a = ap.parse_args()
    if a.packages:
        a.no_doc = True
    ascendopt = os.path.join(os.path.abspath(a.build), "bin", "ascendopt")
    work = a.work or tempfile.mkdtemp(prefix="aoc-motifs-")
    shutil.rmtree(os.path.join(work, "candidates"), ignore_errors=True)
    os.makedirs(os.path.join(work, "candidates"), exist_ok=True)
    os.environ.setdefault("ASCENDOPT_HOME", ROOT)
    only = set(x for x in a.only.split(",") if x)
    only_motifs = set(x for x in a.motif.split(",") if x)

    tgts = targets(only, os.path.abspath(a.packages) if a.packages else "")
    packages = []
    for t in tgts:
        if t[0] not in packages:
            packages.append(t[0])
    if a.experts_first:
        # Packages with an expert first (stable otherwise): a stopped run then covers them.
        has_expert = set(t[0] for t in tgts if t[1] == "expert")
        packages.sort(key=lambda p: p not in has_expert)
    size = a.batch if a.batch > 0 else len(packages)
    batches = [packages[i:i + size] for i in range(0, len(packages), size)]
    states, errors, rows, covered = {}, [], [], []
    if a.redo and (not a.resume or a.table_only):
        sys.exit("error: --redo runs packages of a --resume file again: give --resume FILE, without --table-only")
    if a.resume:
        for i, path in enumerate(a.resume):  # a later file's packages replace an earlier one's
            more = load_earlier(path, packages)
            if i == 0 and not a.table_only and set(more[4] or []) != only_motifs:
                sys.exit(f"error: --resume {path}: made with --motif {','.join(more[4] or []) or '(every motif)'}, "
                         f"this run with --motif {','.join(sorted(only_motifs)) or '(every motif)'}; give the same "
                         "--motif, or give that file after the whole run's file to merge its motifs into it")
            if i > 0 and more[4]:
                states, errors, rows = merged_motifs(more, states, errors, rows)
                covered += [p for p in more[3] if p not in covered]
                continue
            states, errors, rows, covered = without(set(more[3]), states, errors, rows, covered)
            states.update(more[0])
            errors += more[1]
            rows += more[2]
            covered += more[3]
        if a.redo:
            names = [p for p in a.redo.split(",") if p]
            unknown = [p for p in names if p not in covered]
            if unknown:
                sys.exit(f"error: --redo {', '.join(unknown)}: not among the packages of the --resume file "
                         f"(it covers {len(covered)}: {', '.join(covered)})")
            states, errors, rows, covered = without(set(names), states, errors, rows, covered)
        batches = [[p for p in b if p not in covered] for b in batches]
        batches = [b for b in batches if b] or [[]]
        if a.table_only:
            batches = [[]]
    elif a.table_only:
        sys.exit("error: --table-only writes the table of a --resume file; give --resume FILE")
    for bi, batch in enumerate(batches):
        run_batch(a, ascendopt, work, [t for t in tgts if t[0] in batch], only_motifs, states, errors, rows)
        covered += batch
        complete = set(covered) >= set(packages)
        print(f"batch {bi + 1}/{len(batches)} done: {len(covered)} of {len(packages)} packages", file=sys.stderr)
        write_results(a, states, rows, errors, only, covered if not complete else None, packages)


def run_batch(a, ascendopt, work, tgts, only_motifs, states, errors, rows):
    with futures.ThreadPoolExecutor(a.jobs) as pool:
        for target, motifs, err in pool.map(lambda t: detect(ascendopt, t), tgts):
            if motifs is None:
                errors.append((target, err))
            else:
                states[target] = motifs
    jobs = []
    for target in tgts:
        for m in states.get(target, []):
            if only_motifs and m["motif"] not in only_motifs:
                continue
            if m["state"] == "present":
                jobs.append((target, m["motif"], "remove"))
            elif m["state"] == "applicable":
                jobs.append((target, m["motif"], "apply"))
    with futures.ThreadPoolExecutor(a.jobs) as pool:
        outcomes = list(pool.map(lambda j: transform(ascendopt, work, *j), jobs))
    written = [o["dir"] for o in outcomes if "dir" in o]
    reports = {}
    if written and not a.no_eval:
        print(f"{len(jobs)} transforms attempted, {len(written)} written; evaluating", file=sys.stderr)
        sources = sorted(set(t[2] for t, _, _ in jobs))
        reports = evaluate(ascendopt, sources + written, a.jobs, work, a.timeout)

    for (target, motif, action), o in zip(jobs, outcomes):
        row = {"op": target[0], "kind": target[1], "motif": motif, "action": action}
        row.update({k: v for k, v in o.items() if k != "dir"})
        if "dir" in o and a.no_eval:
            row["written"] = True
        elif "dir" in o:
            rep = reports.get(os.path.realpath(o["dir"]))
            base = reports.get(os.path.realpath(target[2]))
            verdict, message, t, t0 = judge(rep, base, a.relative) if rep else ("missing", "", None, None)
            row["verdict"] = verdict
            if verdict != "ok":
                row["message"] = message[:300]
            if t and t0:
                row["effect"] = t0 / t if action == "apply" else t / t0
                row["faster"] = t < t0
        rows.append(row)


def load_earlier(path, packages):
    """states, errors, rows and covered packages of an earlier run's --json file."""
    try:
        with open(path) as f:
            old = json.load(f)
        states = {tuple(t): ms for t, ms in old["states"]}
        errors = [(tuple(t), e) for t, e in old["errors"]]
        rows, covered = old["rows"], old["covered"]
        motifs = old.get("motifs")
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"error: --resume {path}: not the --json file of a motifs_suite.py run ({e}); "
                 "run without --resume to start again")
    unknown = [p for p in covered if p not in packages]
    if unknown:
        sys.exit(f"error: --resume {path}: covers packages this run does not have ({', '.join(unknown)}); "
                 "give the same --only/--packages as that run")
    # A package's source folder may sit elsewhere on this machine: keep the recorded names only.
    return states, errors, rows, list(covered), motifs


def merged_motifs(more, states, errors, rows):
    """The results with those of a later --resume file made with --motif merged in: for the
    packages it covers, its rows and detections of its motifs replace the earlier ones; the
    other motifs' rows and detections stay (a target the results lack is taken whole)."""
    m_states, m_errors, m_rows, m_covered, motifs = more
    cov, ms = set(m_covered), set(motifs)
    rows = [r for r in rows if not (r["op"] in cov and r["motif"] in ms)] + [r for r in m_rows if r["motif"] in ms]
    for t, found in m_states.items():
        if t not in states:
            states[t] = found
            continue
        by_motif = {d["motif"]: d for d in found}
        states[t] = [by_motif[d["motif"]] if d["motif"] in ms and d["motif"] in by_motif else d for d in states[t]]
    errors = [(t, e) for t, e in errors if t not in m_states] + m_errors
    return states, errors, rows


def without(drop, states, errors, rows, covered):
    """The results without the packages in `drop`."""
    return ({t: ms for t, ms in states.items() if t[0] not in drop}, [(t, e) for t, e in errors if t[0] not in drop],
            [r for r in rows if r["op"] not in drop], [p for p in covered if p not in drop])


# The JSON and the table of docs/motifs.md so far; `covered` lists the packages done when the
# run is not complete (the table then says it is partial).
def write_results(a, states, rows, errors, only, covered, packages):
    summary = summarize(states, rows)
    if a.json:
        text = json.dumps({"rows": rows, "errors": [[list(t), e] for t, e in errors], "summary": summary,
                           "states": [[list(t), ms] for t, ms in states.items()],
                           "covered": covered or packages, "complete": covered is None,
                           # the motifs whose transforms were made (absent: every motif)
                           **({"motifs": sorted(set(x for x in a.motif.split(",") if x))} if a.motif else {})},
                          indent=1)
        # Paths under this tree (package folders, and files named in the rewriter's reasons) are
        # recorded relative to it: the file names no machine.
        with open(a.json, "w") as f:
            f.write(text.replace(ROOT + os.sep, ""))
    table = (render_written if a.no_eval else render)(summary, rows, errors, sorted(only), a, covered, packages)
    if not a.no_doc:
        begin, end = (WRITTEN_BEGIN, WRITTEN_END) if a.no_eval else (BEGIN, END)
        doc = os.path.join(ROOT, "docs", "motifs.md")
        text = open(doc).read()
        if begin in text and end in text:
            text = text[: text.index(begin) + len(begin)] + "\n" + table + text[text.index(end):]
        else:
            text += "\n" + begin + "\n" + table + end + "\n"
        open(doc, "w").write(text)
    if covered is None:
        print(table)


def summarize(states, rows):
    motifs = []
    for ms in states.values():
        for m in ms:
            if m["motif"] not in motifs:
                motifs.append(m["motif"])
    out = {}
    for motif in motifs:
        s = {"present": [], "applicable": [], "not_applicable": []}
        for (name, kind, _), ms in sorted(states.items()):
            for m in ms:
                if m["motif"] == motif:
                    s[m["state"]].append(name + ("*" if kind == "expert" else ""))
        mine = [r for r in rows if r["motif"] == motif]
        for action in ("remove", "apply"):
            rs = [r for r in mine if r["action"] == action]
            effects = [r["effect"] for r in rs if "effect" in r]
            s[action] = {
                "attempted": len(rs),
                "only_written": sum(1 for r in rs if r.get("written")),
                "refused": sum(1 for r in rs if "refused" in r),
                "written": sum(1 for r in rs if "verdict" in r),
                "compiled": sum(1 for r in rs if r.get("verdict") not in (None, "compile_error", "missing", "error")),
                "correct": sum(1 for r in rs if r.get("verdict") == "ok"),
                "median_effect": statistics.median(effects) if effects else None,
            }
        out[motif] = s
    return out


def scope_and_command(only, a, covered, packages, lines):
    """What the run covered (a partial run says so first, in lines) and its exact command."""
    where = "the packages in " + a.packages if a.packages else "ops/"
    scope = (f"every package (`name`) and expert (`name*`) of {where}" if not only else
             "the packages " + ", ".join(only) + " (`name`) and their experts (`name*`)")
    if covered is not None:
        scope = "the packages listed above (`name`) and their experts (`name*`)"
        order = "packages with an expert first, then ops/ order" if a.experts_first else "ops/ order"
        lines.append(f"**Partial run**: the run was stopped after {len(covered)} of the {len(packages)} packages ({order}); "
                     f"the table covers only these and their experts: {', '.join(covered)}. The other packages were "
                     f"not run.")
        lines.append("")
    # The exact command (scripts/motifs-doc.sh passes its options through).
    return scope, "scripts/motifs_suite.py " + " ".join(sys.argv[1:])


def state_cells(s):
    cell = lambda names: f"{len(names)}: " + ", ".join(names) if names else "0"
    return f"{cell(s['present'])} | {cell(s['applicable'])} | {len(s['not_applicable'])}"


def unreadable(errors, lines):
    if errors:
        lines.append("")
        lines.append("Kernels the detectors could not read:")
        lines.append("")
        for (name, kind, _), e in errors:
            lines.append(f"- {name}{'*' if kind == 'expert' else ''}: {e[:200]}")


def render_written(summary, rows, errors, only, a, covered, packages):
    lines = []
    scope, command = scope_and_command(only, a, covered, packages, lines)
    written = sum(1 for r in rows if r.get("written"))
    refused = sum(1 for r in rows if "refused" in r)
    failed = [r for r in rows if "error" in r]
    lines.append(f"Generated by `{command}` over {scope}: every motif detected, and every transform the detectors "
                 f"allow (remove where present, apply where applicable) written by `ascendopt rewrite`, none "
                 f"evaluated: **{len(rows)} transforms attempted, {written} written, {refused} refused with a reason, "
                 f"{len(failed)} failed**.")
    lines.append("")
    lines.append("| motif | present | applicable | not applicable | remove: written (refused) | apply: written (refused) |")
    lines.append("|---|---|---|---|---|---|")
    for motif, s in summary.items():
        rm, ap = s["remove"], s["apply"]
        lines.append(f"| `{motif}` | {state_cells(s)} | {rm['only_written']} ({rm['refused']}) | "
                     f"{ap['only_written']} ({ap['refused']}) |")
    for title, field in (("Transforms refused (the detector allowed them, the rewrite found a reason not to):", "refused"),
                         ("Transforms that failed:", "error")):
        listed = [r for r in rows if field in r]
        if listed:
            lines += ["", title, ""]
            for r in listed:
                lines.append(f"- {r['op']}{'*' if r['kind'] == 'expert' else ''} {r['action']} `{r['motif']}`: {r[field]}")
    unreadable(errors, lines)
    lines.append("")
    return "\n".join(lines)


def render(summary, rows, errors, only, a, covered, packages):
    lines = []
    total = sum(1 for r in rows if "verdict" in r)
    correct = sum(1 for r in rows if r.get("verdict") == "ok")
    gate = ("every case their source kernel passes, of the public cases and" if a.relative else
            "every public case and")
    scope, command = scope_and_command(only, a, covered, packages, lines)
    lines.append(f"Generated by `{command}` over {scope}: "
                 f"**{total} transforms written, {correct} correct** (compile and pass {gate} a "
                 f"hidden draw of {HIDDEN_COUNT} cases, ASCENDOPT_HIDDEN_SEED={HIDDEN_SEED}, at most {HIDDEN_MAX_ELEMENTS} "
                 f"elements). Effect: geomean simulated Task Duration over those cases, source kernel against transform "
                 f"(apply: speedup = before / after; remove: slowdown = after / before), median over the packages.")
    timed = [r for r in rows if r.get("verdict") == "ok" and "faster" in r]
    faster = sum(1 for r in timed if r["faster"])
    lines.append("")
    lines.append(f"Of the {len(timed)} correct transforms with a time, {faster} made the kernel faster than its source "
                 f"and {len(timed) - faster} not (equal or slower).")
    lines.append("")
    lines.append("| motif | present | applicable | not applicable | remove: written / compiled / correct (refused) | "
                 "median slowdown of remove | apply: written / compiled / correct (refused) | median speedup of apply |")
    lines.append("|---|---|---|---|---|---|---|---|")
    fmt = lambda v: "-" if v is None else f"{v:.3f}x"
    for motif, s in summary.items():
        rm, ap = s["remove"], s["apply"]
        lines.append(f"| `{motif}` | {state_cells(s)} | "
                     f"{rm['written']} / {rm['compiled']} / {rm['correct']} ({rm['refused']}) | {fmt(rm['median_effect'])} | "
                     f"{ap['written']} / {ap['compiled']} / {ap['correct']} ({ap['refused']}) | {fmt(ap['median_effect'])} |")
    bad = [r for r in rows if ("verdict" in r and r["verdict"] != "ok") or "error" in r]
    if bad:
        lines.append("")
        lines.append("Transforms that failed:")
        lines.append("")
        for r in bad:
            why = r.get("message") or r.get("error", "")
            lines.append(f"- {r['op']}{'*' if r['kind'] == 'expert' else ''} {r['action']} `{r['motif']}`: "
                         f"{r.get('verdict', 'not written')} {why}".rstrip())
    unreadable(errors, lines)
    lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
