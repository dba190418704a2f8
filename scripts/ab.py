#!/usr/bin/env python3
"""A/B timing of two egofix binaries, interleaved so both see the machine as it is.

Usage: scripts/ab.py OLD NEW [--runs N] [--years Y] [-- extra build args]
Prints the median wall time of a full `egofix build --demo` into /dev/shm for each, and the
median of the per-round ratios NEW / OLD. A tool for profiling work; `make bench` is the benchmark.
"""
import os, shutil, statistics, subprocess, sys, time, tempfile

args = sys.argv[1:]
runs, years = 11, 10
if "--runs" in args:
    i = args.index("--runs"); runs = int(args[i + 1]); del args[i:i + 2]
if "--years" in args:
    i = args.index("--years"); years = int(args[i + 1]); del args[i:i + 2]
old, new = os.path.abspath(args[0]), os.path.abspath(args[1])
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
work = tempfile.mkdtemp(prefix="egofix-ab-", dir="/dev/shm")
env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
times = {old: [], new: []}
ratios = []
for r in range(runs + 1):
    t = {}
    for b in (old, new) if r % 2 == 0 else (new, old):
        out = os.path.join(work, "site")
        shutil.rmtree(out, ignore_errors=True)
        start = time.perf_counter()
        subprocess.run([b, "build", "--demo", "--years", str(years), "--out", out], cwd=os.path.join(root, "demo"), env=env,
                       stdout=subprocess.DEVNULL, check=True)
        t[b] = time.perf_counter() - start
    if r > 0:
        for b in t: times[b].append(t[b])
        ratios.append(t[new] / t[old])
print(f"old {statistics.median(times[old]) * 1000:.1f} ms   new {statistics.median(times[new]) * 1000:.1f} ms   "
      f"new/old {statistics.median(ratios):.3f} (rounds: {runs})")
shutil.rmtree(work, ignore_errors=True)
