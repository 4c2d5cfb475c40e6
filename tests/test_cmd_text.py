"""The text group: echo, wc, head, tail, sort, uniq, cut, tee (tr: test_cmd_tr.py).

Exact outputs, GNU semantics in the C locale, the upstream messages, conformance cases and
a property test that throws random arguments at every command.
"""
from __future__ import annotations

import asyncio

import pytest
from hypothesis import given

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands import create_command_registry
from onetool_wasm.testing.world import populate_vfs

from .helpers import (call, check_no_crash, command_context, conformance_test, fuzz_settings, random_args,
                      random_stdin)

TEXT_COMMANDS = ("echo", "wc", "head", "tail", "sort", "uniq", "cut", "tee", "tr",
                 "xargs", "tac", "rev", "nl", "paste", "comm", "join", "fold", "expand", "unexpand", "column",
                 "md5sum", "sha1sum", "sha256sum", "sha512sum", "awk", "rg")
# cmp is fuzzed in its own test. awk and rg exit 2 on trouble, as gawk and ripgrep do.
EXIT_CODES = {"awk": (0, 1, 2), "rg": (0, 1, 2)}
FILES = {
    "/notes.txt": "one two\nthree\n",
    "/noeol.txt": "1\n2\n3\n4\n5",
    "/dups.txt": "a\na\nb\nB\nb\nc\n",
    "/users.csv": "id,name,age\n3,carol,41\n1,alice,29\n2,bob,35\n",
    "/img.bin": b"\x00\x01\x02\xff",
    "/dir/inner.txt": "inner\n",
}


def make_ctx(files=None):
    return command_context(FILES if files is None else files)


def run(name, *args, stdin=b"", ctx=None):
    return call(name, args, ctx=ctx if ctx is not None else make_ctx(), stdin=stdin)


def out(name, *args, stdin=b""):
    result = run(name, *args, stdin=stdin)
    assert (result.exit_code, result.stderr) == (0, ""), result
    return result.stdout.decode("utf-8")


def error(name, *args, stdin=b""):
    result = run(name, *args, stdin=stdin)
    assert result.exit_code == 1 and result.stdout == b"", result
    return result.stderr


# -- echo ---------------------------------------------------------------------------------------

def test_echo_joins_arguments_and_ends_with_a_newline():
    assert out("echo", "hello", "world") == "hello world\n"
    assert out("echo") == "\n"
    assert out("echo", "-n", "abc") == "abc"
    assert out("echo", "--", "-n") == "-- -n\n"


def test_echo_escapes_as_bash_prints_them():
    assert out("echo", "-e", "a\\tb\\nc") == "a\tb\nc\n"
    assert out("echo", "-e", "stop\\cnever") == "stop"
    assert out("echo", "-E", "a\\nb") == "a\\nb\n"
    assert out("echo", "-ne", "x\\x41\\0101\\101") == "xAA\\101"
    assert run("echo", "-e", "\\xff").stdout == b"\xff\n"  # a raw byte, as bash prints it


# -- wc -----------------------------------------------------------------------------------------

def test_wc_file_columns_are_as_wide_as_the_file_size():
    assert out("wc", "/notes.txt") == " 2  3 14 /notes.txt\n"
    assert out("wc", "-l", "-w", "/notes.txt") == " 2  3 /notes.txt\n"
    assert out("wc", "-l", "/notes.txt") == "2 /notes.txt\n"


def test_wc_stdin_uses_width_seven_unless_one_count():
    assert out("wc", stdin="one two\nthree\n") == "      2       3      14\n"
    assert out("wc", "-l", stdin="a\nb\n") == "2\n"
    assert out("wc", "-cl", stdin="a\nb\n") == "      2       4\n"


def test_wc_several_files_add_a_total():
    assert out("wc", "-l", "/notes.txt", "/noeol.txt") == " 2 /notes.txt\n 4 /noeol.txt\n 6 total\n"


def test_wc_counts_characters_and_binary_bytes():
    # Recorded from GNU wc under LC_ALL=C: a character is a byte.
    assert out("wc", "-m", stdin="h\u00e9llo\n") == "7\n"
    assert out("wc", "-c", stdin="h\u00e9llo\n") == "7\n"
    assert out("wc", "-c", "/img.bin") == "4 /img.bin\n"
    assert out("wc", "-w", stdin="a \x01 b\n") == "2\n"


def test_wc_errors_name_the_command():
    assert error("wc") == "wc: no input provided. Usage: see 'help wc'"
    assert error("wc", "-x", "/notes.txt") == "wc: unknown option: -x. Usage: wc [-l] [-w] [-c] [path]"
    assert error("wc", "/missing") == "wc: file not found: /missing. Use: ls /"


# -- head / tail --------------------------------------------------------------------------------

def test_head_lines_bytes_and_shorthand():
    assert out("head", "-n", "2", "/noeol.txt") == "1\n2\n"
    assert out("head", "-2", "/noeol.txt") == "1\n2\n"
    assert out("head", "-n2", "/noeol.txt") == "1\n2\n"
    assert out("head", "-c", "3", "/noeol.txt") == "1\n2"
    assert out("head", "-n", "9", "/noeol.txt") == "1\n2\n3\n4\n5"
    assert out("head", stdin="".join(f"{i}\n" for i in range(20))) == "".join(f"{i}\n" for i in range(10))


def test_head_negative_counts_drop_the_end():
    assert out("head", "-n", "-2", "/noeol.txt") == "1\n2\n3\n"
    assert out("head", "-c", "-2", "/noeol.txt") == "1\n2\n3\n4"


def test_head_several_files_get_headers():
    assert out("head", "-n", "1", "/notes.txt", "/noeol.txt") == \
        "==> /notes.txt <==\none two\n\n==> /noeol.txt <==\n1\n"
    assert out("head", "-q", "-n", "1", "/notes.txt", "/noeol.txt") == "one two\n1\n"


def test_tail_from_line_n_and_last_n():
    assert out("tail", "-n", "2", "/noeol.txt") == "4\n5"
    assert out("tail", "-n", "+4", "/noeol.txt") == "4\n5"
    assert out("tail", "+4", "/noeol.txt") == "4\n5"
    assert out("tail", "-2", "/noeol.txt") == "4\n5"
    assert out("tail", "-n", "+0", "/noeol.txt") == "1\n2\n3\n4\n5"
    assert out("tail", "-n", "1", stdin="a\nb\n") == "b\n"


def test_tail_bytes():
    assert out("tail", "-c", "3", "/noeol.txt") == "4\n5"
    assert out("tail", "-c", "+7", "/noeol.txt") == "4\n5"
    assert out("tail", "-c", "99", "/noeol.txt") == "1\n2\n3\n4\n5"


def test_head_bytes_of_binary_are_octet_stream():
    result = run("head", "-c", "2", "/img.bin")
    assert (result.stdout, result.content_type) == (b"\x00\x01", "application/octet-stream")


def test_head_and_tail_errors():
    usage = "head [-n N|-c N|-N] [path]"
    assert error("head") == "head: no input provided. Usage: see 'help head'"
    assert error("head", "-n") == f"head: missing value for -n. Usage: {usage}"
    assert error("head", "-n", "x", "/notes.txt") == f"head: invalid integer for -n: x. Usage: {usage}"
    assert error("head", "-z") == f"head: unknown option: -z. Usage: {usage}"
    assert error("tail", "/img.bin") == "tail: binary file (4B): /img.bin. Use: stat /img.bin"
    assert error("tail", "/dir") == "tail: path is a directory: /dir. Use: ls /dir"


# -- sort ---------------------------------------------------------------------------------------

def test_sort_is_byte_order_and_ends_with_a_newline():
    assert out("sort", stdin="b\nB\na\n_\n\u00e9\n") == "B\n_\na\nb\n\u00e9\n"
    assert out("sort", "-r", stdin="a\nc\nb") == "c\nb\na\n"
    assert out("sort", "-u", stdin="b\na\nb\n") == "a\nb\n"


def test_sort_fold_is_uppercase_ascii_as_gnu():
    assert out("sort", "-f", stdin="b\n_\nA\na\n") == "A\na\nb\n_\n"
    assert out("sort", "-fu", stdin="b\nB\na\n") == "a\nb\n"


def test_sort_numeric_treats_text_as_zero_and_ties_by_bytes():
    assert out("sort", "-n", stdin="10\n-2\nabc\n2\n02\n1.5\n") == "-2\nabc\n1.5\n02\n2\n10\n"
    assert out("sort", "-rn", stdin="1\n3\n2\n") == "3\n2\n1\n"
    assert out("sort", "-un", stdin="2\n02\n1\n") == "1\n2\n"


def test_sort_human_general_month_version():
    assert out("sort", "-h", stdin="2M\n1K\n512\n1.5K\n0\n") == "0\n512\n1K\n1.5K\n2M\n"
    assert out("sort", "-g", stdin="1e3\n5\nx\n-1.5\n") == "x\n-1.5\n5\n1e3\n"
    assert out("sort", "-M", stdin="mar\nJan\nxyz\nFeb\n") == "xyz\nJan\nFeb\nmar\n"
    assert out("sort", "-V", stdin="v1.10\nv1.2\nv1.02\n") == "v1.02\nv1.2\nv1.10\n"


def test_sort_keys_and_separators():
    csv = "id,name,age\n3,carol,41\n1,alice,29\n2,bob,35\n"
    assert out("sort", "-t,", "-k3,3n", stdin=csv) == "id,name,age\n1,alice,29\n2,bob,35\n3,carol,41\n"
    assert out("sort", "-t", ",", "-k2,2r", stdin=csv) == "id,name,age\n3,carol,41\n2,bob,35\n1,alice,29\n"
    assert out("sort", "-k2n", stdin="x 10\ny 9\nz 100\n") == "y 9\nx 10\nz 100\n"
    assert out("sort", "-k1.2,1.2", stdin="ab\nba\naa\n") == "aa\nba\nab\n"
    assert out("sort", "--key=2", "--field-separator=:", stdin="a:2\nb:1\n") == "b:1\na:2\n"


def test_sort_keys_count_leading_blanks_unless_b():
    assert out("sort", "-k2", stdin="a  z\nb y\n") == "a  z\nb y\n"
    assert out("sort", "-b", "-k2", stdin="a  z\nb y\n") == "b y\na  z\n"


def test_sort_stable_keeps_input_order_of_equal_keys():
    assert out("sort", "-s", "-k1,1", stdin="b 2\na 2\nb 1\n") == "a 2\nb 2\nb 1\n"
    assert out("sort", "-k1,1", stdin="b 2\na 2\nb 1\n") == "a 2\nb 1\nb 2\n"


def test_sort_concatenates_several_inputs():
    assert out("sort", "/noeol.txt", "/notes.txt") == "1\n2\n3\n4\n5\none two\nthree\n"


def test_sort_check_reports_the_first_disorder():
    result = run("sort", "-c", stdin="a\nc\nb\n")
    assert (result.stdout, result.stderr, result.exit_code) == (b"", "sort: -:3: disorder: b", 1)
    assert run("sort", "-c", stdin="a\nb\n").exit_code == 0
    assert run("sort", "-cu", stdin="a\na\n").stderr == "sort: -:2: disorder: a"
    assert (run("sort", "-C", stdin="b\na\n").exit_code, run("sort", "-C", stdin="b\na\n").stderr) == (1, "")
    assert run("sort", "-c", "/dups.txt").stderr == "sort: /dups.txt:4: disorder: B"


def test_sort_output_file_is_a_write():
    ctx = make_ctx()
    result = run("sort", "-o", "/sorted.txt", "/dups.txt", ctx=ctx)
    assert (result.stdout, result.exit_code) == (b"", 0)
    assert asyncio.run(ctx.vfs.read_bytes("/sorted.txt")) == b"B\na\na\nb\nb\nc\n"
    spec = create_command_registry().get("sort")
    assert (spec.kind_for(["-o", "/x"]), spec.kind_for(["-r"])) == ("write", "read")


def test_sort_errors():
    usage = "sort [-r] [-n] [-u] [-f] [-V] [path]"
    assert error("sort") == "sort: no input provided. Usage: see 'help sort'"
    assert error("sort", "-x", stdin="a") == f"sort: unknown option: -x. Usage: {usage}"
    assert error("sort", "-k0", stdin="a") == \
        f"sort: field number is zero: invalid field specification '0'. Usage: {usage}"
    assert error("sort", "-k1x", stdin="a") == \
        f"sort: stray character in field spec: invalid field specification '1x'. Usage: {usage}"
    assert error("sort", "-t", "ab", stdin="a") == f"sort: multi-character tab 'ab'. Usage: {usage}"
    assert error("sort", "-nV", stdin="a") == f"sort: options '-nV' are incompatible. Usage: {usage}"
    assert error("sort", "/img.bin") == "sort: binary file (4B): /img.bin. Use: stat /img.bin"


# -- uniq ---------------------------------------------------------------------------------------

def test_uniq_collapses_adjacent_lines():
    assert out("uniq", "/dups.txt") == "a\nb\nB\nb\nc\n"
    assert out("uniq", "-c", "/dups.txt") == "      2 a\n      1 b\n      1 B\n      1 b\n      1 c\n"
    assert out("uniq", "-d", "/dups.txt") == "a\n"
    assert out("uniq", "-u", "/dups.txt") == "b\nB\nb\nc\n"
    assert out("uniq", "-D", "/dups.txt") == "a\na\n"
    assert out("uniq", "-ci", "/dups.txt") == "      2 a\n      3 b\n      1 c\n"
    assert out("uniq", "-d", "-u", "/dups.txt") == ""


def test_uniq_skips_fields_and_characters():
    assert out("uniq", "-f", "1", stdin="1 a\n2 a\n3 b\n") == "1 a\n3 b\n"
    assert out("uniq", "-s", "2", stdin="xxa\nyya\n") == "xxa\n"
    assert out("uniq", "-w", "1", stdin="ab\nac\nb\n") == "ab\nb\n"


def test_uniq_errors():
    assert error("uniq", "/dups.txt", "/notes.txt") == "uniq: usage: uniq [-c] [-d] [-i] [-u] [path]"
    assert error("uniq", "-q", "/dups.txt") == "uniq: unknown option: -q. Usage: uniq [-c] [-d] [-i] [-u] [path]"


# -- cut ----------------------------------------------------------------------------------------

def test_cut_fields():
    assert out("cut", "-d,", "-f2", "/users.csv") == "name\ncarol\nalice\nbob\n"
    assert out("cut", "-d", ",", "-f", "3,1", "/users.csv") == "id,age\n3,41\n1,29\n2,35\n"
    assert out("cut", "-d,", "-f2-", "/users.csv") == "name,age\ncarol,41\nalice,29\nbob,35\n"
    assert out("cut", "-d,", "--complement", "-f1", "/users.csv") == "name,age\ncarol,41\nalice,29\nbob,35\n"
    assert out("cut", "-d,", "-f1,3", "--output-delimiter= | ", stdin="a,b,c\n") == "a | c\n"


def test_cut_lines_without_the_delimiter():
    assert out("cut", "-f2", stdin="a\tb\nplain\n") == "b\nplain\n"
    assert out("cut", "-s", "-f2", stdin="a\tb\nplain\n") == "b\n"


def test_cut_characters_and_bytes():
    assert out("cut", "-c", "2-3", stdin="h\u00e9llo\n") == "\u00e9l\n"
    assert out("cut", "-b", "1-3", stdin="abcdef") == "abc\n"
    assert out("cut", "-c", "-2,5-", stdin="abcdef\n") == "abef\n"
    assert out("cut", "-c", "2,4", "--output-delimiter=:", stdin="abcdef\n") == "b:d\n"


def test_cut_list_errors_are_gnu_messages():
    usage = "cut -b LIST|-c LIST|-f LIST [-d DELIM] [-s] [--complement] [path ...]"
    assert error("cut", "-f", "0", stdin="a") == f"cut: fields are numbered from 1. Usage: {usage}"
    assert error("cut", "-f", "3-1", stdin="a") == f"cut: invalid decreasing range. Usage: {usage}"
    assert error("cut", "-f", "x", stdin="a") == f"cut: invalid field value 'x'. Usage: {usage}"
    assert error("cut", "-c", "-", stdin="a") == f"cut: invalid range with no endpoint: -. Usage: {usage}"
    assert error("cut", "-d", "ab", "-f1", stdin="a") == \
        f"cut: the delimiter must be a single character. Usage: {usage}"
    assert error("cut", "-s", stdin="a") == \
        f"cut: you must specify a list of bytes, characters, or fields. Usage: {usage}"
    assert error("cut", "-c1", "-f1", stdin="a") == f"cut: only one list may be specified. Usage: {usage}"
    assert error("cut") == f"cut: usage: {usage}"


# -- tee ----------------------------------------------------------------------------------------

def test_tee_writes_each_file_and_passes_input_through():
    ctx = make_ctx()
    result = run("tee", "/a.txt", "/deep/b.txt", stdin="hello\n", ctx=ctx)
    assert (result.stdout, result.exit_code) == (b"hello\n", 0)
    assert asyncio.run(ctx.vfs.read_bytes("/a.txt")) == b"hello\n"
    assert asyncio.run(ctx.vfs.read_bytes("/deep/b.txt")) == b"hello\n"


def test_tee_append():
    ctx = make_ctx()
    run("tee", "-a", "/notes.txt", stdin="four\n", ctx=ctx)
    assert asyncio.run(ctx.vfs.read_bytes("/notes.txt")) == b"one two\nthree\nfour\n"


def test_tee_errors_and_kind():
    assert error("tee", "/dir", stdin="x") == "tee: path is a directory: /dir. Use: ls /dir"
    assert create_command_registry().get("tee").kind == "write"
    assert "tee" not in create_command_registry(preset="readOnly").names()


# -- through the runtime: the deliberate differences from upstream (docs/DIFFERENCES.md) ------------------

def run_line(line, files=FILES):
    async def go():
        vfs = MemoryVFS()
        await populate_vfs(vfs, files)
        return await (await create_agent_cli(vfs=vfs)).run_detailed(line)
    return asyncio.run(go())


def test_pipeline_counts_every_line_because_outputs_end_with_a_newline():
    assert run_line("sort /dups.txt | uniq | wc -l").stdout == b"4\n"
    assert run_line("cut -d, -f1 /users.csv | tail -n +2 | sort -n | head -n 1").stdout == b"1\n"


def test_tail_plus_n_starts_at_line_n():
    assert run_line("tail -n +3 /noeol.txt").stdout == b"3\n4\n5"


def test_tr_nul_output_is_held_back_as_binary():
    execution = run_line("echo abc | tr a '\\000'")
    assert (execution.stdout, execution.content_type) == (b"\x00bc\n", "application/octet-stream")
    assert execution.presentation.stdout_mode == "binary-guard"


# -- metadata, conformance, properties -------------------------------------------------------------

def test_every_text_command_is_in_the_text_group():
    registry = create_command_registry()
    for name in TEXT_COMMANDS:
        spec = registry.get(name)
        assert spec.group == "text" and isinstance(spec.accepts_stdin, bool), name
        assert "Examples:" in spec.details
    assert set(TEXT_COMMANDS) <= set(create_command_registry(preset="textOnly").names())


test_conformance = conformance_test(*TEXT_COMMANDS)


FLAGS = {
    "echo": ["-n", "-e", "-E", "-neE", "\\c", "\\x4", "\\0777", "\\u00e9", "--"],
    "wc": ["-l", "-w", "-c", "-m", "-lwc", "--lines", "--chars", "-"],
    "head": ["-n", "-c", "-q", "-v", "-5", "-n-2", "+3", "-c+1", "1K", "-n1b", "--lines=2", "--"],
    "tail": ["-n", "-c", "-q", "-v", "-5", "+3", "-n+2", "-c-1", "1K", "--bytes=2", "--"],
    "sort": ["-r", "-n", "-u", "-f", "-V", "-h", "-g", "-M", "-b", "-d", "-i", "-s", "-c", "-C", "-R",
             "-k", "-k2", "-k2,2n", "-k1.2b,3.0r", "-k0", "-k1,", "-t", "-t,", "-t\\0", "-o", "-S", "1M",
             "--key=2", "--check", "--nope", "-"],
    "uniq": ["-c", "-d", "-D", "-i", "-u", "-f", "-s", "-w", "-cD", "--count", "-"],
    "cut": ["-d", "-f", "-c", "-b", "-s", "-n", "-d,", "-f1,3", "-f2-", "-c-2", "-b3-1", "--complement",
            "--output-delimiter=|", "--fields=1", "-"],
    "tee": ["-a", "-i", "-p", "--append", "/out.txt", "/dir", "/notes.txt/x"],
    "tr": ["-c", "-C", "-d", "-s", "-t", "-cds", "a-z", "z-a", "[:alpha:]", "[:bogus:]", "[x*]", "[x*3]",
           "[=a=]", "\\", "\\400", "\\n", "--"],
    "xargs": ["-n", "-n1", "-L", "-I", "{}", "-0", "-d", "-r", "-t", "echo", "--"],
    "tac": ["-b", "-s", "-s,", "-r", "--separator=x", "-"],
    "rev": ["-", "--"],
    "nl": ["-b", "a", "t", "n", "-n", "ln", "rz", "-w", "-s", "-v", "-i", "-l", "-d", "-p", "-ba", "--"],
    "paste": ["-s", "-d", "-d,", "-d\\", "-d\\n", "-z", "-"],
    "comm": ["-1", "-2", "-3", "-12", "--total", "--check-order", "--output-delimiter=:", "-z", "-"],
    "join": ["-1", "-2", "-j", "-a", "-v", "-e", "-o", "auto", "0,1.2", "-t", "-t,", "-i", "--header", "-"],
    "fold": ["-w", "-s", "-b", "-w3", "-5", "--width=2", "-"],
    "expand": ["-t", "-i", "-t2,5", "-t/4", "-t+3", "-3", "--tabs=2", "-"],
    "unexpand": ["-t", "-a", "--first-only", "-t2,5", "-t/4", "-3", "-"],
    "column": ["-t", "-s", "-s,", "-o", "-x", "-"],
    "md5sum": ["-c", "--tag", "-z", "--quiet", "--strict", "-b", "-"],
    "sha1sum": ["-c", "--tag", "-z", "--quiet", "-"],
    "sha256sum": ["-c", "--tag", "-z", "-w", "-"],
    "sha512sum": ["-c", "--tag", "--ignore-missing", "-"],
    "awk": ["-F", "-F,", "-v", "x=1", "-f", "--", "{print $1}", "NR==1", "END{print NR}", '{print > "/o"}'],
    "rg": ["-n", "-i", "-w", "-v", "-c", "-l", "-o", "-F", "-e", "-g", "*.txt", "-t", "py", "--files",
           "--hidden", "-uu", "--json", "-r", "x", "-C1", "--sort", "path", "--"],
}
PATHS = ["/notes.txt", "/noeol.txt", "/img.bin", "/dir", "/missing", "/notes.txt/x", "-", "/", ".."]
@pytest.mark.parametrize("name", TEXT_COMMANDS)
def test_random_arguments_never_crash(name):
    @fuzz_settings(60)
    @given(args=random_args(FLAGS[name], PATHS, numbers=(-3, 12)), stdin=random_stdin(24))
    def check(args, stdin):
        ctx = make_ctx()
        if ctx.registry.get(name).accepts_stdin is False:
            stdin = b""
        result = run(name, *args, stdin=stdin, ctx=ctx)  # an exception is the bug hunted
        check_no_crash(result, args, f"{name}: ", EXIT_CODES.get(name, (0, 1)))
        if result.exit_code and not result.stderr:
            # sort -C answers by status alone; rg's 1 is "no match", silent as in ripgrep.
            assert (name == "sort" and "-C" in args) or (name == "rg" and result.exit_code == 1), (args, result)

    check()
