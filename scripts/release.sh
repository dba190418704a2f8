#!/usr/bin/env bash
# The one way egofix is built for users: a release build with the Swift runtime linked in
# (SwiftPM's own --static-swift-stdlib), so the binary runs on a machine without a Swift toolchain.
# `make demo`, `make install` and `make bench` all use this binary. Prints its path; `egofix serve`'s
# program, egofix-serve, is built the same way beside it.
#
# Two link settings make every command start sooner (docs/performance.md, "the binary's start"):
# the executable is linked at a fixed address (-no-pie), so the loader has no 90,000 relative
# relocations to apply to it at each start, and it exports none of its own symbols
# (--no-export-dynamic; the static runtime's link arguments ask for -export-dynamic, and the
# runtime's start looks itself up among them with dladdr). Shared libraries are still placed at
# random addresses.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib -Xlinker --no-export-dynamic -Xswiftc -Xclang-linker -Xswiftc -no-pie)
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
