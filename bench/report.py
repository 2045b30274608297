#!/usr/bin/env python3
"""Turns run_baselines.sh results into the table of BENCHMARKS.md: medians, ratios to Hugo,
peak memory, output size, and each target of the performance issue marked met or not.

Usage: report.py WORK_DIR RULEBOOK_BIN
"""
import csv
import os
import subprocess
import sys

work, binary = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(os.path.join(work, "results", "results.tsv")), delimiter="\t"))
by = {(r["scale"], r["tool"]): r for r in rows if r["median_s"]}
scales = sorted({r["scale"] for r in rows}, key=int)
# The floor: read + render + write, both cores. Timed by run.sh in the same run when it could
# be; otherwise the figures of shared/bench/BASELINES.md, from another day.
floor = {"200": 0.033, "2000": 0.7}
floor_note = "BASELINES.md"
for s in ("200", "2000"):
    p = os.path.join(work, "results", "raw", f"floor-{s}.json")
    if os.path.exists(p):
        import json
        floor[s] = json.load(open(p))["results"][0]["median"]
        floor_note = "this run"


def f(x):
    return float(x) if x not in (None, "") else None


print("| chapters | tool | wall median s | CPU s | peak RSS MiB | output MiB | files | time / Hugo |")
print("|---:|---|---:|---:|---:|---:|---:|---:|")
for s in scales:
    hugo = by.get((s, "hugo"))
    for tool in ("rulebook", "hugo", "pagefind", "mdbook"):
        r = by.get((s, tool))
        if not r:
            continue
        ratio = f"{f(r['median_s']) / f(hugo['median_s']):.2f}" if hugo else ""
        print(f"| {s} | {tool} | {r['median_s']} | {r['cpu_s']} | {r['peak_rss_mib']} | "
              f"{int(r['out_bytes']) / 1048576:.1f} | {r['files']} | {ratio} |")
print()


# the same tools timed in turns (paired.py), when run.sh timed them so
paired = os.path.join(work, "results", "paired.md")
if os.path.exists(paired) and os.path.getmtime(paired) >= os.path.getmtime(
        os.path.join(work, "results", "results.tsv")):
    print("Hugo and rulebook timed in turns (each round: both tools, output deleted before each):")
    print()
    print(open(paired).read())


def search_bytes(out):
    """Bytes of the browser search index: every file below a folder named `search`."""
    total = 0
    for root, _, files in os.walk(out):
        if "search" in os.path.relpath(root, out).split(os.sep):
            total += sum(os.path.getsize(os.path.join(root, x)) for x in files)
    return total


def mark(ok):
    return "met" if ok else "**not met**"


rb = {s: by.get((s, "rulebook")) for s in scales}
hg = {s: by.get((s, "hugo")) for s in scales}
print("| target | measured | verdict |")
print("|---|---|---|")
if rb.get("2000") and hg.get("2000"):
    t, h = f(rb["2000"]["median_s"]), f(hg["2000"]["median_s"])
    print(f"| 2,000 chapters: time ≤ 0.4 × Hugo | {t:.2f} s = {t / h:.2f} × Hugo ({h:.2f} s) | {mark(t <= 0.4 * h)} |")
    print(f"| 2,000 chapters: time ≤ 3 × floor | {t / floor['2000']:.1f} × floor ({floor['2000']:.2f} s, {floor_note}) | {mark(t <= 3 * floor['2000'])} |")
    m, hm = f(rb["2000"]["peak_rss_mib"]), f(hg["2000"]["peak_rss_mib"])
    print(f"| 2,000 chapters: peak memory ≤ 0.5 × Hugo | {m:.0f} MiB = {m / hm:.2f} × Hugo ({hm:.0f} MiB) | {mark(m <= 0.5 * hm)} |")
    o, ho = int(rb["2000"]["out_bytes"]), int(hg["2000"]["out_bytes"])
    idx = search_bytes(os.path.join(work, "c2000", "rulebook", "public"))
    print(f"| 2,000 chapters: output ≤ Hugo's output + search index | {o / 1048576:.1f} MiB, of which search index "
          f"{idx / 1048576:.1f} MiB; Hugo {ho / 1048576:.1f} MiB | {mark(o <= ho + idx)} |")
if rb.get("200") and hg.get("200"):
    t, h = f(rb["200"]["median_s"]), f(hg["200"]["median_s"])
    print(f"| 200 chapters: time ≤ 0.5 × Hugo | {t:.3f} s = {t / h:.2f} × Hugo ({h:.3f} s) | {mark(t <= 0.5 * h)} |")
if rb.get("200") and rb.get("2000"):
    a, b = f(rb["200"]["median_s"]), f(rb["2000"]["median_s"])
    print(f"| 10× chapters costs ≤ 11× time | {b / a:.1f}× | {mark(b / a <= 11)} |")

# incremental rebuild after editing one chapter (the path `rulebook serve` uses)
site = os.path.join(work, "c2000", "rulebook")
if os.path.isdir(site):
    try:
        out = subprocess.run([binary, "bench-incremental", "--site", site, "--runs", "7"],
                             capture_output=True, text=True, timeout=600)
        if out.returncode == 0 and out.stdout.strip():
            ms = float(out.stdout.strip().split()[0])
            print(f"| rebuild after editing one chapter ≤ 100 ms (2,000 chapters) | {ms:.0f} ms (median of 7) | {mark(ms <= 100)} |")
        else:
            print("| rebuild after editing one chapter ≤ 100 ms | not measured: " + (out.stderr.strip().splitlines() or ["no incremental path"])[-1][:80] + " | **not met** |")
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"| rebuild after editing one chapter ≤ 100 ms | not measured ({e}) | **not met** |")
