#!/usr/bin/env bash
# The whole test suite: dependencies, a warning-free build of our own code, every test.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh strace  # strace: the fault tests inject a full disk and kills with it
log=$(mktemp)
swift build --build-tests 2>&1 | tee "$log" | grep -E "error|warning:" || true
if grep -E "^/.*/(Sources|Tests)/.*(warning|error):" "$log" | grep -v "/.build" ; then
  echo "test: the build has warnings or errors in our own code (above)" >&2
  exit 1
fi
grep -q "error:" "$log" && { echo "test: build failed" >&2; exit 1; }
swift test --skip-build --disable-swift-testing 2>&1 | tee "$log" | grep -E "error:|Executed [0-9]+ tests|passed|failed" | grep -vE "Test Case .* (passed|started)" || true
# The last "Executed" line is the whole run's.
line=$(grep -E "Executed [0-9]+ tests?, with [0-9]+ failures?" "$log" | tail -n 1)
[ -n "$line" ] || { echo "test: no test ran" >&2; exit 1; }
total=$(echo "$line" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/')
failed=$(echo "$line" | sed -E 's/.*with ([0-9]+) failures?.*/\1/')
echo "$((total - failed)) passed, $failed failed"
[ "$failed" -eq 0 ] || exit 1
