#!/usr/bin/env python3
"""EgoFix benchmarks: every figure beside its target, in one run.

Usage: scripts/bench.py --bin PATH [--runs N] [--work DIR]

The headline is the user's path: `egofix build` from a store filled by `egofix demo --years N`,
in the demo/ workspace, into a fresh folder, with the real clock. `build --demo` (which simulates
the history first) is reported beside it.

Runs from the repository root. Everything is written under --work (default: a fresh folder in
/dev/shm), so disk timings do not drift; figures are medians of --runs runs after one warm-up, and
the comparisons (egofix against Hugo, against cp -r, 100 years against 10) are ratios measured in
the same run. Timings never go into the test suite; this script is the only place they live.
"""

import argparse
import glob
import html
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = os.path.join(ROOT, "demo")
# The morning after the demo history ends: `today` assigns that day's fix, `applied` marks it.
NEXT_MORNING = "2026-11-23T08:00:00+01:00"

results = []  # (label, value text, target text, ok or None)


def report(label, value, target="", ok=None):
    results.append((label, value, target, ok))
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print(f"  {label:<52} {value:>22}   {target}{mark}", flush=True)


def run(cmd, cwd=None, env=None, check=True):
    """Runs a command; returns (seconds, stdout, stderr)."""
    start = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if check and p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    return elapsed, p.stdout, p.stderr


def timed(cmd, cwd=None):
    """Runs a command under /usr/bin/time -v; returns (seconds, stdout, stderr, max RSS in KiB)."""
    seconds, out, err = run(["/usr/bin/time", "-v"] + cmd, cwd=cwd)
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
    return seconds, out, err, int(m.group(1)) if m else 0


def median(xs):
    return statistics.median(xs)


def ms(seconds):
    return f"{seconds * 1000:.1f} ms"


def built_counts(out):
    m = re.search(r"Built (\d+) files .*: (\d+) written, (\d+) unchanged, (\d+) removed", out)
    if not m:
        sys.exit(f"bench: unexpected build output:\n{out}")
    return tuple(int(x) for x in m.groups())


def timed_builds(cmd, out, runs, env=None):
    """`cmd` run runs + 1 times into an emptied `out`, the first a warm-up.
    Returns (times, counts of the last)."""
    times, counts = [], None
    for i in range(runs + 1):
        shutil.rmtree(out, ignore_errors=True)
        seconds, stdout, _ = run(cmd, cwd=DEMO, env=env)
        counts = built_counts(stdout)
        if i > 0:
            times.append(seconds)
    return times, counts


def store_build(binary, store, out):
    """`egofix build` as a user runs it: from a store, in the demo workspace, the real clock."""
    return [binary, "build", "--store", store, "--out", out]


def full_builds(cmd, out, runs):
    """Full builds into a new folder each time (timed on their own), then the same under
    /usr/bin/time for peak memory. Returns (times, rss list, counts of the last)."""
    times, counts = timed_builds(cmd, out, runs)
    return times, peak_rss(cmd, out), counts


def peak_rss(cmd, out):
    """Max RSS in KiB of three builds of `cmd` into an emptied `out`, under /usr/bin/time."""
    rss = []
    for i in range(3):
        shutil.rmtree(out, ignore_errors=True)
        rss.append(timed(cmd, cwd=DEMO)[3])
    return rss


def visible_text(path):
    with open(path, encoding="utf-8") as f:
        s = f.read()
    s = re.sub(r"<svg.*?</svg>", " ", s, flags=re.S)
    s = re.sub(r"<(style|script)\b.*?</\1>", " ", s, flags=re.S)
    s = re.sub(r"<[^>]+>", " ", s)
    return re.sub(r"\s+", " ", html.unescape(s)).strip()


def hugo_fixture(site, pages, text_bytes):
    """A minimal Hugo site: a tiny theme (single and list layouts) and `pages` Markdown pages
    holding `text_bytes` of prose in total, in paragraphs, lists and emphasis."""
    shutil.rmtree(site, ignore_errors=True)
    layouts = os.path.join(site, "layouts", "_default")
    os.makedirs(layouts)
    with open(os.path.join(site, "config.toml"), "w") as f:
        f.write('baseURL = "https://example.org/"\ntitle = "bench"\n'
                'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]\n')
    with open(os.path.join(layouts, "baseof.html"), "w") as f:
        f.write('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title>'
                '<link rel="stylesheet" href="/style.css"></head>\n<body><main>{{ block "main" . }}{{ end }}</main></body></html>\n')
    with open(os.path.join(layouts, "single.html"), "w") as f:
        f.write('{{ define "main" }}<h1>{{ .Title }}</h1>\n<p class="muted">{{ .Date.Format "2006-01-02" }}</p>\n'
                '{{ .Content }}{{ end }}\n')
    with open(os.path.join(layouts, "list.html"), "w") as f:
        f.write('{{ define "main" }}<h1>{{ .Title }}</h1>\n{{ .Content }}\n<ul>{{ range .Pages }}'
                '<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}\n')
    words = ("the fix was applied today and nothing much happened which is the point of a practice "
             "like this one crash reboot version bug regression quiet loud present week month").split()
    rng = random.Random(7)
    per_page = max(1, text_bytes // max(1, pages))
    content = os.path.join(site, "content", "p")
    os.makedirs(content)
    with open(os.path.join(site, "content", "_index.md"), "w") as f:
        f.write('---\ntitle: "Home"\n---\nAll pages.\n')
    for i in range(pages - 1):
        body, n = [], 0
        while n < per_page:
            para = " ".join(rng.choice(words) for _ in range(30))
            chunk = f"{para[0].upper()}{para[1:]}. *{rng.choice(words)}* and **{rng.choice(words)}**.\n\n- {rng.choice(words)}\n- {rng.choice(words)}\n\n"
            body.append(chunk)
            n += len(chunk)
        with open(os.path.join(content, f"{i:05d}.md"), "w") as f:
            f.write(f'---\ntitle: "Page {i}"\ndate: 2026-01-01\n---\n\n## Week {i}\n\n' + "".join(body))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--work")
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    runs = max(5, args.runs)
    work = args.work or tempfile.mkdtemp(prefix="egofix-bench-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    os.makedirs(work, exist_ok=True)
    # Build manifests (what makes a no-change rebuild cheap) go to the work folder, not ~/.cache.
    os.environ["XDG_CACHE_HOME"] = os.path.join(work, "cache")
    os.environ.pop("EGOFIX_NOW", None)
    os.environ.pop("EGOFIX_STORE", None)
    ldd = subprocess.run(["ldd", binary], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    link = "Swift runtime linked in (--static-swift-stdlib)" if "libswiftCore" not in ldd else "shared Swift runtime"
    inside = [name for lib, name in (("libstdc++", "C++ runtime"), ("libsqlite3", "SQLite"), ("libcmark", "cmark")) if lib not in ldd]
    if inside:
        link += ", " + ", ".join(inside) + " linked in"
    with open(binary, "rb") as f:
        head = f.read(18)
    if head[:4] == b"\x7fELF" and int.from_bytes(head[16:18], "little") == 2:  # ET_EXEC, not ET_DYN
        link += ", fixed address (-no-pie)"
    syms = subprocess.run(["readelf", "-W", "--dyn-syms", binary], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    exported = sum(1 for l in syms.splitlines() if " GLOBAL " in l and " UND " not in l)
    link += f", {exported} symbols exported"
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE, text=True).stdout.strip()
    print(f"egofix benchmarks: {binary} ({link}), commit {commit}\nwork folder {work}; medians of {runs} runs after "
          f"a warm-up; {os.cpu_count()} cores\n", flush=True)

    # 1. Full build from the 10-year store: `egofix demo --years 10`, then `egofix build`.
    store10 = os.path.join(work, "store10-build.sqlite")
    run([binary, "demo", "--years", "10", "--store", store10])
    out10 = os.path.join(work, "site10")
    ecmd = store_build(binary, store10, out10)
    t10, rss10, counts10 = full_builds(ecmd, out10, runs)
    files10 = counts10[0]
    pages10 = len(glob.glob(os.path.join(out10, "**", "*.html"), recursive=True))
    full = median(t10)
    print("1. full build from the 10-year store (egofix demo --years 10, then egofix build; real clock)")
    report("wall time", ms(full))
    report("files written (HTML pages)", f"{counts10[1]} ({pages10})")
    report("time per file written", f"{full * 1000 / files10:.3f} ms")
    report("peak memory (max RSS)", f"{max(rss10) / 1024:.1f} MB", "(target in 8)")
    # Beside it: `build --demo`, which simulates the ten years first and builds from memory.
    dout = os.path.join(work, "site10-demo")
    dtimes_demo, dcounts = timed_builds([binary, "build", "--demo", "--years", "10", "--out", dout], dout, runs)
    report("beside it: build --demo --years 10 (simulated first)", f"{ms(median(dtimes_demo))}, {dcounts[0]} files")

    # 2 and 3. Hugo on a fixture with the same page count and text volume, and cp -r of egofix's
    # own output. Each round runs egofix, Hugo and cp back to back, so a ratio compares the three
    # on the machine as it was at that moment (its speed drifts); the ratios are medians of the
    # rounds' ratios.
    hugo = shutil.which("hugo")
    text = sum(len(visible_text(p)) for p in glob.glob(os.path.join(out10, "**", "*.html"), recursive=True))
    site = os.path.join(work, "hugo-site")
    hout = os.path.join(work, "hugo-out")
    dest = os.path.join(work, "copy")
    reference = os.path.join(work, "site10-reference")
    shutil.rmtree(reference, ignore_errors=True)
    shutil.copytree(out10, reference)
    if hugo:
        hugo_fixture(site, pages10, text)
    etimes, htimes, ctimes, hratios, cratios = [], [], [], [], []
    for i in range(runs + 1):
        shutil.rmtree(out10, ignore_errors=True)
        e, _, _ = run(ecmd, cwd=DEMO)
        h = None
        if hugo:
            shutil.rmtree(hout, ignore_errors=True)
            h, _, _ = run([hugo, "--quiet", "--source", site, "--destination", hout, "--ignoreCache", "--noBuildLock"])
        shutil.rmtree(dest, ignore_errors=True)
        c, _, _ = run(["cp", "-r", reference, dest])
        if i > 0:
            etimes.append(e)
            ctimes.append(c)
            cratios.append(e / c)
            if h is not None:
                htimes.append(h)
                hratios.append(e / h)
    print("2. against Hugo (egofix, Hugo and cp -r run in turn, " + str(runs) + " rounds)")
    report("egofix full build in these rounds", ms(median(etimes)))
    if not hugo:
        report("hugo", "not installed", "<= 0.25", False)
    else:
        hpages = len(glob.glob(os.path.join(hout, "**", "*.html"), recursive=True))
        version = subprocess.run([hugo, "version"], stdout=subprocess.PIPE, text=True).stdout.split()[1]
        report(f"hugo {version}: {hpages} pages, {text // 1024} KiB of Markdown prose", ms(median(htimes)))
        report("egofix / hugo", f"{median(hratios):.3f}", "<= 0.25", median(hratios) <= 0.25)

    print("3. against the machine's floor (cp -r of the same output)")
    report("cp -r of the 10-year site", ms(median(ctimes)))
    report("egofix / cp -r", f"{median(cratios):.2f}", "<= 3", median(cratios) <= 3)

    # 4. A rebuild with nothing changed. Each round makes a full build into an emptied folder and
    # then rebuilds it with nothing changed, so the share compares the two on the machine as it was
    # at that moment (as in 2 and 3); the share is the median of the rounds' shares.
    print(f"4. no-change rebuild, 10-year demo (a full build and a rebuild in turn, {runs} rounds)")
    rtimes, ftimes, shares, rewritten = [], [], [], []
    for i in range(runs + 1):
        shutil.rmtree(out10, ignore_errors=True)
        f, _, _ = run(ecmd, cwd=DEMO)
        seconds, stdout, _ = run(ecmd, cwd=DEMO)
        _, written, _, _ = built_counts(stdout)
        if i > 0:
            ftimes.append(f)
            rtimes.append(seconds)
            shares.append(seconds / f)
            rewritten.append(written)
    report("wall time", ms(median(rtimes)))
    report("full build in these rounds", ms(median(ftimes)))
    report("share of the full build", f"{100 * median(shares):.1f} %", "<= 10 %", median(shares) <= 0.10)
    report("files rewritten (most in any run)", str(max(rewritten)), "0", max(rewritten) == 0)

    # 4b. A rebuild after one day's outcome: `egofix today` and `egofix applied` on a copy of the
    # store (real clock), then `egofix build` over the site built before them. Only the pages that
    # show that day should be written.
    print(f"4b. rebuild after one day's outcome (today + applied, then build; {runs} rounds)")
    otimes, oshares, owritten = [], [], []
    day_store = os.path.join(work, "store10-day.sqlite")
    day_out = os.path.join(work, "site10-day")
    for i in range(runs + 1):
        for suffix in ("", "-journal"):
            if os.path.exists(day_store + suffix):
                os.remove(day_store + suffix)
        shutil.copyfile(store10, day_store)
        shutil.rmtree(day_out, ignore_errors=True)
        f, _, _ = run(store_build(binary, day_store, day_out), cwd=DEMO)
        env = dict(os.environ, NO_COLOR="1")
        run([binary, "today", "--store", day_store], env=env)
        run([binary, "applied", "--store", day_store], env=env)
        seconds, stdout, _ = run(store_build(binary, day_store, day_out), cwd=DEMO)
        _, written, _, _ = built_counts(stdout)
        if i > 0:
            otimes.append(seconds)
            oshares.append(seconds / f)
            owritten.append(written)
    report("wall time", ms(median(otimes)))
    report("files written (most in any run)", str(max(owritten)), "only the pages showing that day")
    report("share of the full build", f"{100 * median(oshares):.1f} %", "<= 25 %", median(oshares) <= 0.25)

    # 5. 100 years against 10, in turn (each round a 10-year and a 100-year build), so the ratio is
    # the median of the rounds' ratios; the same for `egofix demo --store`.
    print(f"5. 100-year store against the 10-year one (in turn, {runs} rounds)")
    store100 = os.path.join(work, "store100-build.sqlite")
    run([binary, "demo", "--years", "100", "--store", store100])
    out100 = os.path.join(work, "site100")
    cmd100 = store_build(binary, store100, out100)
    t100, tens, ratios = [], [], []
    for i in range(runs + 1):
        shutil.rmtree(out10, ignore_errors=True)
        shutil.rmtree(out100, ignore_errors=True)
        a, _, _ = run(ecmd, cwd=DEMO)
        b, stdout, _ = run(cmd100, cwd=DEMO)
        counts100 = built_counts(stdout)
        if i > 0:
            tens.append(a)
            t100.append(b)
            ratios.append(b / a)
    rss100 = peak_rss(cmd100, out100)
    ratio = median(ratios)
    report("full build, 100 years", f"{ms(median(t100))}, {counts100[0]} files")
    report("full build, 10 years, in these rounds", ms(median(tens)))
    report("peak memory, 100 years", f"{max(rss100) / 1024:.1f} MB")
    report("time ratio 100 / 10 years", f"{ratio:.2f}", "<= 11 (linear)", ratio <= 11)
    dtimes, dratios = ([], []), []
    for i in range(3):
        pair = []
        for k, years in enumerate((10, 100)):
            store = os.path.join(work, f"demo{years}-{i}.sqlite")
            seconds, _, _ = run([binary, "demo", "--years", str(years), "--store", store])
            dtimes[k].append(seconds)
            pair.append(seconds)
            os.remove(store)
        dratios.append(pair[1] / pair[0])
    dratio = median(dratios)
    report("egofix demo --store: 10 / 100 years", f"{ms(median(dtimes[0]))} / {ms(median(dtimes[1]))}")
    report("time ratio 100 / 10 years (demo)", f"{dratio:.2f}", "<= 11 (linear)", dratio <= 11)

    # 6. Share cards: drawing time, and unchanged cards not drawn again.
    print("6. share-card PNG")
    _, stdout, _ = run([binary, "bench-card", "--repeat", "20"])
    m = re.search(r"(\d+) cards, ([\d.]+) ms per card \(([\d.]+) ms drawing, ([\d.]+) ms encoding\), (\d+) bytes per card", stdout)
    if m:
        report(f"PNG per card ({m.group(1)} cards x 20)", f"{float(m.group(2)):.2f} ms",
               f"(draw {m.group(3)} + encode {m.group(4)} ms, {int(m.group(5)) // 1024} KiB)")
    else:
        report("PNG per card", "no figure", "", False)
    ws = os.path.join(work, "workspace")
    shutil.rmtree(ws, ignore_errors=True)
    shutil.copytree(DEMO, ws)
    card_site = os.path.join(work, "cards")
    shutil.rmtree(card_site, ignore_errors=True)
    _, _, err = run(store_build(binary, store10, card_site) + ["--stats"], cwd=ws)
    first = re.search(r"share cards: (\d+) drawn, (\d+) reused", err)
    os.makedirs(os.path.join(ws, "content", "weeks"), exist_ok=True)
    with open(os.path.join(ws, "content", "weeks", "2026-W40.md"), "a") as f:
        f.write("\nA note added after the first build, so the site changes and its cards do not.\n")
    _, stdout, err = run(store_build(binary, store10, card_site) + ["--stats"], cwd=ws)
    second = re.search(r"share cards: (\d+) drawn, (\d+) reused", err)
    counts = built_counts(stdout)
    if first and second:
        report("cards drawn: first build / after a content edit", f"{first.group(1)} / {second.group(1)}",
               "0 drawn again", int(second.group(1)) == 0 and int(second.group(2)) == int(first.group(1)))
        report("files rewritten by that edit", str(counts[1]), "only the changed pages")
    else:
        report("card reuse", "no figure", "", False)

    # 7. Cold-process latency of the daily loop on the 10-year store.
    print("7. cold process: egofix today / applied on the 10-year store")
    base = store10
    ttoday, tapplied = [], []
    for i in range(runs + 1):
        store = os.path.join(work, "store-run.sqlite")
        for suffix in ("", "-wal", "-shm", "-journal"):
            if os.path.exists(store + suffix):
                os.remove(store + suffix)
        shutil.copyfile(base, store)
        env = dict(os.environ, EGOFIX_NOW=NEXT_MORNING, NO_COLOR="1")
        a, out_today, _ = run([binary, "today", "--store", store], env=env)
        b, out_applied, _ = run([binary, "applied", "--store", store], env=env)
        if "APPLIED" not in out_applied:
            sys.exit(f"bench: `egofix applied` did not mark a fix:\n{out_today}\n{out_applied}")
        if i > 0:
            ttoday.append(a)
            tapplied.append(b)
    report("egofix today", ms(median(ttoday)), "<= 50 ms", median(ttoday) <= 0.050)
    report("egofix applied", ms(median(tapplied)), "<= 50 ms", median(tapplied) <= 0.050)

    # 8. Memory.
    print("8. memory")
    report("peak memory (max RSS), 10-year build", f"{max(rss10) / 1024:.1f} MB", "<= 100 MB", max(rss10) <= 100 * 1024)

    # 9. Sync through a folder (issue 34), on the 10-year store.
    print("9. egofix sync DIR on the 10-year store (two machines, one folder)")
    folder = os.path.join(work, "sync-folder")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    mine, other = os.path.join(work, "sync-a.sqlite"), os.path.join(work, "sync-b.sqlite")
    for store in (mine, other):
        for suffix in ("", "-journal"):
            if os.path.exists(store + suffix):
                os.remove(store + suffix)
    shutil.copyfile(base, mine)
    env = dict(os.environ, EGOFIX_NOW=NEXT_MORNING, NO_COLOR="1", TZ="Europe/Berlin")
    run([binary, "sync", folder, "--store", mine], env=env)
    run([binary, "init", "--from", folder, "--store", other], env=env)
    run([binary, "sync", folder, "--store", mine], env=env)
    tnone = []
    for i in range(runs + 1):
        seconds, out, _ = run([binary, "sync", folder, "--store", mine], env=env)
        if "(unchanged)" not in out:
            sys.exit(f"bench: a sync with nothing to do rewrote the device file:\n{out}")
        if i > 0:
            tnone.append(seconds)
    twriter, treader = [], []
    for i in range(runs + 1):
        day = f"2026-{11 if i < 7 else 12}-{(23 + i) if i < 7 else (i - 7 + 1):02d}"
        denv = dict(env, EGOFIX_NOW=f"{day}T08:00:00+01:00")
        run([binary, "today", "--store", other], env=denv)
        run([binary, "applied", "-m", f"bench day {i}", "--store", other], env=denv)
        denv["EGOFIX_NOW"] = f"{day}T21:00:00+01:00"
        w, _, _ = run([binary, "sync", folder, "--store", other], env=denv)
        r, out, _ = run([binary, "sync", folder, "--store", mine], env=denv)
        if "1 other machine's file merged" not in out:
            sys.exit(f"bench: the one-day sync merged nothing:\n{out}")
        if i > 0:
            twriter.append(w)
            treader.append(r)
    size = os.path.getsize(glob.glob(os.path.join(folder, "egofix-device-*.json"))[0])
    report("sync, nothing changed", ms(median(tnone)), f"device file {size / 1e6:.1f} MB")
    report("sync, one day from the other machine", ms(median(treader)), f"writing it: {ms(median(twriter))}")

    missed = [r for r in results if r[3] is False]
    print()
    print(f"{len([r for r in results if r[3]])} targets met, {len(missed)} missed" + (": " + "; ".join(r[0] for r in missed) if missed else "."))
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
