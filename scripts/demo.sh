#!/usr/bin/env bash
# The main job: build egofix (release) and build the demo site into site/.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
swift build -c release --product egofix 2>&1 | grep -E "error|warning: |Build complete" || true
bin="$(swift build -c release --show-bin-path)/egofix"
[ -x "$bin" ] || { echo "demo: the build failed (run: swift build -c release --product egofix)" >&2; exit 1; }
(cd demo && "$bin" build --demo)
echo "// file:// works; no server needed."
