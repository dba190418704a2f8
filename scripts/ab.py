#!/usr/bin/env python3
"""A/B timing of two egofix binaries, interleaved so both see the machine as it is.

Usage: scripts/ab.py OLD NEW [--runs N] [--years Y] [--no-change]
Prints the median wall time of a full `egofix build --demo` into /dev/shm for each, and the
median of the per-round ratios NEW / OLD. With --no-change, each binary builds its own site once
and the rounds time rebuilds with nothing to do (each must report 0 files written). A tool for
profiling work; `make bench` is the benchmark.
"""
import os, shutil, statistics, subprocess, sys, time, tempfile

args = sys.argv[1:]
runs, years = 11, 10
no_change = "--no-change" in args
if no_change: args.remove("--no-change")
if "--runs" in args:
    i = args.index("--runs"); runs = int(args[i + 1]); del args[i:i + 2]
if "--years" in args:
    i = args.index("--years"); years = int(args[i + 1]); del args[i:i + 2]
if len(args) != 2:
    sys.exit("usage: scripts/ab.py OLD NEW [--runs N] [--years Y] [--no-change]")
old, new = os.path.abspath(args[0]), os.path.abspath(args[1])
if old == new:
    sys.exit("ab.py: OLD and NEW are the same file; copy it to time a binary against itself")
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
work = tempfile.mkdtemp(prefix="egofix-ab-", dir="/dev/shm")
env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
times = {old: [], new: []}
ratios = []
outs = {old: os.path.join(work, "site-old"), new: os.path.join(work, "site-new")}

def build(b):
    """One build of the demo by `b` into its own folder; its wall time in seconds."""
    if not no_change:
        shutil.rmtree(outs[b], ignore_errors=True)
    start = time.perf_counter()
    p = subprocess.run([b, "build", "--demo", "--years", str(years), "--out", outs[b]], cwd=os.path.join(root, "demo"),
                       env=env, stdout=subprocess.PIPE, text=True, check=True)
    took = time.perf_counter() - start
    if no_change and " 0 written" not in p.stdout:
        sys.exit(f"{b} rewrote files in a rebuild with nothing changed: {p.stdout.strip()}")
    return took

if no_change:
    for b in (old, new):
        shutil.rmtree(outs[b], ignore_errors=True)
        subprocess.run([b, "build", "--demo", "--years", str(years), "--out", outs[b]], cwd=os.path.join(root, "demo"),
                       env=env, stdout=subprocess.DEVNULL, check=True)
for r in range(runs + 1):
    t = {}
    for b in (old, new) if r % 2 == 0 else (new, old):
        t[b] = build(b)
    if r > 0:
        for b in t: times[b].append(t[b])
        ratios.append(t[new] / t[old])
print(f"old {statistics.median(times[old]) * 1000:.1f} ms   new {statistics.median(times[new]) * 1000:.1f} ms   "
      f"new/old {statistics.median(ratios):.3f} (rounds: {runs}{', no-change rebuilds' if no_change else ''})")
shutil.rmtree(work, ignore_errors=True)
