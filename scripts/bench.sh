#!/usr/bin/env bash
# make bench: the release binary users build (scripts/release.sh), then every benchmark beside its
# target (scripts/bench.py). Installs Debian's hugo when it is missing. Work happens in /dev/shm;
# nothing is left behind.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh hugo
bin="$(./scripts/release.sh)"
python3 scripts/bench.py --bin "$bin" "$@"
