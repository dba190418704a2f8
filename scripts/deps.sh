#!/usr/bin/env bash
# Installs the Debian packages EgoFix builds against, only when one is missing. Idempotent.
set -euo pipefail
# Swift first: with no Swift 6.3 on the PATH nothing else is worth installing.
command -v swift >/dev/null || { echo "deps: swift is not on PATH (expected Swift 6.3, at /opt/swift on this machine)" >&2; exit 1; }
version="$(swift --version 2>/dev/null | grep -o 'Swift version [0-9.]*' | head -1 || true)"
case "$version" in
  "Swift version 6.3"|"Swift version 6.3."*) ;;
  *) echo "deps: egofix needs Swift 6.3; the swift on PATH says '${version:-no version}'" >&2; exit 1 ;;
esac
need=()
# libcurl4-openssl-dev: FlyingFox (egofix serve) brings in FoundationNetworking, which a binary with
# the Swift runtime linked in (scripts/release.sh) links against libcurl.
for p in libcmark-dev libcairo2-dev libsqlite3-dev libcurl4-openssl-dev fonts-dejavu-core pkg-config "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "deps: installing ${need[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# The independent iCalendar parser the tests read reminders.ics with (scripts/check_ics.py).
if command -v python3 >/dev/null && ! python3 -c "import icalendar" 2>/dev/null; then
  echo "deps: installing the icalendar Python package"
  pip=(python3 -m pip install --quiet --disable-pip-version-check --no-input icalendar)
  "${pip[@]}" 2>/dev/null || "${pip[@]}" --user --break-system-packages >/dev/null
fi
