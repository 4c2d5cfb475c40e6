"""grep, egrep and fgrep against recordings of GNU grep 3.8 (Debian) in the C locale
(tests/data/grep_gnu_corpus.json, made by tools/record_grep_gnu.py), exact checks of the
flags, and a property test: random flags, patterns and input never crash them."""
from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands import create_command_registry

from .helpers import call, command_context, fuzz_settings

CORPUS = json.loads((Path(__file__).parent / "data" / "grep_gnu_corpus.json").read_text(encoding="utf-8"))

# Cases where we knowingly differ from GNU (strict xfail): id -> reason.
KNOWN_DIFFERENCES: dict[str, str] = {}

# Cases whose stderr must be GNU's, byte for byte (the others compare whether there is any).
EXACT_STDERR = {
    "grep-missing-file", "grep-missing-and-match", "grep-q-missing-and-match", "grep-directory-no-r",
    "grep-no-pattern", "grep-invalid-option", "grep-invalid-long", "grep-invalid-in-cluster",
    "grep-missing-arg-A", "grep-missing-arg-e", "grep-bad-context-number", "grep-bad-max-count",
    "grep-bad-binary-files", "grep-flag-value-unexpected", "egrep-stderr", "fgrep-stderr", "egrep-bad-option",
    "grep-binary-match", "grep-binary-late", "grep-binary-stdin", "grep-f-missing", "grep-r-missing",
    "grep-E-G-last-wins", "grep-F-E-last-wins", "grep-P-two-patterns", "grep-r", "grep-bad-regex",
    "grep-bad-class",
}


def expected_stdout(case: dict) -> bytes:
    if "stdout_b64" in case:
        return base64.b64decode(case["stdout_b64"])
    return case["stdout"].encode("utf-8")


async def replay(case: dict):
    vfs = MemoryVFS()
    for path, text in CORPUS["world"].items():
        await vfs.mkdir(path.rsplit("/", 1)[0] or "/", True)
        await vfs.write_bytes(path, text.encode("utf-8"))
    runtime = await create_agent_cli(vfs=vfs)
    return await runtime.run_detailed(CORPUS["prefix"] + case["line"])


def check_case(case: dict) -> None:
    execution = asyncio.run(replay(case))
    got = (execution.stdout, execution.exit_code, bool(execution.stderr))
    want = (expected_stdout(case), case["exit_code"], case["stderr_nonempty"])
    if case["id"] in EXACT_STDERR:
        got, want = got + (execution.stderr.rstrip("\n"),), want + (case["stderr"].rstrip("\n"),)
    assert got == want, (case["line"], execution.stderr)


def params():
    return [pytest.param(case, id=case["id"],
                         marks=[pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[case["id"]])]
                         if case["id"] in KNOWN_DIFFERENCES else [])
            for case in CORPUS["cases"]]


@pytest.mark.parametrize("case", params())
def test_recorded_gnu_case(case):
    check_case(case)


def test_enough_cases_are_recorded_and_nearly_all_agree():
    cases = CORPUS["cases"]
    assert len(cases) >= 120
    assert len(KNOWN_DIFFERENCES) <= len(cases) * 0.02
    assert set(KNOWN_DIFFERENCES) | EXACT_STDERR <= {case["id"] for case in cases}


@pytest.mark.parametrize("name", ["grep", "egrep", "fgrep"])
def test_registered_in_the_text_group(name):
    spec = create_command_registry().get(name)
    assert spec.group == "text" and spec.kind_for([]) == "read"
    assert "\nExamples:\n  " in spec.details


# -- exact checks -------------------------------------------------------------------------------

def run_line(line: str, files: dict[str, bytes] | None = None):
    async def go():
        vfs = MemoryVFS()
        for path, data in (files or {}).items():
            await vfs.write_bytes(path, data)
        runtime = await create_agent_cli(vfs=vfs)
        return await runtime.run_detailed(line)
    return asyncio.run(go())


def test_egrep_and_fgrep_are_grep_E_and_F():
    files = {"/a": b"a.b\naxb\nab\n"}
    assert run_line("egrep 'a.?b' /a", files).stdout == run_line("grep -E 'a.?b' /a", files).stdout == b"a.b\naxb\nab\n"
    assert run_line("fgrep a.b /a", files).stdout == b"a.b\n"
    assert run_line("egrep 'q|a\\.b' /a", files).stdout == b"a.b\n"


def test_streamed_and_whole_input_agree():
    data = b"one\ntwo\nthree one\nfour"
    for flags in ("-b", "-bo", "-z", "-c", "-T -n", "-A1", "-m1 -b", "-P 'o\\w'", "-Z -H", "--label=x -H -c"):
        streamed = run_line(f"cat /in | grep {flags} one", {"/in": data})
        whole = run_line(f"grep {flags} one < /in", {"/in": data})
        assert (streamed.stdout, streamed.exit_code) == (whole.stdout, whole.exit_code), flags


def test_P_refuses_what_python_re_cannot_do():
    result = run_line("echo aa | grep -P '(?R)'")
    assert result.exit_code == 2 and "grep: " in result.stderr


def test_strict_grammar_keeps_its_usage_errors():
    result = call("grep", ["-k", "x"], ctx=command_context({}), stdin=b"x\n")
    assert result.exit_code == 1 and "unknown option: -k" in result.stderr


# -- property: random flags, patterns and input never crash ----------------------------------------

FLAGS = ["-b", "-z", "-Z", "-P", "-E", "-F", "-G", "-m", "1", "-m0", "-A", "-B", "-C", "2", "-1", "-h", "-H",
         "-l", "-L", "-s", "-q", "-c", "-o", "-v", "-w", "-x", "-i", "-y", "-n", "-T", "-U", "-a", "-I", "-r",
         "-R", "--null", "--label=x", "--color=never", "--line-buffered", "--binary-files=text",
         "--binary-files=without-match", "--group-separator=::", "--no-group-separator", "--include=*.txt",
         "--exclude=a*", "--exclude-dir=sub", "-e", "-f", "-", "pats", "a.txt", "sub", "--", "-k", "--nope"]
PATTERNS = ["a", "", ".", "^", "$", "a|b", "a\\|b", "(a", "\\(a", "[", "[[:alpha:]]", "\\d+", "(?<=a)b",
            "(?R)", "\\K", "a{1,2}", "x*", "\\bw", "(a)\\1", "\\Qa.\\E", "(?i)A", "\\p{L}", "[[:nope:]]"]
FILES = {"/w/a.txt": b"a b\nab\n", "/w/pats": b"a\n\\d\n", "/w/sub/c.txt": b"c\0a\n"}


@pytest.mark.parametrize("name", ["grep", "egrep", "fgrep"])
def test_random_flags_patterns_and_input_never_crash(name):
    @fuzz_settings(40)
    @given(flags=st.lists(st.sampled_from(FLAGS), max_size=4), pattern=st.sampled_from(PATTERNS) | st.text(max_size=4),
           data=st.binary(max_size=20) | st.text(alphabet="ab \n\0.", max_size=20).map(str.encode))
    def check(flags, pattern, data):
        execution = asyncio.run(run_fuzzed(name, [*flags, pattern], data))
        assert "internal runtime error" not in execution.stderr, (flags, pattern, data, execution.stderr)

    check()


async def run_fuzzed(name: str, args: list[str], data: bytes):
    vfs = MemoryVFS()
    for path, content in FILES.items():
        await vfs.write_bytes(path, content)
    await vfs.write_bytes("/w/in", data)
    runtime = await create_agent_cli(vfs=vfs)
    quoted = " ".join("'" + arg.replace("'", "'\\''") + "'" for arg in args)
    return await runtime.run_detailed(f"cd /w; {name} {quoted} < in")
