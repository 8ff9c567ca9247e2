#!/usr/bin/env python3
"""Before and after: every row of docs/bench/rows.conf run in two trees.

Runs each row's benchmark from an older checkout of the module (OLD) and
from this one, alternately (old, new, new, old, ... for --rounds rounds),
so that both meet the same phases of a shared host, and prints one
markdown table row per benchmark: the median wall time per operation of
each side, the CPU time per operation of each side (the benchmark's own
cpu-s/op or cpu-ns/op metric where it reports one, else the process's CPU
time over its wall time times the wall time per operation, marked †), and
the ratio after/before of the medians. A benchmark that moved between
packages is looked for in the row's package of OLD first, then in the
packages listed by --old-pkg (default ./linalg, the package the graph
packages were split from). Rows whose benchmark OLD lacks show "—".

usage: docs/bench/vs.py --old DIR [--only REGEX] [--rounds N] [--quick]
                        [--conf FILE] [--old-pkg PKG ...]
  --old DIR     the older checkout (for example: git worktree add --detach
                /tmp/old <commit>)
  --only RE     only the rows whose label matches RE
  --rounds N    rounds of old and new [2]
  --quick       rows marked quick only, -benchtime 1x -count 1, one round
Needs Go and GNU time (/usr/bin/time). Run it on an idle machine.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def rows(conf):
    out = []
    for line in open(conf, encoding="utf-8"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        f = [x.strip() for x in line.split("|")]
        if len(f) != 10:
            sys.exit(f"{conf}: {len(f)} fields in {line!r}, want 10")
        out.append(dict(area=f[0], what=f[1], target=f[2], pkg=f[3], bench=f[4],
                        benchtime=f[5], count=f[6], opts=f[7].split()))
    return out


def build(tree, pkg, tags, cache):
    key = (tree, pkg, tags)
    if key in cache:
        return cache[key]
    if not os.path.isdir(os.path.join(tree, pkg)):
        cache[key] = None
        return None
    out = os.path.join(cache["dir"], re.sub(r"[^A-Za-z0-9]", "_", f"{tree}{pkg}{tags}") + ".test")
    cmd = ["go", "test", "-c", "-o", out] + (["-tags", tags] if tags else []) + [pkg]
    r = subprocess.run(cmd, cwd=tree, capture_output=True, text=True)
    cache[key] = out if r.returncode == 0 and os.path.exists(out) else None
    return cache[key]


def has_bench(binary, bench):
    top = bench.split("/")[0]
    r = subprocess.run([binary, "-test.list", top], capture_output=True, text=True)
    return r.returncode == 0 and any(l.startswith("Benchmark") for l in r.stdout.split())


def locate(tree, row, extra, tags, cache):
    for pkg in [row["pkg"]] + extra:
        b = build(tree, pkg, tags, cache)
        if b and has_bench(b, row["bench"]):
            return b, os.path.join(tree, pkg)
    return None, None


def run(binary, pkgdir, bench, bt, count, timefile):
    cmd = ["/usr/bin/time", "-f", "rusage %e %U %S", "-o", timefile, binary,
           "-test.run", "^$", "-test.bench", bench, "-test.benchtime", bt, "-test.count", str(count)]
    r = subprocess.run(cmd, cwd=pkgdir, capture_output=True, text=True)
    walls, cpus, ops = [], [], 0
    for line in r.stdout.splitlines():
        if not line.startswith("Benchmark") or "ns/op" not in line:
            continue
        f = line.split()
        ops += int(f[1])
        for i in range(2, len(f) - 1, 2):
            v, u = float(f[i]), f[i + 1]
            if u == "ns/op":
                walls.append(v / 1e9)
            elif u == "cpu-s/op":
                cpus.append(v)
            elif u == "cpu-ns/op":
                cpus.append(v / 1e9)
    proc = None
    for line in open(timefile, encoding="utf-8"):
        if line.startswith("rusage"):
            _, e, u, s = line.split()
            proc = (float(e), float(u) + float(s))
    return walls, cpus, proc, (r.returncode == 0)


def fmt(s):
    if s is None:
        return "—"
    if s < 1e-3:
        return f"{s * 1e6:.3g} µs"
    if s < 1:
        return f"{s * 1e3:.3g} ms"
    return f"{s:.3g} s"


def side(results):
    walls = [w for r in results for w in r[0]]
    cpus = [c for r in results for c in r[1]]
    if not walls:
        return None, None, ""
    w = statistics.median(walls)
    if cpus:
        return w, statistics.median(cpus), ""
    ratios = [r[2][1] / r[2][0] for r in results if r[2] and r[2][0] > 0]
    return w, (w * statistics.median(ratios) if ratios else None), " †"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--conf", default=os.path.join(ROOT, "docs", "bench", "rows.conf"))
    ap.add_argument("--old-pkg", nargs="*", default=["./linalg"])
    a = ap.parse_args()
    old = os.path.abspath(a.old)
    cache = {"dir": tempfile.mkdtemp()}
    tf = os.path.join(cache["dir"], "time")
    print("| what | target | before: wall, CPU | after: wall, CPU | after/before |")
    print("|---|---|---|---|---|")
    for row in rows(a.conf):
        if a.only and not re.search(a.only, row["what"]):
            continue
        if a.quick and "quick" not in row["opts"]:
            continue
        tags = next((o[5:] for o in row["opts"] if o.startswith("tags=")), "")
        bt, count, rounds = row["benchtime"], int(row["count"]), a.rounds
        if a.quick:
            bt, count, rounds = "1x", 1, 1
        newb, newdir = locate(ROOT, row, [], tags, cache)
        oldb, olddir = locate(old, row, a.old_pkg, tags, cache)
        res = {"old": [], "new": []}
        for r in range(rounds):
            order = [("old", oldb, olddir), ("new", newb, newdir)]
            if r % 2:
                order.reverse()  # old, new, new, old, …: neither side always runs second
            for name, b, d in order:
                if b:
                    print(f"vs.py: {row['what']}: {name}, round {r + 1} of {rounds}", file=sys.stderr)
                    res[name].append(run(b, d, row["bench"], bt, count, tf))
        ow, oc, om = side(res["old"])
        nw, nc, nm = side(res["new"])
        ratio = f"{nw / ow:.2f}" if ow and nw else "—"
        print(f"| {row['what']} | {row['target']} | {fmt(ow)}, {fmt(oc)}{om} | {fmt(nw)}, {fmt(nc)}{nm} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()
