#!/usr/bin/env python3
"""Reads reminders.ics files with an independent parser (the icalendar package) and checks what
EgoFix promises of them: a VCALENDAR 2.0 with a PRODID; every VEVENT with a unique UID, a DTSTAMP
and a DTSTART in UTC, a summary under 120 characters with no exclamation mark, and a display alarm.
Usage: scripts/check_ics.py FILE...  Prints one line per file; exits 1 on the first problem."""
import sys
from datetime import timezone

try:
    import icalendar
except ImportError:
    sys.exit("check-ics: the icalendar package is missing (scripts/deps.sh installs it)")


def check(path: str) -> str:
    data = open(path, "rb").read()
    if b"\r\n" not in data or data.replace(b"\r\n", b"").find(b"\n") != -1:
        raise ValueError("lines must end in CRLF")
    if any(len(line) > 75 for line in data.split(b"\r\n")):
        raise ValueError("a line is longer than 75 octets (not folded)")
    cal = icalendar.Calendar.from_ical(data)
    if cal.name != "VCALENDAR" or str(cal.get("VERSION")) != "2.0" or not cal.get("PRODID"):
        raise ValueError("not a VCALENDAR 2.0 with a PRODID")
    uids = set()
    events = cal.walk("VEVENT")
    for ev in events:
        uid = str(ev.get("UID") or "")
        if not uid or uid in uids:
            raise ValueError(f"missing or repeated UID {uid!r}")
        uids.add(uid)
        for key in ("DTSTAMP", "DTSTART"):
            value = ev.decoded(key)
            if value.tzinfo is None or value.utcoffset().total_seconds() != 0:
                raise ValueError(f"{uid}: {key} is not a UTC instant")
        summary = str(ev.get("SUMMARY") or "")
        if not summary or len(summary) >= 120 or "!" in summary:
            raise ValueError(f"{uid}: summary {summary!r}")
        if not any(a.get("ACTION") == "DISPLAY" for a in ev.walk("VALARM")):
            raise ValueError(f"{uid}: no display alarm")
    return f"{path}: {len(events)} reminders, parsed by icalendar {icalendar.__version__}"


def main() -> int:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        try:
            print(check(path))
        except Exception as e:  # noqa: BLE001 - any parse error is the finding
            print(f"check-ics: {path}: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
