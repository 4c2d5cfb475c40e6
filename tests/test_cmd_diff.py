"""diff: GNU output formats, directory comparison, options, exit codes and errors.

Expected texts were checked against GNU diffutils 3.8 (LC_ALL=C); time stamps come from a
clock that ticks like the upstream recorder's (1700000000001, +1 a call) and are printed in
the zone set on the context (`ctx.timezone`), UTC here unless a test says otherwise.
"""
from __future__ import annotations

import asyncio
import re
from datetime import timedelta, timezone

import pytest
from hypothesis import given

from onetool_wasm.commands import invoke_command
from onetool_wasm.commands.fs.diff import DIFF
from onetool_wasm.diff.algorithm import Change, edit_script
from onetool_wasm.diff.format import context_time, quote_name, unified_time
from onetool_wasm.commands.registry import CommandRegistry
from onetool_wasm.testing import create_test_command_context
from onetool_wasm.vfs import MemoryVFS

from .helpers import check_no_crash, conformance_cases, counter_clock, fuzz_settings, random_args, random_stdin

USAGE = "diff [-u|-U N|-c|-C N] [-r] [-a] [-b] [-i] <left> <right>"
TEN = "".join(f"{word}\n" for word in "one two three four five six seven eight nine ten".split())
TEN_CHANGED = TEN.replace("two", "TWO") + "eleven\n"


def run_diff(args, files=None, stdin=b"", zone=timezone.utc, limit=None):
    """Run diff over a fresh MemoryVFS holding `files` (None as a value makes a directory)."""
    async def go():
        vfs = MemoryVFS(now_ms=counter_clock())
        for path, content in (files or {}).items():
            if content is None:
                await vfs.mkdir(path)
            else:
                await vfs.write_bytes(path, content if isinstance(content, bytes) else content.encode())
        ctx = create_test_command_context(vfs=vfs, registry=CommandRegistry([DIFF]), max_materialized_bytes=limit)
        ctx.timezone = zone
        return await invoke_command(DIFF, ctx, list(args), stdin)
    return asyncio.run(go())


def out(result) -> str:
    return result.stdout.decode("utf-8")


# -- normal format ---------------------------------------------------------------------------

def test_identical_files_exit_zero_silently():
    result = run_diff(["/a", "/b"], {"/a": TEN, "/b": TEN})
    assert (out(result), result.stderr, result.exit_code) == ("", "", 0)


def test_normal_change_and_append():
    result = run_diff(["/a", "/b"], {"/a": TEN, "/b": TEN_CHANGED})
    assert out(result) == "2c2\n< two\n---\n> TWO\n10a11\n> eleven\n"
    assert (result.exit_code, result.content_type) == (1, "text/plain")


def test_normal_delete_and_ranges():
    result = run_diff(["/a", "/b"], {"/a": "a\nb\nc\nd\ne\n", "/b": "a\ne\n"})
    assert out(result) == "2,4d1\n< b\n< c\n< d\n"
    result = run_diff(["/a", "/b"], {"/a": "", "/b": "a\nb\nc\n"})
    assert out(result) == "0a1,3\n> a\n> b\n> c\n"
    result = run_diff(["/a", "/b"], {"/a": "x\ny\nz\n", "/b": "x\n1\n2\nz\n"})
    assert out(result) == "2c2,3\n< y\n---\n> 1\n> 2\n"


def test_no_newline_at_end_of_file_markers():
    result = run_diff(["/a", "/b"], {"/a": "a\n", "/b": "a"})
    assert out(result) == "1c1\n< a\n---\n> a\n\\ No newline at end of file\n"
    result = run_diff(["-b", "/a", "/b"], {"/a": "a\nb\n", "/b": "a  \nc"})
    assert out(result) == "2c2\n< b\n---\n> c\n\\ No newline at end of file\n"
    result = run_diff(["-u", "/a", "/b"], {"/a": "a\nb\nc", "/b": "a\nB\nc"})
    assert out(result).split("\n", 2)[2] == "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n\\ No newline at end of file\n"


def test_gnu_choice_among_equal_scripts():
    # The common prefix is trimmed first, so the inserted duplicate goes at the end (GNU).
    assert out(run_diff(["/a", "/b"], {"/a": "x\na\n", "/b": "x\na\na\n"})) == "2a3\n> a\n"
    # Runs of changes slide down as far as the lines allow.
    assert out(run_diff(["/a", "/b"], {"/a": "a\nb\na\nb\n", "/b": "a\nb\n"})) == "3,4d2\n< a\n< b\n"


def test_edit_script_api():
    assert edit_script([b"a", b"b"], [b"a", b"c"], [b"a", b"b"], [b"a", b"c"]) == [Change(1, 1, 1, 1)]
    assert edit_script([], [b"x"], [], [b"x"]) == [Change(0, 0, 0, 1)]
    assert edit_script([b"x"], [b"x"], [b"x"], [b"x"]) == []


# -- unified and context formats -------------------------------------------------------------

def test_unified_matches_the_recorded_upstream_output():
    files = {"/left.txt": "alpha\nbravo\n", "/right.txt": "alpha\ncharlie\n"}
    result = run_diff(["-u", "/left.txt", "/right.txt"], files, zone=timezone(timedelta(hours=3)))
    assert out(result) == ("--- /left.txt\t2023-11-15 01:13:20.002 +0300\n"
                           "+++ /right.txt\t2023-11-15 01:13:20.003 +0300\n"
                           "@@ -1,2 +1,2 @@\n alpha\n-bravo\n+charlie\n")
    assert result.exit_code == 1


def test_unified_hunks_and_context_sizes():
    files = {"/a": TEN, "/b": TEN_CHANGED}
    assert out(run_diff(["-u", "/a", "/b"], files)) == (
        "--- /a\t2023-11-14 22:13:20.002 +0000\n+++ /b\t2023-11-14 22:13:20.003 +0000\n"
        "@@ -1,5 +1,5 @@\n one\n-two\n+TWO\n three\n four\n five\n"
        "@@ -8,3 +8,4 @@\n eight\n nine\n ten\n+eleven\n")
    assert out(run_diff(["-U1", "/a", "/b"], files)).split("\n", 2)[2] == (
        "@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n@@ -10 +10,2 @@\n ten\n+eleven\n")
    assert out(run_diff(["-U", "0", "/a", "/b"], files)).split("\n", 2)[2] == (
        "@@ -2 +2 @@\n-two\n+TWO\n@@ -10,0 +11 @@\n+eleven\n")
    assert out(run_diff(["--unified=9", "/a", "/b"], files)).split("\n", 2)[2].startswith("@@ -1,10 +1,11 @@\n")


def test_unified_empty_file():
    result = run_diff(["-u", "/a", "/b"], {"/a": "", "/b": "a\nb\n"})
    assert out(result).split("\n", 2)[2] == "@@ -0,0 +1,2 @@\n+a\n+b\n"


def test_context_format():
    files = {"/a": TEN, "/b": TEN_CHANGED}
    assert out(run_diff(["-c", "/a", "/b"], files)) == (
        "*** /a\tTue Nov 14 22:13:20 2023\n--- /b\tTue Nov 14 22:13:20 2023\n"
        "***************\n*** 1,5 ****\n  one\n! two\n  three\n  four\n  five\n"
        "--- 1,5 ----\n  one\n! TWO\n  three\n  four\n  five\n"
        "***************\n*** 8,10 ****\n--- 8,11 ----\n  eight\n  nine\n  ten\n+ eleven\n")
    assert out(run_diff(["-C", "1", "/a", "/b"], files)).split("\n", 2)[2] == (
        "***************\n*** 1,3 ****\n  one\n! two\n  three\n--- 1,3 ----\n  one\n! TWO\n  three\n"
        "***************\n*** 10 ****\n--- 10,11 ----\n  ten\n+ eleven\n")


def test_context_deletion_and_empty_ranges():
    result = run_diff(["-c", "/a", "/b"], {"/a": "a\nb\nc\n", "/b": ""})
    assert out(result).split("\n", 2)[2] == "***************\n*** 1,3 ****\n- a\n- b\n- c\n--- 0 ----\n"
    result = run_diff(["-C0", "/a", "/b"], {"/a": "a\nb\nc", "/b": "a\nb\nc\n"})
    assert out(result).split("\n", 2)[2] == (
        "***************\n*** 3 ****\n! c\n\\ No newline at end of file\n--- 3 ----\n! c\n")


def test_header_time_formats():
    ms = 1709611506500  # 2024-03-05 04:05:06.500 UTC
    assert unified_time(ms, timezone.utc) == "2024-03-05 04:05:06.500 +0000"
    assert unified_time(ms, timezone(-timedelta(hours=3, minutes=30))) == "2024-03-05 00:35:06.500 -0330"
    assert context_time(ms, timezone.utc) == "Tue Mar  5 04:05:06 2024"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.500 [+-]\d{4}", unified_time(ms, None))


def test_header_names_are_quoted_like_gnu():
    assert quote_name("/a/b.txt") == "/a/b.txt"
    assert quote_name("/x=y/it's") == "/x=y/it's"
    assert quote_name("/a b") == '"/a b"'
    assert quote_name('/q"z\\t\tab') == '"/q\\"z\\\\t\\tab"'
    assert quote_name("/é") == '"/\\303\\251"'
    result = run_diff(["-u", "/my notes.txt", "/b"], {"/my notes.txt": "a\n", "/b": "b\n"})
    assert out(result).startswith('--- "/my notes.txt"\t')


# -- whitespace, case, binary ----------------------------------------------------------------

def test_ignore_space_change():
    files = {"/a": "a  b\nx\n  lead\ntrail \t\nend\n", "/b": "a b\nx\n lead\ntrail\nEND\n"}
    assert out(run_diff(["-b", "/a", "/b"], files)) == "5c5\n< end\n---\n> END\n"
    # White space against none is still a change; a missing final newline is ignored.
    assert out(run_diff(["-b", "/a", "/b"], {"/a": "ab\n", "/b": "a b\n"})) == "1c1\n< ab\n---\n> a b\n"
    assert run_diff(["-b", "/a", "/b"], {"/a": "a\n", "/b": "a"}).exit_code == 0
    assert run_diff(["--ignore-space-change", "/a", "/b"], {"/a": "a\r\n", "/b": "a\n"}).exit_code == 0


def test_ignore_case_is_ascii_only():
    assert run_diff(["-i", "/a", "/b"], {"/a": "Hello World\n", "/b": "hello WORLD\n"}).exit_code == 0
    result = run_diff(["-i", "/left.txt", "/right.txt"], {"/left.txt": "É\n", "/right.txt": "é\n"})
    assert (out(result), result.exit_code) == ("1c1\n< É\n---\n> é\n", 1)
    assert run_diff(["-bi", "/a", "/b"], {"/a": "A  B\n", "/b": "a b\n"}).exit_code == 0


def test_binary_files_and_text_flag():
    files = {"/a.bin": b"a\x00b\n", "/b.bin": b"a\x00c\n"}
    result = run_diff(["/a.bin", "/b.bin"], files)
    assert (out(result), result.exit_code) == ("Binary files /a.bin and /b.bin differ\n", 1)
    result = run_diff(["-a", "/a.bin", "/b.bin"], files)
    assert (result.stdout, result.exit_code) == (b"1c1\n< a\x00b\n---\n> a\x00c\n", 1)
    assert run_diff(["/a.bin", "/c.bin"], {**files, "/c.bin": b"a\x00b\n"}).exit_code == 0


def test_non_utf8_text_is_diffed_as_bytes():
    result = run_diff(["/a", "/b"], {"/a": b"caf\xe9\n", "/b": b"cafe\n"})
    assert (result.stdout, result.exit_code, result.content_type) == (
        b"1c1\n< caf\xe9\n---\n> cafe\n", 1, "application/octet-stream")


# -- directories -----------------------------------------------------------------------------

TREE = {"/L/f": "1\n", "/R/f": "2\n", "/L/s": "same\n", "/R/s": "same\n", "/L/sub/a": "x\n", "/R/sub/a": "y\n",
        "/L/only": None, "/R/d2": None, "/L/d2": "q\n"}


def test_directories_without_recursion():
    result = run_diff(["/L", "/R"], TREE)
    assert out(result) == ("File /L/d2 is a regular file while file /R/d2 is a directory\n"
                           "diff /L/f /R/f\n1c1\n< 1\n---\n> 2\n"
                           "Only in /L: only\n"
                           "Common subdirectories: /L/sub and /R/sub\n")
    assert result.exit_code == 1


def test_common_subdirectories_alone_are_not_a_difference():
    result = run_diff(["/A", "/B/"], {"/A/s/x": "1\n", "/B/s/x": "2\n", "/A/f": "same\n", "/B/f": "same\n"})
    assert (out(result), result.exit_code) == ("Common subdirectories: /A/s and /B/s\n", 0)


def test_recursive_directories_with_switches_in_headers():
    result = run_diff(["-r", "/L", "/R"], TREE)
    assert out(result) == ("File /L/d2 is a regular file while file /R/d2 is a directory\n"
                           "diff -r /L/f /R/f\n1c1\n< 1\n---\n> 2\n"
                           "Only in /L: only\n"
                           "diff -r /L/sub/a /R/sub/a\n1c1\n< x\n---\n> y\n")
    lines = out(run_diff(["/L", "/R", "-ru"], TREE)).split("\n")
    assert lines[1:3] == ["diff -ru /L/f /R/f", "--- /L/f\t2023-11-14 22:13:20.003 +0000"]
    assert out(run_diff(["-r", "--unified=1", "/L", "/R"], TREE)).split("\n")[1] == \
        "diff -r '--unified=1' /L/f /R/f"


def test_recursive_binary_and_quoted_names():
    files = {"/G/a b": "1\n", "/H/a b": "2\n", "/G/bin": b"\x00", "/H/bin": b"\x00\x01"}
    assert out(run_diff(["-r", "/G", "/H"], files)) == (
        'diff -r "/G/a b" "/H/a b"\n1c1\n< 1\n---\n> 2\nBinary files /G/bin and /H/bin differ\n')


def test_file_against_directory_uses_the_same_name_inside():
    files = {"/a.txt": "x\n", "/dir/a.txt": "y\n", "/k/c1": "1\n", "/k2/c1": None}
    assert out(run_diff(["/a.txt", "/dir"], files)) == "1c1\n< x\n---\n> y\n"
    assert out(run_diff(["/dir", "/a.txt"], files)) == "1c1\n< y\n---\n> x\n"
    result = run_diff(["/k/c1", "/k2"], files)
    assert (out(result), result.exit_code) == ("File /k/c1 is a regular file while file /k2/c1 is a directory\n", 1)
    result = run_diff(["/a.txt", "/k"], files)
    assert (result.stderr, result.exit_code) == ("diff: /k/a.txt: No such file or directory. Use: ls /k", 2)


def test_same_path_is_identical():
    assert run_diff(["/", "/"]).exit_code == 0
    assert run_diff(["/a", "/x/../a"], {"/a": "1\n"}).exit_code == 0


# -- stdin -----------------------------------------------------------------------------------

def test_stdin_operand():
    result = run_diff(["-", "/b"], {"/b": "a\nc\n"}, stdin=b"a\nb\n")
    assert (out(result), result.exit_code) == ("2c2\n< b\n---\n> c\n", 1)
    assert run_diff(["-", "-"], stdin=b"x\n").exit_code == 0
    result = run_diff(["-u", "/b", "-"], {"/b": "a\n"}, stdin=b"b\n")
    assert out(result).split("\n")[1].startswith("+++ -\t")
    result = run_diff(["-", "/d"], {"/d": None}, stdin=b"x\n")
    assert (result.stderr, result.exit_code) == ("diff: cannot compare '-' to a directory. Use a file inside /d", 2)


# -- errors and exit codes -------------------------------------------------------------------

@pytest.mark.parametrize("args, stderr", [
    (["/a"], f"diff: usage: {USAGE}"),
    (["-u", "/a"], f"diff: usage: {USAGE}"),
    (["/a", "/b", "/c"], f"diff: usage: {USAGE}"),
    (["-C", "nope", "/a", "/b"], "diff: invalid context line count: nope"),
    (["-U-1", "/a", "/b"], "diff: invalid context line count: -1"),
    (["--context=x", "/a", "/b"], "diff: invalid context line count: x"),
    (["-q", "/a", "/b"], f"diff: unknown option: -q. Usage: {USAGE}"),
    (["--brief", "/a", "/b"], f"diff: unknown option: --brief. Usage: {USAGE}"),
    (["/a", "/b", "-U"], f"diff: missing value for -U. Usage: {USAGE}"),
    (["--text=1", "/a", "/b"], f"diff: option '--text' doesn't allow an argument. Usage: {USAGE}"),
    (["-u", "-c", "/a", "/b"], "diff: conflicting output style options: use one of -u, -U N, -c, -C N. "
                               f"Usage: {USAGE}"),
    (["/missing", "/a"], "diff: /missing: No such file or directory. Use: ls /"),
    (["/a", "/no/such"], "diff: /no/such: No such file or directory. Use: ls /no"),
])
def test_trouble_exits_two(args, stderr):
    result = run_diff(args, {"/a": "1\n", "/b": "2\n"})
    assert (result.stdout, result.stderr, result.exit_code) == (b"", stderr, 2)


def test_option_forms():
    files = {"/a": TEN, "/b": TEN_CHANGED}
    unified = out(run_diff(["-u", "/a", "/b"], files))
    for args in (["--unified", "/a", "/b"], ["--uni", "/a", "/b"], ["/a", "/b", "-u"], ["-U1", "-u", "/a", "/b"],
                 ["-u", "-U", "1", "/a", "/b"], ["-U", "3", "--", "/a", "/b"]):
        assert out(run_diff(args, files)) == unified, args
    # After `--`, `-a` is a file name, not the --text flag.
    assert out(run_diff(["--", "-a", "/b"], {"/-a": "1\n", "/b": "2\n"})) == "1c1\n< 1\n---\n> 2\n"


def test_materialized_limit_is_trouble():
    result = run_diff(["/a", "/b"], {"/a": "x" * 50, "/b": "y\n"}, limit=10)
    assert result.exit_code == 2
    assert result.stderr.startswith("diff: input exceeds max materialized size")


def test_recursive_trouble_keeps_going():
    files = {"/L/a": "x" * 50, "/R/a": "y" * 50, "/L/b": "1\n", "/R/b": "2\n"}
    result = run_diff(["-r", "/L", "/R"], files, limit=10)
    assert result.exit_code == 2
    assert result.stderr.startswith("diff: input exceeds max materialized size")
    assert out(result) == "diff -r /L/b /R/b\n1c1\n< 1\n---\n> 2\n"


# -- metadata, conformance, properties -------------------------------------------------------

def test_spec_metadata_and_help_text():
    assert DIFF.help_text() == (
        "diff: Compare files or directories with normal, unified, or context output.\n"
        f"Usage: {USAGE}\n\nExamples:\n  diff /drafts/a.txt /reports/a.txt\n"
        "  diff -u /drafts/a.txt /reports/a.txt\n  diff -r /left /right")
    assert (DIFF.group, DIFF.accepts_stdin, DIFF.min_args, DIFF.max_args, DIFF.usage_exit_code) == \
        ("fs", True, 2, None, 2)
    assert DIFF.kind_for(["/a", "/b"]) == "read"


def test_conformance_cases_pass():
    cases = conformance_cases("diff")
    assert len(cases) >= 4
    for case in cases:
        asyncio.run(case.run())


PROPERTY_FILES = {"/a.txt": "alpha\nbeta\n", "/b.txt": "alpha\ngamma", "/d/x": "1\n", "/e/x": "2\n",
                  "/e/y": None, "/bin": b"\x00\x01", "/empty": ""}
FLAG_WORDS = ["-u", "-c", "-U", "-C", "-U1", "-C0", "-r", "-a", "-b", "-i", "-ru", "-rUx", "--", "-",
              "--unified", "--unified=2", "--context=", "--rec", "--text", "--ignore-case", "--x", "-q"]
PATH_WORDS = ["/a.txt", "/b.txt", "/d", "/e", "/e/y", "/bin", "/empty", "/missing", "/", "..", "d/x"]


@fuzz_settings(150)
@given(random_args(FLAG_WORDS, PATH_WORDS), random_stdin(10))
def test_random_arguments_never_crash(args, stdin):
    result = run_diff(args, PROPERTY_FILES, stdin=stdin)
    check_no_crash(result, args, "diff: ", (0, 1, 2))
    if result.exit_code == 2:
        assert result.stderr.strip(), (args, result)
