#!/usr/bin/env bash
# make bench: a release build of egofix, then every benchmark beside its target (scripts/bench.py).
# Installs Debian's hugo when it is missing. Work happens in /dev/shm; nothing is left behind.
# EGOFIX_BENCH_LINK=dynamic builds against the shared Swift runtime instead of linking it in.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh hugo
flags=(-c release --scratch-path .build-bench)
# Static: the Swift runtime linked in, at a fixed address (-no-pie): a position-independent
# binary applies 87,000 relocations before main in every command, about 0.7 ms.
# The static runtime's link line exports every symbol (-export-dynamic, about 10,000): each start
# then searched them (dladdr, and each library's symbols bound against the executable first), about
# 1 ms of a no-change rebuild. Nothing looks egofix's own symbols up by name, so they stay inside.
[ "${EGOFIX_BENCH_LINK:-static}" = "dynamic" ] || flags+=(--static-swift-stdlib -Xlinker -no-pie -Xlinker --no-export-dynamic)
# The C++ runtime the Swift runtime is written against, linked in too: as a shared library it has
# about 1,700 of its own symbols bound at every start, about 1 ms a command. The linker finds the
# archive first through a folder holding only it.
if [ "${EGOFIX_BENCH_LINK:-static}" != "dynamic" ]; then
  cxx=$(clang -print-file-name=libstdc++.a 2>/dev/null || true)
  if [ -f "$cxx" ]; then
    mkdir -p .build-bench/static-cxx
    ln -sf "$cxx" .build-bench/static-cxx/libstdc++.a
    flags+=(-Xlinker "-L$PWD/.build-bench/static-cxx")
  fi
fi
echo "bench: swift build ${flags[*]} --product egofix"
log=$(mktemp)
if ! swift build "${flags[@]}" --product egofix >"$log" 2>&1; then
  grep -E "error" "$log" >&2 || cat "$log" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
bin="$(swift build "${flags[@]}" --show-bin-path)/egofix"
python3 scripts/bench.py --bin "$bin" "$@"
