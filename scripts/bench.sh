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
# The C++ runtime the Swift runtime is written against, SQLite and cmark, linked in from their
# archives too. As shared libraries they cost every command their loading and their symbols'
# binding: the C++ runtime about 1,700 symbols (about 1 ms); SQLite about 1,600 (its own tables of
# functions, bound one name at a time; linked in, a no-change rebuild takes 0.86 of the time). The linker
# finds the archives first through a folder holding only them, which cmark's pkg-config file (the
# first library search path on the link line) names.
if [ "${EGOFIX_BENCH_LINK:-static}" != "dynamic" ]; then
  libs="$PWD/.build-bench/static-libs"
  mkdir -p "$libs/pkgconfig"
  for archive in "$(clang -print-file-name=libstdc++.a 2>/dev/null || true)" \
                 /usr/lib/x86_64-linux-gnu/libsqlite3.a /usr/lib/x86_64-linux-gnu/libcmark.a; do
    [ -f "$archive" ] && ln -sf "$archive" "$libs/$(basename "$archive")"
  done
  if [ -f "$libs/libcmark.a" ]; then
    printf 'Name: libcmark\nDescription: cmark, linked in from its archive\nVersion: %s\nLibs: -L%s -lcmark\nCflags: -I/usr/include\n' \
      "$(pkg-config --modversion libcmark 2>/dev/null || echo 0)" "$libs" >"$libs/pkgconfig/libcmark.pc"
    export PKG_CONFIG_PATH="$libs/pkgconfig"
  fi
  flags+=(-Xlinker "-L$libs")
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
