#!/usr/bin/env bash
# CI: rebuilding the demo site must not change a byte of the committed site/.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${EGOFIX_BIN:-$(swift build --show-bin-path)/egofix}"
[ -x "$bin" ] || swift build --product egofix >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd demo && "$bin" build --demo --out "$tmp/site" >/dev/null)
if ! diff -r -q site "$tmp/site" -x .gitkeep; then
  echo "check-demo-site: site/ is not what the demo build produces. Run \`make demo\` and commit site/." >&2
  exit 1
fi
echo "check-demo-site: site/ matches a fresh demo build ($(find site -type f | wc -l) files)."
