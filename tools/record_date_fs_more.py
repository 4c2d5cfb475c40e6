"""Records date, mktemp, timeout, du and ln from the real GNU coreutils:
tests/data/date_fs_more_corpus.json, replayed by tests/test_cmd_date.py,
tests/test_cmd_fs_more.py and tests/test_cmd_timeout.py.

Every case runs `cd /w` then its line under `bash -c`, in a fresh copy of WORLD inside a
bubblewrap sandbox whose root IS a temporary folder (only /usr comes from the host,
read-only; the sandbox may not set the clock, so `date -s` cases are safe), with a clean
C-locale environment and no TZ (UTC). Every file and directory of the world is dated
MTIME (`date -r`); the replay's file system stamps its files so too.

`date` cases run under libfaketime (Debian's `faketime` package) with the clock frozen at
CLOCK (2023-11-14 22:13:20 UTC), which the replay injects as `clock=`: `date`, `date -d
yesterday` and `next monday` are recorded exactly (NO_FAKE_STAT keeps files' real times for
`date -r`). Not with `TZ=` inside the line: libfaketime reads its frozen time in that zone.

A case may be recorded with another line than the one replayed (`gnu`): our `du` prints
apparent sizes, so `du -sh` is checked against GNU's `du -sh --apparent-size`. Directories
are 4096 bytes, as on ext4, where this records (a tmpfs would differ).

    python tools/record_date_fs_more.py           # record and write the JSON
    python tools/record_date_fs_more.py --only du # print the cases of one command
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "date_fs_more_corpus.json"
PREFIX = "cd /w\n"
TIMEOUT_SECONDS = 20
CLOCK = 1700000000
FAKE_NOW = "2023-11-14 22:13:20"
MTIME = 1600000000
FAKETIME_LIB = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
SANDBOX = ["--ro-bind", "/usr", "/usr",
           "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
           "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
           "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--chdir", "/"]
ENVIRONMENT = ["env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/"]
FAKE_ENVIRONMENT = [f"LD_PRELOAD={FAKETIME_LIB}", f"FAKETIME={FAKE_NOW}", "NO_FAKE_STAT=1"]

# Text, or {"repeat": TEXT, "times": N}; a path ending in "/" is an empty directory.
WORLD: dict[str, object] = {
    "/w/a.txt": "hello\n",
    "/w/empty.txt": "",
    "/w/dates.txt": "2024-01-15\nbad\n@0\n2024-02-29 12:00 UTC\n",
    "/w/proj/README.md": {"repeat": "r", "times": 100},
    "/w/proj/src/main.py": {"repeat": "m", "times": 2500},
    "/w/proj/src/util.py": {"repeat": "u", "times": 800},
    "/w/proj/src/lib/deep.txt": {"repeat": "d", "times": 5000},
    "/w/proj/build/out.bin": {"repeat": "o", "times": 12000},
    "/w/proj/build/run.log": {"repeat": "l", "times": 300},
    "/w/proj/empty/": "",
    "/w/one/only/x.txt": "x",
    "/w/big/blob.dat": {"repeat": "b", "times": 1572864},
    "/w/logs/app.log": {"repeat": "a", "times": 2048},
    "/w/logs/old.log": {"repeat": "z", "times": 20000},
    "/tmp/": "",
}

DU = "du --apparent-size"


def case(case_id: str, line: str, gnu: str | None = None) -> tuple[str, str, str | None]:
    return case_id, line, gnu


# (id, line, line run under GNU or None). The id starts with the command's name.
CASES: list[tuple[str, str, str | None]] = [
    # ---------------------------------------------------------------- date: now (the frozen clock)
    case("date-now-default", "date"),
    case("date-now-format", "date '+%Y-%m-%d %H:%M:%S'"),
    case("date-now-epoch", "date +%s"),
    case("date-now-ns", "date +%s.%N"),
    case("date-now-utc", "date -u"),
    case("date-now-iso", "date -I"),
    case("date-now-iso-seconds", "date -Iseconds"),
    case("date-now-rfc-email", "date -R"),
    case("date-now-rfc-3339", "date --rfc-3339=seconds"),
    case("date-now-F-T", "date +%FT%T%z"),
    case("date-now-stamp", "echo \"backup-$(date +%Y%m%d-%H%M%S).tar\""),
    case("date-rel-yesterday", "date -d yesterday"),
    case("date-rel-tomorrow", "date -d tomorrow +%F"),
    case("date-rel-today", "date -d today '+%F %T'"),
    case("date-rel-now", "date -d now +%s"),
    case("date-rel-days-ago", "date -d '2 days ago' +%F"),
    case("date-rel-plus-days", "date -d '+3 days' '+%F %T'"),
    case("date-rel-minus-hours", "date -d '-5 hours' '+%F %T'"),
    case("date-rel-hour-ago", "date -d '1 hour ago' +%H:%M"),
    case("date-rel-weeks", "date -d '3 weeks ago' +%F"),
    case("date-rel-month-ago", "date -d '1 month ago' +%F"),
    case("date-rel-next-year", "date -d 'next year' +%Y"),
    case("date-rel-last-week", "date -d 'last week' +%F"),
    case("date-rel-next-week", "date -d 'next week' +%F"),
    case("date-rel-next-monday", "date -d 'next monday'"),
    case("date-rel-last-friday", "date -d 'last friday' +%F"),
    case("date-rel-monday", "date -d monday +%F"),
    case("date-rel-tuesday-today", "date -d tuesday +%F"),
    case("date-rel-next-tue", "date -d 'next tue' +%F"),
    case("date-rel-this-week", "date -d 'this week' +%F"),
    case("date-rel-time-today", "date -d 10:30 '+%F %T'"),
    case("date-rel-tomorrow-9am", "date -d 'tomorrow 9am' '+%F %T'"),
    case("date-rel-yesterday-time", "date -d 'yesterday 22:00' '+%F %T'"),
    case("date-rel-combined", "date -d '1 day 2 hours ago' '+%F %T'"),
    case("date-rel-90-minutes", "date -d 'now + 90 minutes' +%T"),
    case("date-rel-fortnight", "date -d fortnight +%F"),
    case("date-rel-secs-ago", "date -d '30 secs ago' +%T"),
    case("date-rel-bare-hour", "date -d 10 '+%F %T'"),
    case("date-rel-empty-string", "date -d '' '+%F %T'"),
    case("date-rel-jan-15", "date -d 'jan 15' +%F"),
    case("date-rel-third-friday", "date -d 'third friday' +%F"),
    case("date-rel-hours-hence", "date -d '3 hours hence' '+%F %T'"),
    case("date-rel-diff-days", "echo $(( ($(date -d 2024-01-01 +%s) - $(date -d '2023-12-25' +%s)) / 86400 ))"),
    # ---------------------------------------------------------------- date: fixed moments
    case("date-epoch-default", "date -d @1700000000"),
    case("date-epoch-utc", "date -u -d @1700000000"),
    case("date-epoch-fraction", "date -d @1700000000.123456789 +%s.%N"),
    case("date-epoch-negative", "date -d @-1 '+%F %T'"),
    case("date-epoch-zero", "date -d @0"),
    case("date-epoch-far", "date -d @99999999999999"),
    case("date-epoch-space", "date -d '@ 1700000000' +%s"),
    case("date-iso-date", "date -d 2024-01-15"),
    case("date-iso-datetime", "date -d '2024-01-15 10:30:00'"),
    case("date-iso-T-Z", "date -d 2024-01-15T10:30:00Z +%s"),
    case("date-iso-T-offset", "date -d 2024-01-15T10:30:00+05:30 '+%F %T %z'"),
    case("date-iso-T-fraction", "date -d 2024-01-15T10:30:00.5Z +%T.%N"),
    case("date-iso-offset-space", "date -d '2024-01-15 10:30:00 +0530' '+%F %T'"),
    case("date-iso-utc-word", "date -d '2024-01-15 10:30 UTC' +%s"),
    case("date-iso-est", "date -d '2024-01-15 10:30 EST' '+%F %T'"),
    case("date-iso-pst", "date -d '2024-01-15 10:30 PST' +%H:%M"),
    case("date-iso-cest", "date -d '2024-07-15 10:30 CEST' +%H:%M"),
    case("date-iso-utc-plus", "date -d '2024-01-15 10:30 UTC+3' +%H:%M"),
    case("date-iso-plus-day", "date -d '2024-01-15 +1 day' +%F"),
    case("date-iso-utc-plus-day", "date -d '2024-01-15 10:30:00 UTC +1 day' '+%F %T'"),
    case("date-iso-time-offset-gotcha", "date -d '2024-01-15 10:30 -1 hour' '+%F %T'"),
    case("date-iso-days-ago", "date -d '2024-03-01 2 days ago' +%F"),
    case("date-iso-month-overflow", "date -d '2024-01-31 +1 month' +%F"),
    case("date-iso-month-back", "date -d '2024-03-31 -1 month' +%F"),
    case("date-iso-leap-plus-year", "date -d '2024-02-29 +1 year' +%F"),
    case("date-iso-next-monday-ignored", "date -d '2024-01-15 next monday' +%F"),
    case("date-iso-short", "date -d 2024-1-5 +%F"),
    case("date-iso-am", "date -d '2024-01-15 10am' +%T"),
    case("date-iso-pm", "date -d '2024-01-15 10:30pm' +%T"),
    case("date-iso-12am", "date -d '2024-01-15 12am' +%T"),
    case("date-iso-12pm", "date -d '2024-01-15 12pm' +%T"),
    case("date-month-name", "date -d 'Jan 15 2024' +%F"),
    case("date-month-comma", "date -d 'January 15, 2024' +%F"),
    case("date-day-month-year", "date -d '15 Jan 2024 10:00' '+%F %T'"),
    case("date-dashed-month", "date -d 15-Jan-2024 +%F"),
    case("date-dashed-month-first", "date -d Jan-15-2024 +%F"),
    case("date-weekday-date", "date -d 'Monday, January 15, 2024' +%F"),
    case("date-default-output-back", "date -d 'Mon Jan 15 10:30:00 UTC 2024' +%s"),
    case("date-rfc-email-back", "date -d 'Tue, 14 Nov 2023 22:13:20 +0000' +%s"),
    case("date-us-slash", "date -d 1/15/2024 +%F"),
    case("date-us-slash-short-year", "date -d 01/15/24 +%F"),
    case("date-ymd-slash", "date -d 2024/01/15 +%F"),
    case("date-compact", "date -d 20240115 +%F"),
    case("date-compact-time", "date -d '20240115 1030' '+%F %T'"),
    case("date-comment", "date -d '2024-01-15 (a comment) 10:00' '+%F %T'"),
    case("date-tz-prefix", "date -d 'TZ=\"UTC\" 2024-01-15 10:00' +%s"),
    case("date-round-trip", "date -d \"$(date -d @1700000000)\" +%s"),
    case("date-invalid-word", "date -d foo"),
    case("date-invalid-month", "date -d 2024-13-01"),
    case("date-invalid-day", "date -d 2024-02-30"),
    case("date-invalid-hour", "date -d '2024-01-15 25:00'"),
    case("date-invalid-minute", "date -d '2024-01-15 10:60'"),
    case("date-invalid-noon", "date -d noon"),
    case("date-invalid-two-days", "date -d 'monday tuesday'"),
    case("date-invalid-two-zones", "date -d '10:30 +0100 UTC'"),
    case("date-invalid-number", "date -d 12345"),
    case("date-invalid-ago-ago", "date -d '1 day ago ago'"),
    case("date-invalid-status", "date -d bogus +%s; echo status=$?"),
    case("date-invalid-epoch", "date -d @9999999999999999999999"),
    # ---------------------------------------------------------------- date: formats
    case("date-fmt-all-numbers", "date -d @1700000000.123456789 '+%Y %m %d %H %M %S %s %N %j %u %w %e %y %C %G %V %U %W %g %q'"),
    case("date-fmt-names", "date -d @1700000000 '+%a %A %b %B %h %p %P %Z %z'"),
    case("date-fmt-composites", "date -d @1700000000 '+%F|%T|%D|%R|%r|%c|%x|%X'"),
    case("date-fmt-zones", "date -d @1700000000 '+%z %:z %::z %:::z'"),
    case("date-fmt-n-t-percent", "date -d @1700000000 '+a%nb%tc%%d'"),
    case("date-fmt-flags-padding", "date -d 2024-01-05T03:04:05 '+%d|%-d|%_d|%0e|%e|%-e|%H|%-H|%_H|%k|%-k|%I|%-I|%l|%m|%-m|%_m|%j|%-j|%_j'"),
    case("date-fmt-flags-case", "date -d 2024-01-05T15:04:05 '+%^a|%^A|%^b|%^B|%#a|%#b|%#p|%^p|%#Z|%^P|%^c'"),
    case("date-fmt-widths", "date -d 2024-01-05T03:04:05 '+%10Y|%-10Y|%_10Y|%5a|%-5a|%05a|%^10A|%010A|%3S|%_3S|%10T|%10F|%_12F|%+12F'"),
    case("date-fmt-nanoseconds", "date -d @1700000000.123456789 '+%N|%3N|%6N|%1N|%12N|%_12N|%-N|%05N'"),
    case("date-fmt-ns-zeros", "date -d @1700000000.5 '+%N|%-N|%3N|%_N'"),
    case("date-fmt-zone-flags", "date -d @1700000000 '+%-z|%_z|%10z|%_:z|%-:z|%_:::z'"),
    case("date-fmt-plus-year", "date -d 2024-01-05 '+%+4Y|%+6Y|%+10Y|%+2C'"),
    case("date-fmt-bad-conversions", "date -d @1700000000 '+%i|%Q|%5|%E|%Ey|%Od|%:10z|%-%|%'"),
    case("date-fmt-iso-week-edge", "date -d 2024-12-30 '+%G-W%V-%u %g %U %W %j'"),
    case("date-fmt-iso-week-start", "date -d 2021-01-03 '+%G-W%V-%u %U %W'"),
    case("date-fmt-year-far", "date -d 10000-01-01 '+%F %Y %C'"),
    case("date-fmt-small-year", "date -d 0099-01-01 '+%Y %-Y %_Y %F %C %y'"),
    case("date-fmt-empty", "date -d @0 +"),
    case("date-fmt-literal", "date -d @0 '+Today is %A, %B %-d, %Y.'"),
    case("date-fmt-pre-1970", "date -d 1969-12-31T23:59:59 '+%s %F %j %U'"),
    # ---------------------------------------------------------------- date: options
    case("date-opt-I-hours", "date -d @1700000000 -Ihours"),
    case("date-opt-I-minutes", "date -d @1700000000 -Iminutes"),
    case("date-opt-I-ns", "date -d @1700000000.5 -Ins"),
    case("date-opt-I-abbrev", "date -d @1700000000 -Is"),
    case("date-opt-iso-long", "date -d @1700000000 --iso-8601=seconds"),
    case("date-opt-I-bad", "date -d @1700000000 -Ifoo"),
    case("date-opt-I-empty", "date -d @1700000000 --iso-8601="),
    case("date-opt-rfc-3339-date", "date -d @1700000000 --rfc-3339=date"),
    case("date-opt-rfc-3339-ns", "date -d @1700000000 --rfc-3339=ns"),
    case("date-opt-rfc-3339-missing", "date -d @1700000000 --rfc-3339"),
    case("date-opt-rfc-3339-bad", "date -d @1700000000 --rfc-3339=foo"),
    case("date-opt-R", "date -d @1700000000 -R"),
    case("date-opt-rfc-2822", "date -d @1700000000 --rfc-2822"),
    case("date-opt-date-long", "date --date=@1700000000 +%F"),
    case("date-opt-date-attached", "date -d@1700000000 +%F"),
    case("date-opt-universal", "date --universal -d @1700000000 +%Z"),
    case("date-opt-two-formats", "date -d @1700000000 -R +%s"),
    case("date-opt-I-and-R", "date -d @1700000000 -I -R"),
    case("date-opt-d-and-r", "date -d @1700000000 -r a.txt"),
    case("date-opt-extra-operand", "date -d @1700000000 +%s extra"),
    case("date-opt-no-plus", "date -d @1700000000 foo"),
    case("date-opt-two-plus", "date +%Y +%m"),
    case("date-opt-bad-option", "date -z"),
    case("date-opt-bad-long", "date --foo"),
    case("date-opt-d-missing", "date -d"),
    case("date-opt-ambiguous", "date --rfc"),
    case("date-opt-double-dash", "date -d @0 -- +%s"),
    case("date-set-refused", "date -s '2024-01-01'"),
    case("date-set-long-refused", "date --set='2024-01-01 10:00'"),
    case("date-set-posix-refused", "date 0101010199"),
    case("date-set-invalid", "date -s bogus"),
    case("date-set-with-d", "date -d @0 -s @1"),
    case("date-reference", "date -r a.txt"),
    case("date-reference-format", "date -r a.txt +%s"),
    case("date-reference-dir", "date -r proj '+%F %T'"),
    case("date-reference-missing", "date -r nope.txt"),
    case("date-file", "date -f dates.txt"),
    case("date-file-format", "date -f dates.txt +%s"),
    case("date-file-stdin", "printf '@0\\n2024-01-15\\n' | date -f - +%F"),
    case("date-file-missing", "date -f nope.txt"),
    case("date-tz-utc0", "TZ=UTC0 date -d @1700000000"),
    case("date-tz-posix-west", "TZ=EST5 date -d @1700000000 '+%F %T %Z %z %:z'"),
    case("date-tz-posix-east", "TZ=IST-5:30 date -d @1700000000 '+%F %T %Z %z %:::z'"),
    case("date-tz-posix-seconds", "TZ=ABC+3:30:15 date -d @1700000000 '+%T %z %::z %:::z'"),
    case("date-tz-parse-local", "TZ=EST5 date -d '2024-01-15 10:30' +%s"),
    case("date-tz-parse-explicit", "TZ=EST5 date -d '2024-01-15 10:30 UTC' '+%F %T %Z'"),
    case("date-tz-rfc-email", "TZ=JST-9 date -d @1700000000 -R"),
    case("date-tz-iso", "TZ=JST-9 date -d @1700000000 -Iseconds"),
    case("date-tz-unknown-name", "TZ=Foo date -d @1700000000 '+%T %Z'"),
    case("date-tz-in-date-string", "date -d 'TZ=\"EST5\" 2024-01-15 10:00' +%s"),
    # ---------------------------------------------------------------- mktemp
    case("mktemp-default", "f=$(mktemp); test -f \"$f\" && echo ok; echo \"${f%.*}\"; echo ${#f}"),
    case("mktemp-default-empty", "f=$(mktemp); wc -c < \"$f\""),
    case("mktemp-dir", "d=$(mktemp -d); test -d \"$d\" && echo dir; echo \"${d%.*}\""),
    case("mktemp-dir-empty", "d=$(mktemp -d); ls -A \"$d\" | wc -l"),
    case("mktemp-p", "mktemp -p /w | grep -c '^/w/tmp\\.[A-Za-z0-9]\\{10\\}$'"),
    case("mktemp-d-p", "mktemp -d -p /w | grep -c '^/w/tmp\\.'"),
    case("mktemp-p-slash", "mktemp -p /w/ abcXXX | grep -c '^/w/abc...$'"),
    case("mktemp-p-relative", "f=$(mktemp -p proj); echo \"${f%.*}\"; test -f \"$f\" && echo made"),
    case("mktemp-p-dot", "mktemp -p . abcXXX | cut -c1-5"),
    case("mktemp-template-here", "f=$(mktemp fooXXXXXX); test -f \"$f\" && echo ok; echo ${#f} ${f%??????}"),
    case("mktemp-template-suffix-after-x", "f=$(mktemp fooXXXbar); echo ${f:0:3} ${f:6} ${#f}"),
    case("mktemp-template-subdir", "f=$(mktemp proj/src/XXXXXX); dirname \"$f\"; test -f \"$f\" && echo ok"),
    case("mktemp-suffix", "f=$(mktemp --suffix=.txt); echo \"${f##*.}\"; test -f \"$f\" && echo ok"),
    case("mktemp-suffix-template", "f=$(mktemp --suffix=.md noteXXX); echo ${f:0:4} ${f:7} ${#f}"),
    case("mktemp-tmpdir", "mktemp --tmpdir | cut -c1-9"),
    case("mktemp-tmpdir-dir", "mktemp --tmpdir=/w xXXX | cut -c1-4"),
    case("mktemp-t", "mktemp -t fooXXX | cut -c1-8"),
    case("mktemp-tmpdir-env", "TMPDIR=/w/proj mktemp | cut -c1-12"),
    case("mktemp-tmpdir-env-t", "TMPDIR=/w/proj mktemp -t -p /tmp xXXX | cut -c1-9"),
    case("mktemp-tmpdir-env-p", "TMPDIR=/w/proj mktemp -p /w/logs | cut -c1-12"),
    case("mktemp-dry-run", "f=$(mktemp -u); test -e \"$f\" || echo absent; echo \"${f%.*}\""),
    case("mktemp-dry-run-missing-dir", "mktemp -u /nonexist/XXX | cut -c1-10"),
    case("mktemp-unique", "a=$(mktemp); b=$(mktemp); test \"$a\" != \"$b\" && echo different"),
    case("mktemp-many-x", "f=$(mktemp -u fooXXXXXXXXXXXXXXXXXXXX); echo ${#f}"),
    case("mktemp-alphabet", "mktemp -u XXXXXXXXXXXXXXXXXXXXXXXXXXXXXX | grep -c '^[A-Za-z0-9]*$'"),
    case("mktemp-use-it", "f=$(mktemp) && printf 'b\\na\\n' > \"$f\" && sort \"$f\" && rm \"$f\" && test ! -e \"$f\" && echo gone"),
    case("mktemp-too-few", "mktemp aXX"),
    case("mktemp-too-few-x", "mktemp X"),
    case("mktemp-empty-template", "mktemp ''"),
    case("mktemp-no-x", "mktemp plain"),
    case("mktemp-suffix-not-x", "mktemp --suffix=.txt fooXXXbar"),
    case("mktemp-suffix-slash", "mktemp --suffix=/x fooXXX"),
    case("mktemp-template-suffix-slash", "mktemp fooXXX/bar"),
    case("mktemp-p-absolute", "mktemp -p /w /abs/XXX"),
    case("mktemp-t-slash", "mktemp -t /w/fooXXX"),
    case("mktemp-two-templates", "mktemp fooXXX barXXX"),
    case("mktemp-bad-option", "mktemp -z"),
    case("mktemp-missing-dir", "mktemp /nonexist/XXX"),
    case("mktemp-missing-dir-d", "mktemp -d /nonexist/XXX"),
    case("mktemp-missing-dir-q", "mktemp -q /nonexist/XXX; echo status=$?"),
    case("mktemp-p-file", "mktemp -p a.txt xXXX"),
    case("mktemp-relative-missing", "mktemp nope/XXX"),
    # ---------------------------------------------------------------- timeout
    case("timeout-fast-command", "timeout 5 echo hello"),
    case("timeout-status-passes", "timeout 5 sh -c 'exit 3'; echo status=$?"),
    case("timeout-false", "timeout 1s false; echo status=$?"),
    case("timeout-expires", "timeout 0.2 sleep 2; echo status=$?"),
    case("timeout-expires-units", "timeout 0.005m sleep 2; echo status=$?"),
    case("timeout-kill", "{ timeout -s KILL 0.2 sleep 2; } 2>/dev/null; echo status=$?"),
    case("timeout-kill-number", "{ timeout -s 9 0.2 sleep 2; } 2>/dev/null; echo status=$?"),
    case("timeout-preserve", "timeout --preserve-status 0.2 sleep 2; echo status=$?"),
    case("timeout-preserve-int", "timeout -s INT --preserve-status 0.2 sleep 2; echo status=$?"),
    case("timeout-preserve-hup", "timeout -s SIGHUP --preserve-status 0.2 sleep 2; echo status=$?"),
    case("timeout-preserve-fast", "timeout --preserve-status 5 sh -c 'exit 7'; echo status=$?"),
    case("timeout-signal-lowercase", "timeout -s term 0.2 sleep 2; echo status=$?"),
    case("timeout-signal-long", "timeout --signal=INT 0.2 sleep 2; echo status=$?"),
    case("timeout-kill-after", "timeout -k 1 0.2 sleep 2; echo status=$?"),
    case("timeout-verbose", "timeout -v 0.2 sleep 2; echo status=$?"),
    case("timeout-shell-loop", "timeout 0.2 sh -c 'while :; do :; done'; echo status=$?"),
    case("timeout-zero-no-limit", "timeout 0 sh -c 'sleep 0.3; echo done'"),
    case("timeout-inf", "timeout inf echo ok"),
    case("timeout-exponent", "timeout 1e-1 sleep 2; echo status=$?"),
    case("timeout-leading-blank", "timeout ' 5' echo ok"),
    case("timeout-dot", "timeout .5 echo ok"),
    case("timeout-hours-days", "timeout 1h echo a; timeout 1d echo b"),
    case("timeout-foreground", "timeout --foreground 5 echo hi"),
    case("timeout-nested", "timeout 5 timeout 0.2 sleep 2; echo status=$?"),
    case("timeout-nested-outer", "timeout 0.2 timeout 5 sleep 2; echo status=$?"),
    case("timeout-args", "timeout 5 printf '%s-' a b c; echo"),
    case("timeout-reads-file", "timeout 5 cat a.txt"),
    case("timeout-stdin", "printf 'b\\na\\n' | timeout 5 sort"),
    case("timeout-stderr", "timeout 5 sh -c 'echo out; echo err >&2; exit 4'; echo status=$?"),
    case("timeout-in-pipeline", "timeout 5 seq 3 | wc -l"),
    case("timeout-if", "if timeout 0.2 sleep 2; then echo finished; else echo stopped $?; fi"),
    case("timeout-until", "n=0; until timeout 5 test $n -ge 2; do n=$((n+1)); done; echo $n"),
    case("timeout-not-found", "timeout 5 nosuchcmd; echo status=$?"),
    case("timeout-bad-duration", "timeout x true; echo status=$?"),
    case("timeout-bad-unit", "timeout 5x true; echo status=$?"),
    case("timeout-negative", "timeout -1 true; echo status=$?"),
    case("timeout-bad-signal", "timeout -s FOO 1 true; echo status=$?"),
    case("timeout-bad-kill-after", "timeout -k x 1 true; echo status=$?"),
    case("timeout-missing-operand", "timeout; echo status=$?"),
    case("timeout-missing-command", "timeout 5; echo status=$?"),
    case("timeout-bad-option", "timeout -z 1 true; echo status=$?"),
    case("timeout-bad-long-option", "timeout --bogus 1 true; echo status=$?"),
    case("timeout-signal-missing", "timeout -s; echo status=$?"),
    # ---------------------------------------------------------------- du (GNU's apparent sizes)
    case("du-default", "du | sort -k2", f"{DU} | sort -k2"),
    case("du-apparent", f"{DU} | sort -k2"),
    case("du-all", f"{DU} -a proj | sort -k2"),
    case("du-summarize", f"{DU} -s proj"),
    case("du-summarize-default", "du -s proj", f"{DU} -s proj"),
    case("du-sh", "du -sh proj", f"{DU} -sh proj"),
    case("du-sh-big", "du -sh big", f"{DU} -sh big"),
    case("du-h-all", f"{DU} -ah proj | sort -k2"),
    case("du-bytes", "du -b proj | sort -k2"),
    case("du-bytes-all", "du -ab proj | sort -k2"),
    case("du-sb-many", "du -sb proj logs one"),
    case("du-total", f"{DU} -c proj/src logs | sort -k2"),
    case("du-total-summarize", f"{DU} -sc proj logs a.txt"),
    case("du-total-human", f"{DU} -shc proj logs"),
    case("du-file", f"{DU} a.txt"),
    case("du-empty-file", f"{DU} empty.txt"),
    case("du-files", "du -b a.txt proj/src/main.py"),
    case("du-empty-dir", f"{DU} proj/empty"),
    case("du-empty-dir-bytes", "du -b proj/empty"),
    case("du-chain", f"{DU} one"),
    case("du-chain-all", f"{DU} -a one"),
    case("du-chain-slash", f"{DU} -a one/"),
    case("du-chain-dot", f"cd one && {DU} -a"),
    case("du-chain-absolute", f"{DU} -a /w/one"),
    case("du-chain-null", f"{DU} -0 one | tr '\\0' '|'"),
    case("du-max-depth", f"{DU} -d 1 proj | sort -k2"),
    case("du-max-depth-long", f"{DU} --max-depth=1 | sort -k2"),
    case("du-max-depth-0", f"{DU} -d 0 proj"),
    case("du-max-depth-all", f"{DU} -a -d 1 proj | sort -k2"),
    case("du-max-depth-h-sort", f"{DU} -h -d 1 proj | sort -h"),
    case("du-sort-n", "du -ab proj | sort -n | tail -3"),
    case("du-k", f"{DU} -k proj/build"),
    case("du-m", f"{DU} -ms big proj"),
    case("du-block-1", f"{DU} -B 1 a.txt"),
    case("du-block-K", f"{DU} -BK proj/build"),
    case("du-block-M", f"{DU} -BM big"),
    case("du-block-512", f"{DU} -B 512 proj/build"),
    case("du-block-KB", f"{DU} -B KB proj/build"),
    case("du-block-bad", f"{DU} -B x proj"),
    case("du-si", f"{DU} -s --si proj big"),
    case("du-h-then-k", f"{DU} -h -k proj/build"),
    case("du-k-then-h", f"{DU} -k -h proj/build"),
    case("du-exclude", f"{DU} --exclude='*.log' proj logs | sort -k2"),
    case("du-exclude-all", f"{DU} -a --exclude='*.py' proj | sort -k2"),
    case("du-exclude-dir", f"{DU} -a --exclude=lib proj/src | sort -k2"),
    case("du-exclude-path", f"{DU} -a --exclude=proj/build proj | sort -k2"),
    case("du-exclude-operand", f"{DU} --exclude=logs logs; echo status=$?"),
    case("du-separate-dirs", f"{DU} -S proj | sort -k2"),
    case("du-dedupe-dir", f"{DU} -s proj proj/src"),
    case("du-dedupe-file-first", f"{DU} -s proj/src/main.py proj/src"),
    case("du-dedupe-same", f"{DU} -s logs logs"),
    case("du-count-links", f"{DU} -sl proj proj/src"),
    case("du-missing", f"{DU} nope; echo status=$?"),
    case("du-missing-and-present", f"{DU} -s nope logs; echo status=$?"),
    case("du-summarize-all", f"{DU} -sa proj"),
    case("du-summarize-depth", f"{DU} -s -d 1 proj"),
    case("du-summarize-depth-0", f"{DU} -s -d 0 proj"),
    case("du-bad-depth", f"{DU} -d x proj"),
    case("du-negative-depth", f"{DU} -d -1 proj"),
    case("du-bad-option", f"{DU} -z"),
    case("du-bad-long", f"{DU} --foo"),
    case("du-ignored-options", f"{DU} -x -L -H -P -s proj"),
    case("du-largest", "du -a proj | sort -n | tail -1", f"{DU} -a proj | sort -n | tail -1"),
    # ---------------------------------------------------------------- ln (usage errors are GNU's)
    case("ln-missing-operand", "ln"),
    case("ln-s-missing-operand", "ln -s"),
    case("ln-bad-option", "ln -z a"),
    case("ln-bad-long", "ln --foo"),
    case("ln-t-missing-value", "ln -t"),
    case("ln-target-missing", "ln a.txt b c"),
    case("ln-target-file", "ln -s a.txt empty.txt dates.txt"),
    case("ln-T-extra", "ln -T a b c"),
    case("ln-t-missing-dir", "ln -t nope a.txt"),
    case("ln-t-no-operand", "ln -s -t proj"),
    case("ln-hard-missing-source", "ln nope x"),
    case("ln-hard-exists", "ln a.txt"),
    case("ln-s-exists", "ln -s a.txt"),
    case("ln-s-into-dir-exists", "ln -s --target-directory=/w a.txt"),
    case("ln-s-T-dir", "ln -s -T a.txt proj"),
    case("ln-status", "ln -s a.txt; echo status=$?"),
    case("ln-s-creates", "ln -s a.txt link && cat link"),
    case("ln-hard-creates", "ln a.txt hard && cat hard"),
    case("ln-sf-creates", "ln -sf a.txt link; echo status=$?"),
]


def build_world(root: Path) -> None:
    for path, content in WORLD.items():
        target = root / path.lstrip("/")
        if path.endswith("/"):
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(world_text(content).encode("utf-8"))
    for directory, dirs, files in os.walk(root):
        for name in dirs + files:
            os.utime(Path(directory) / name, (MTIME, MTIME))


def world_text(content: object) -> str:
    if isinstance(content, dict):
        return str(content["repeat"]) * int(content["times"])
    return str(content)


def record_case(case_id: str, line: str, gnu: str | None) -> dict:
    """Run one case in a fresh sandboxed world; its stdout as text, or base64 when not UTF-8."""
    root = Path(tempfile.mkdtemp(prefix="date-fs-more-"))
    command = case_id.split("-")[0]
    environment = ENVIRONMENT + (FAKE_ENVIRONMENT if command == "date" else [])
    try:
        build_world(root)
        argv = ["bwrap", "--bind", str(root), "/", *SANDBOX, *environment, "bash", "-c", PREFIX + (gnu or line)]
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_SECONDS)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    record = {"id": case_id, "command": command, "line": line}
    if gnu:
        record["recorded_line"] = gnu
    try:
        record["stdout"] = done.stdout.decode("utf-8")
    except UnicodeDecodeError:
        record["stdout_b64"] = base64.b64encode(done.stdout).decode("ascii")
    record["exit_code"] = done.returncode
    record["stderr_nonempty"] = bool(done.stderr)
    record["stderr"] = done.stderr.decode("utf-8", "replace")  # for reading only, never compared
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="print the records of this command instead of writing the file")
    options = parser.parse_args(argv)
    if shutil.which("bwrap") is None:
        print("bwrap (bubblewrap) is required", file=sys.stderr)
        return 2
    if not Path(FAKETIME_LIB).exists():
        print("libfaketime is required (apt-get install faketime)", file=sys.stderr)
        return 2
    ids = [case_id for case_id, _, _ in CASES]
    if len(ids) != len(set(ids)):
        print("duplicate case ids", file=sys.stderr)
        return 1
    if options.only:
        for case_id, line, gnu in CASES:
            if case_id.split("-")[0] == options.only:
                print(json.dumps(record_case(case_id, line, gnu), ensure_ascii=False))
        return 0
    records = [record_case(case_id, line, gnu) for case_id, line, gnu in CASES]
    data = {"prefix": PREFIX, "clock": CLOCK, "mtime": MTIME, "world": WORLD, "cases": records}
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(records)} cases written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
