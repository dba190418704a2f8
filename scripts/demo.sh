#!/usr/bin/env bash
# The main job. Builds egofix (release) and runs it.
# Until the site generator exists (issue: the static site), this shows the CLI and the
# shipped catalogue; it will build the demo site into site/ once `egofix build` lands.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
swift build -c release --product egofix 2>&1 | grep -E "error|warning:|Compiling egofix|Build complete" || true
bin="$(swift build -c release --show-bin-path)/egofix"
"$bin" --version
"$bin" --help
