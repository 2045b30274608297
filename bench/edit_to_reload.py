#!/usr/bin/env python3
"""Edit-to-reload time of `rulebook serve`: starts the server on SITE, appends a paragraph to
one English chapter RUNS times, and times (a) until the long-poll that open pages wait on is
answered and (b) until the served page has the edit. Restores the chapter afterwards.

Usage: edit_to_reload.py SITE RULEBOOK_BIN RUNS
"""
import json, os, statistics, subprocess, sys, time, urllib.request
site, binary, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
p = subprocess.Popen([binary, "serve", "--site", site, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
addr = p.stdout.readline().strip().split("serving ")[1].rstrip("/")
def status(q):
    return json.load(urllib.request.urlopen(addr + "/__rulebook/wait?" + q, timeout=60))
chapters = sorted(os.listdir(os.path.join(site, "content/en")))
name = [c for c in chapters if c.endswith(".md")][len(chapters)//2]
path = os.path.join(site, "content/en", name)
orig = open(path, encoding="utf-8").read()
cid = [l for l in orig.splitlines() if l.startswith("id:")][0].split(":",1)[1].strip()
times, polls = [], []
try:
    for i in range(runs):
        v = status("now=1")["version"]
        marker = f"Edited{i}x{time.time_ns()}"
        t0 = time.perf_counter()
        open(path, "w", encoding="utf-8").write(orig + f"\n{marker}\n")
        st = status(f"v={v}")
        t1 = time.perf_counter()
        while True:
            html = urllib.request.urlopen(f"{addr}/en/{cid}/", timeout=60).read().decode()
            if marker in html: break
            time.sleep(0.005)
        t2 = time.perf_counter()
        assert not st["errors"], st
        polls.append((t1-t0)*1000); times.append((t2-t0)*1000)
        time.sleep(0.3)
finally:
    open(path, "w", encoding="utf-8").write(orig)
    p.kill()
print(f"edit -> long-poll answered: median {statistics.median(polls):.0f} ms; edit -> page with the edit fetched: median {statistics.median(times):.0f} ms (min {min(times):.0f}, max {max(times):.0f}, {runs} runs)")
