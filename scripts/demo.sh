#!/usr/bin/env bash
# The main job: build egofix (release, as users get it) and build the demo site into site/.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
bin="$(./scripts/release.sh)"
(cd demo && "$bin" build --demo)
echo "// file:// works; no server needed."
