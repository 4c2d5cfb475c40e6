"""date: the recorded GNU cases (tests/data/date_fs_more_corpus.json, recorded by
tools/record_date_fs_more.py under a clock frozen at 1700000000) replayed through the runtime
with that clock injected, exact checks of the clock, the zones and the parser, and a property
test: random arguments never crash it."""
from __future__ import annotations

import asyncio
import base64
import datetime as dt
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands import create_command_registry
from onetool_wasm.commands.system._datetime_format import (FixedZone, broken_down, civil_from_days,
                                                           days_from_civil, format_time, zone_from_tz)
from onetool_wasm.commands.system._datetime_parse import parse_datetime

from .helpers import call, fuzz_settings

CORPUS = json.loads((Path(__file__).parent / "data" / "date_fs_more_corpus.json").read_text(encoding="utf-8"))
CLOCK = float(CORPUS["clock"])

# Cases where we knowingly differ from GNU (strict xfail; listed in docs/DIFFERENCES.md).
KNOWN_DIFFERENCES: dict[str, str] = {}


def corpus_cases(commands: set[str]) -> list[dict]:
    return [case for case in CORPUS["cases"] if case["command"] in commands]


def expected_stdout(case: dict) -> bytes:
    if "stdout_b64" in case:
        return base64.b64decode(case["stdout_b64"])
    return case["stdout"].encode("utf-8")


def world_bytes(content) -> bytes:
    if isinstance(content, dict):
        return (str(content["repeat"]) * int(content["times"])).encode("utf-8")
    return str(content).encode("utf-8")


async def corpus_runtime(**options):
    """A runtime over the recorded world: every file dated the corpus's mtime, the clock
    frozen where the recording froze it."""
    mtime_ms = int(CORPUS["mtime"]) * 1000
    vfs = MemoryVFS(now_ms=lambda: mtime_ms)
    for path, content in CORPUS["world"].items():
        if path.endswith("/"):
            await vfs.mkdir(path.rstrip("/"), True)
        else:
            await vfs.write_bytes(path, world_bytes(content))
    return await create_agent_cli(vfs=vfs, clock=lambda: CLOCK, **options)


async def replay(case: dict):
    runtime = await corpus_runtime()
    return await runtime.run_detailed(CORPUS["prefix"] + case["line"])


def check_case(case: dict) -> None:
    execution = asyncio.run(replay(case))
    got = (execution.stdout, execution.exit_code, bool(execution.stderr))
    want = (expected_stdout(case), case["exit_code"], case["stderr_nonempty"])
    assert got == want, (case["line"], execution.stderr)


def params(commands: set[str], known: dict[str, str]):
    return [pytest.param(case, id=case["id"],
                         marks=[pytest.mark.xfail(strict=True, reason=known[case["id"]])] if case["id"] in known else [])
            for case in corpus_cases(commands)]


@pytest.mark.parametrize("case", params({"date"}, KNOWN_DIFFERENCES))
def test_recorded_gnu_case(case):
    check_case(case)


def test_enough_cases_are_recorded():
    assert len(corpus_cases({"date"})) >= 150


def test_registered_in_system_with_examples():
    spec = create_command_registry().get("date")
    assert spec.group == "system" and "\nExamples:\n  date" in spec.details
    assert spec.kind_for(["-s", "2024-01-01"]) == "read"  # setting is refused, so nothing changes


# -- the clock and the zone ----------------------------------------------------------------------

def run_line(line: str, **options):
    async def go():
        runtime = await create_agent_cli(vfs=MemoryVFS(), **options)
        return await runtime.run_detailed(line)
    return asyncio.run(go())


def test_now_is_the_injected_clock():
    result = run_line("date; date +%s.%N; date -d yesterday +%F", clock=lambda: 1704362400.25)
    assert result.stdout == b"Thu Jan  4 10:00:00 UTC 2024\n1704362400.250000000\n2024-01-03\n"


def test_no_zone_is_utc_and_the_context_zone_is_used():
    assert run_line("date +%Z%z", clock=lambda: 0.0).stdout == b"UTC+0000\n"
    paris_winter = dt.timezone(dt.timedelta(hours=1), "CET")
    result = run_line("date; date -d '2024-01-15 10:00' +%s; date -u +%H", clock=lambda: 1704362400.0,
                      timezone=paris_winter)
    assert result.stdout == b"Thu Jan  4 11:00:00 CET 2024\n1705309200\n10\n"


def test_an_unnamed_fixed_zone_prints_a_numeric_abbreviation():
    zone = dt.timezone(dt.timedelta(hours=-3, minutes=-30))
    assert run_line("date -d @0 '+%H:%M %Z %z'", timezone=zone).stdout == b"20:30 -0330 -0330\n"


def test_tz_variable_wins_over_the_context_zone():
    result = run_line("TZ=JST-9 date -d @0 '+%H %Z'; date -d @0 '+%H %Z'",
                      timezone=dt.timezone(dt.timedelta(hours=2), "EET"))
    assert result.stdout == b"09 JST\n02 EET\n"


def test_iana_zone_names_when_zone_data_is_installed():
    zone = zone_from_tz("Europe/Paris")
    if not isinstance(zone, FixedZone):
        summer, winter = broken_down(1720000000, 0, zone), broken_down(1700000000, 0, zone)
        assert (summer.zone, summer.offset, winter.zone, winter.offset) == ("CEST", 7200, "CET", 3600)
        # 02:30 on the day clocks go forward does not exist there: GNU calls it invalid
        assert parse_datetime("2024-03-31 02:30", (0, 0), zone) is None
    else:  # no zone data (Pyodide): glibc's reading of an unknown name, UTC under the name's letters
        assert zone == FixedZone(0, "Europe")


def test_setting_the_clock_is_refused_and_says_why():
    result = run_line("date -s '2024-01-01 10:00'")
    assert result.exit_code == 1 and "cannot set date" in result.stderr and "sandbox" in result.stderr
    assert result.stdout == b"Mon Jan  1 10:00:00 UTC 2024\n"


def test_outside_the_shell_the_strict_grammar_prints_dates_too():
    result = call("date", ["-d", "@86400", "+%F"])
    assert (result.stdout, result.exit_code) == (b"1970-01-02\n", 0)


def test_invalid_date_names_the_string():
    result = run_line("date -d 'next blursday'")
    assert (result.exit_code, result.stderr) == (1, "date: invalid date 'next blursday'")


# -- the parser and the formatter ------------------------------------------------------------------

NOW = (1700000000, 0)  # Tue 2023-11-14 22:13:20 UTC


@pytest.mark.parametrize("text,expected", [
    ("2024-01-15", 1705276800), ("2024-01-15T10:30:00Z", 1705314600), ("@1700000000", 1700000000),
    ("now", 1700000000), ("today", 1700000000), ("yesterday", 1699913600), ("tomorrow", 1700086400),
    ("3 days ago", 1699740800), ("+2 hours", 1700007200), ("-30 minutes", 1699998200),
    ("next monday", 1700438400), ("last week", 1699395200), ("Jan 15 2024", 1705276800),
    ("15 January 2024 10:00", 1705312800), ("2024-01-15 10:30 +0100", 1705311000),
    ("2024-01-31 +1 month", 1709337600), ("1030", 1699957800), ("", 1699920000),
])
def test_parse_datetime(text, expected):
    assert parse_datetime(text, NOW, FixedZone(0)) == (expected, 0)


@pytest.mark.parametrize("text", ["foo", "2024-02-30", "24:00", "monday friday", "noon", "12345", "@", "1 day ago ago",
                                  "TZ=\"UTC", "2024-01-15T10"])
def test_parse_datetime_rejects(text):
    assert parse_datetime(text, NOW, FixedZone(0)) is None


def test_calendar_round_trips_across_eras():
    for days in (-800000, -719468, -1, 0, 1, 59, 60, 365, 10957, 19737, 2932896, 1158022599):
        assert days_from_civil(*civil_from_days(days)) == days


@pytest.mark.parametrize("fmt,expected", [
    ("%-d/%-m/%y", "5/1/24"), ("%_H|%k|%l|%I%p", " 3| 3| 3|03AM"), ("%010s", "1704423845"),
    ("%3N|%-N|%-3N|%_6N", "000|000000007|0|0     "), ("%^a %#b %#Z", "FRI JAN utc"), ("%+6Y|%_10F|%-F", "+02024|2024-01-05|2024-01-05"),
    ("%:z|%::z|%:::z", "+00:00|+00:00:00|+00"), ("%q %G %V %U %W", "1 2024 01 00 01"), ("%i %5%|%-%", "%i    %5%|%-%"),
])
def test_format_time(fmt, expected):
    tm = broken_down(1704423845, 7, FixedZone(0))
    assert format_time(fmt, tm) == expected


def test_format_time_in_a_zone_with_seconds():
    tm = broken_down(1700000000, 0, FixedZone(-(3 * 3600 + 30 * 60 + 15), "ABC"))
    assert format_time("%T %z %:z %::z %:::z %Z", tm) == "18:43:05 -0330 -03:30 -03:30:15 -03:30:15 ABC"


# -- property: random arguments never crash -----------------------------------------------------------

WORDS = ["-d", "-u", "-R", "-I", "-Is", "-Ins", "-r", "-f", "-s", "--rfc-3339=ns", "--iso-8601=hours", "+%F", "+%s%N",
         "+%-_^#10z", "+%::z%:::z%", "@0", "@-1.5", "now", "next", "monday", "2 days ago", "2024-02-29", "10:30",
         "Jan 15", "UTC", "+1", "-2", "TZ=\"EST5\" 1:00", "a.txt", "--", "-", "1/2/3", "99999999999999", "T", "("]


@fuzz_settings(200)
@given(args=st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=12)), max_size=5))
def test_random_arguments_never_crash(args):
    result = call("date", args, files={"/a.txt": "x"})
    assert "internal runtime error" not in result.stderr
    assert result.exit_code in (0, 1)


@fuzz_settings(300)
@given(text=st.text(alphabet=" 0123456789:-+/.,@TZaAmMpPdDyYsShHoOnNwWeEkKlLtTuUrRiIgGcCbBfFjJ()\"=", max_size=30))
def test_random_date_strings_never_crash(text):
    parse_datetime(text, NOW, FixedZone(0))
