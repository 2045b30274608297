#!/usr/bin/env python3
"""Hugo and rulebook timed in turns on the same corpora: the ratio of each round, and its median.

run_baselines.sh times all of one tool's runs, then all of the other's. On this shared machine
the speed moves within minutes, and on ext4 without a journal a tool that deletes its previous
output and writes it again gets slower with every run (the kernel skips recently deleted
inodes one by one when it hands out new ones; see BENCHMARKS.md): Hugo's five runs at 2,000
chapters went from 4.8 to 7.4 s in one run. Timed in turns, each round's two builds see the
same machine and the same disk, and the median of the rounds' ratios says more than a ratio of
two medians taken minutes apart.

Usage: paired.py WORK_DIR RULEBOOK_BIN SCALES RUNS   (SCALES as "200 2000")
Prints a Markdown table; run.sh saves it beside the other results and report.py shows it.
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

work, binary, scales, runs = sys.argv[1], sys.argv[2], sys.argv[3].split(), int(sys.argv[4])


def timed(cmd, out):
    """Wall seconds of one build into an emptied output folder, as hyperfine's --prepare."""
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


print("| chapters | rounds | rulebook median s | Hugo median s | median of the rounds' ratios | lowest–highest ratio |")
print("|---:|---:|---:|---:|---:|---|")
for n in scales:
    corpus = os.path.join(work, f"c{n}")
    hugo_src, rb_src = os.path.join(corpus, "hugo"), os.path.join(corpus, "rulebook")
    if not (os.path.isdir(hugo_src) and os.path.isdir(rb_src)):
        continue
    hugo_out, rb_out = os.path.join(hugo_src, "public"), os.path.join(rb_src, "public")
    tools = {
        "hugo": (["hugo", "--quiet", "--source", hugo_src, "--destination", hugo_out], hugo_out),
        "rulebook": ([binary, "build", "--site", rb_src, "--output", rb_out], rb_out),
    }
    for cmd, out in tools.values():  # warm-up, not counted
        timed(cmd, out)
    times = {"hugo": [], "rulebook": []}
    for r in range(runs):
        # who goes first alternates, so neither always builds right after the other's writes
        for name in (("hugo", "rulebook") if r % 2 == 0 else ("rulebook", "hugo")):
            times[name].append(timed(*tools[name]))
    ratios = [a / b for a, b in zip(times["rulebook"], times["hugo"])]
    print(f"| {n} | {runs} | {statistics.median(times['rulebook']):.3f} | "
          f"{statistics.median(times['hugo']):.3f} | {statistics.median(ratios):.2f} | "
          f"{min(ratios):.2f}–{max(ratios):.2f} |")
