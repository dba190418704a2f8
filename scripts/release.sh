#!/usr/bin/env bash
# The one way egofix is built for users: a release build with the Swift runtime linked in
# (SwiftPM's own --static-swift-stdlib), so the binary runs on a machine without a Swift toolchain.
# `make demo`, `make install` and `make bench` all use this binary. Prints its path; `egofix serve`'s
# program, egofix-serve, is built the same way beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib)
log=$(mktemp)
if ! swift build "${flags[@]}" >"$log" 2>&1; then
  grep -E "error" "$log" >&2 || cat "$log" >&2
  rm -f "$log"
  echo "release: the build failed (run: swift build ${flags[*]})" >&2
  exit 1
fi
grep -E "^/.*/(Sources|Tests)/.*warning: " "$log" >&2 || true
rm -f "$log"
bin="$(swift build "${flags[@]}" --show-bin-path)/egofix"
[ -x "$bin" ] && [ -x "$bin-serve" ] || { echo "release: no binaries at $bin and $bin-serve" >&2; exit 1; }
echo "$bin"
