"""mktemp, du and ln: the recorded GNU cases (tests/data/date_fs_more_corpus.json, recorded by
tools/record_date_fs_more.py) replayed through the runtime; rmdir, unlink and truncate: theirs
(tests/data/fs_more_corpus.json, tools/record_fs_more.py) with exact stdout, stderr and status;
exact checks, and property tests: random arguments never crash them."""
from __future__ import annotations

import asyncio
import base64
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands import create_command_registry
from onetool_wasm.commands.fs.du import _human, block_units, excluded
from onetool_wasm.commands.fs.rmdir import quoteaf
from onetool_wasm.commands.fs.truncate import parse_number
from onetool_wasm.commands.fs_glob import compile_glob

from .helpers import call, command_context, fuzz_settings, read
from .test_cmd_date import check_case, corpus_cases, params

COMMANDS = {"mktemp", "du", "ln"}

# Cases where we knowingly differ from GNU (strict xfail; listed in docs/DIFFERENCES.md).
KNOWN_DIFFERENCES: dict[str, str] = {
    "ln-s-creates": "the VFS has no links: ln refuses, and says to copy instead",
    "ln-hard-creates": "the VFS has no links: ln refuses, and says to copy instead",
    "ln-sf-creates": "the VFS has no links: ln refuses, and says to copy instead",
}


@pytest.mark.parametrize("case", params(COMMANDS, KNOWN_DIFFERENCES))
def test_recorded_gnu_case(case):
    check_case(case)


def test_every_command_has_enough_recorded_cases():
    counts = Counter(case["command"] for case in corpus_cases(COMMANDS))
    assert counts["mktemp"] >= 30 and counts["du"] >= 50 and counts["ln"] >= 15


@pytest.mark.parametrize("name,kind", [("mktemp", "write"), ("du", "read"), ("ln", "write")])
def test_registered_in_fs_with_examples(name, kind):
    spec = create_command_registry().get(name)
    assert spec.group == "fs" and "\nExamples:\n  " in spec.details
    assert spec.kind_for([]) == kind


def run_line(line: str, files: dict[str, bytes] | None = None, vfs=None, **options):
    async def go():
        target = vfs if vfs is not None else MemoryVFS()
        for path, data in (files or {}).items():
            await target.write_bytes(path, data)
        runtime = await create_agent_cli(vfs=target, **options)
        return await runtime.run_detailed(line), target
    return asyncio.run(go())


# -- mktemp -------------------------------------------------------------------------------------

def test_mktemp_makes_tmp_when_the_default_directory_is_missing():
    result, vfs = run_line("f=$(mktemp); echo ${f%.*}; ls -A /tmp | wc -l")
    assert result.stdout == b"/tmp/tmp\n1\n"


def test_mktemp_explicit_directory_must_exist():
    result, vfs = run_line("mktemp -p /nowhere; echo $?")
    assert result.stdout == b"1\n"
    assert result.stderr == "mktemp: failed to create file via template '/nowhere/tmp.XXXXXXXXXX': No such file or directory"
    assert not asyncio.run(vfs.exists("/nowhere"))


def test_mktemp_files_are_private_where_modes_are_kept():
    result, vfs = run_line("f=$(mktemp -p /w); d=$(mktemp -d -p /w); stat -c '%a %F' \"$f\" \"$d\"",
                           files={"/w/keep": b""})
    assert result.stdout == b"600 regular empty file\n700 directory\n", result.stderr


def test_mktemp_names_use_letters_and_digits():
    names = {call("mktemp", ["-u", "XXXXXXXXXXXX"]).stdout for _ in range(20)}
    assert len(names) == 20
    assert all(name.strip().isalnum() and len(name) == 13 for name in names)


def test_mktemp_dry_run_reads_and_creating_writes():
    spec = create_command_registry().get("mktemp")
    assert spec.kind_for(["-u"]) == "read" and spec.kind_for(["-d", "-p", "/w"]) == "write"
    assert spec.kind_for(["--bogus"]) == "read"


def test_read_only_preset_refuses_mktemp_but_not_its_dry_run():
    result, vfs = run_line("mktemp -u XXX | wc -c; mktemp; echo $?; timeout 5 mktemp -d; echo $?",
                           builtin_commands={"preset": "readOnly"})
    assert result.stdout == b"4\n1\n1\n"
    assert result.stderr == ("mktemp: refused: this runtime is read-only (preset readOnly)\n"
                             "timeout: refused: this runtime is read-only (preset readOnly)")
    assert not asyncio.run(vfs.exists("/tmp"))


def test_mktemp_retries_a_taken_name(monkeypatch):
    import onetool_wasm.commands.fs.mktemp as module
    letters = iter("aaabbb")
    monkeypatch.setattr(module, "_letter", lambda: next(letters))
    result = call("mktemp", ["/w/XXX"], ctx=command_context({"/w/aaa": "taken"}))
    assert result.stdout == b"/w/bbb\n"


# -- du -----------------------------------------------------------------------------------------

def test_du_children_in_name_order_after_their_contents():
    files = {"/w/b/f": b"x" * 2000, "/w/a/g": b"y", "/w/c.txt": b"z" * 10}
    result, _ = run_line("du -a /w", files)
    assert result.stdout == b"1\t/w/a/g\n5\t/w/a\n2\t/w/b/f\n6\t/w/b\n1\t/w/c.txt\n14\t/w\n"


@pytest.mark.parametrize("size,base,expected", [
    (0, 1024, "0"), (1023, 1024, "1023"), (1024, 1024, "1.0K"), (1025, 1024, "1.1K"), (10239, 1024, "10K"),
    (1048575, 1024, "1.0M"), (1572864, 1024, "1.5M"), (999, 1000, "999"), (1000, 1000, "1.0k"), (22000, 1000, "22k"),
])
def test_du_human_sizes(size, base, expected):
    assert _human(size, base) == expected


@pytest.mark.parametrize("text,block,suffix", [("1", 1, ""), ("K", 1024, "K"), ("1K", 1024, ""), ("KB", 1000, "kB"),
                                               ("MiB", 1 << 20, "MiB"), ("2M", 2 << 20, ""), ("512", 512, "")])
def test_du_block_sizes(text, block, suffix):
    units = block_units(text)
    assert (units.block, units.suffix) == (block, suffix)


def test_du_exclude_matches_the_path_or_any_tail():
    patterns = [compile_glob("deep"), compile_glob("*.log")]
    assert excluded("./d2/deep", patterns) and excluded("logs/a.log", patterns)
    assert not excluded("./deeper", patterns) and not excluded(".", [compile_glob("w")])


def test_du_counts_a_directory_as_4096_bytes():
    result, _ = run_line("mkdir -p /e/f; du -b /e; du -sh /e", {})
    assert result.stdout == b"4096\t/e/f\n8192\t/e\n8.0K\t/e\n"


def test_du_stops_when_the_run_is_cancelled():
    ctx = command_context({"/w/a/b": "x"})
    ctx.cancelled = lambda: True
    result = call("du", ["/w"], ctx=ctx)
    assert result.exit_code == 1 and "interrupted" in result.stderr


# -- ln -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("line,what", [("ln -s a.txt link", "symbolic link 'link'"), ("ln a.txt hard", "hard link 'hard'"),
                                       ("ln -s a.txt b.txt /w/d", "symbolic link '/w/d'")])
def test_ln_refuses_and_says_to_copy(line, what):
    result, vfs = run_line(f"cd /w; {line}", {"/w/a.txt": b"x", "/w/b.txt": b"y", "/w/d/keep": b""})
    assert result.exit_code == 1
    assert f"ln: cannot create {what}: links are not supported by this file system" in result.stderr
    assert "cp " in result.stderr and "\n" not in result.stderr
    assert sorted(asyncio.run(vfs.listdir("/w"))) == ["a.txt", "b.txt", "d/"]


def test_ln_in_the_strict_grammar_says_the_same():
    result = call("ln", ["-s", "/a", "/b"], files={"/a": "x"})
    assert result.exit_code == 1 and "links are not supported" in result.stderr


# -- property: random arguments never crash --------------------------------------------------------

WORDS = {
    "mktemp": ["-d", "-u", "-q", "-t", "-p", "/w", "--tmpdir", "--tmpdir=/w", "--suffix=.x", "--suffix", "XXX", "aXXXb",
               "/w/XXXXXX", "sub/XXX", "", "X", "/", "-", "--", "--dry-run"],
    "du": ["-a", "-s", "-h", "-c", "-b", "-k", "-m", "-0", "-S", "-l", "-d", "0", "1", "-B", "K", "--si", "--exclude=*",
           "--exclude=a", "-X", "/w/a", "--max-depth=2", "/w", "/w/a", "/nope", ".", "-", "--", "-x", "--apparent-size"],
    "ln": ["-s", "-f", "-t", "-T", "-n", "-v", "-r", "-b", "-S", "~", "/w", "/w/a", "/w/sub", "/nope", "x", "--", "-"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_random_arguments_never_crash(name):
    @fuzz_settings(60)
    @given(args=st.lists(st.one_of(st.sampled_from(WORDS[name]), st.text(max_size=5)), max_size=6))
    def check(args):
        result = call(name, args, files={"/w/a": "x\n", "/w/sub/b": "yy\n"})
        assert "internal runtime error" not in result.stderr
        assert result.exit_code in (0, 1)
    check()


# == rmdir, unlink, truncate ======================================================================
# The recorded GNU coreutils 9.1 cases (tests/data/fs_more_corpus.json, tools/record_fs_more.py)
# replayed through the bash language with exact stdout, stderr and exit status.

FS_MORE = json.loads((Path(__file__).parent / "data" / "fs_more_corpus.json").read_text(encoding="utf-8"))
FS_MORE_COMMANDS = ("rmdir", "unlink", "truncate")

# Cases where we knowingly differ from GNU (strict xfail).
FS_MORE_DIFFERENCES: dict[str, str] = {}


def fs_more_stdout(case: dict) -> bytes:
    if "stdout_b64" in case:
        return base64.b64decode(case["stdout_b64"])
    return case["stdout"].encode("utf-8")


async def fs_more_replay(line: str, **options):
    vfs = MemoryVFS()
    for path, text in FS_MORE["world"].items():
        if path.endswith("/"):
            await vfs.mkdir(path.rstrip("/"), True)
        else:
            await vfs.write_bytes(path, text.encode("utf-8"))
    runtime = await create_agent_cli(vfs=vfs, grammar="bash", **options)
    return await runtime.run_detailed(FS_MORE["prefix"] + line), vfs


@pytest.mark.parametrize("case", [
    pytest.param(case, id=case["id"],
                 marks=[pytest.mark.xfail(strict=True, reason=FS_MORE_DIFFERENCES[case["id"]])]
                 if case["id"] in FS_MORE_DIFFERENCES else [])
    for case in FS_MORE["cases"]])
def test_recorded_rmdir_unlink_truncate_case(case):
    execution, _ = asyncio.run(fs_more_replay(case["line"]))
    # The run's stderr loses its final newline (the runtime strips it); otherwise exact.
    got = (execution.stdout, execution.exit_code, execution.stderr)
    want = (fs_more_stdout(case), case["exit_code"], case["stderr"].rstrip("\n"))
    assert got == want, case["line"]


def test_the_fs_more_corpus_covers_each_command_and_error():
    counts = Counter(case["command"] for case in FS_MORE["cases"])
    assert counts["rmdir"] >= 60 and counts["unlink"] >= 20 and counts["truncate"] >= 70
    errors = "".join(case["stderr"] for case in FS_MORE["cases"])
    for message in ("rmdir: failed to remove 'full': Directory not empty", "rmdir: missing operand",
                    "rmdir: failed to remove 'nope': No such file or directory",
                    "rmdir: failed to remove 'a.txt': Not a directory",
                    "rmdir: failed to remove directory 'p': Directory not empty",
                    "unlink: cannot unlink 'empty_dir': Is a directory", "unlink: extra operand 'log.txt'",
                    "unlink: missing operand", "truncate: you must specify either '--size' or '--reference'",
                    "truncate: Invalid number: 'abc'", "truncate: division by zero",
                    "truncate: cannot open 'empty_dir' for writing: Is a directory"):
        assert message in errors, message
    assert {case["exit_code"] for case in FS_MORE["cases"]} == {0, 1}


@pytest.mark.parametrize("name", FS_MORE_COMMANDS)
def test_rmdir_unlink_truncate_are_fs_writers_with_examples(name):
    spec = create_command_registry().get(name)
    assert spec.group == "fs" and "\nExamples:\n  " in spec.details
    assert spec.kind_for([]) == "write" and spec.kind_for(list(spec.conformance_args)) == "write"
    assert name not in create_command_registry(preset="readOnly").names()


def test_truncate_names_the_files_it_may_cut_for_the_overwrite_gate():
    spec = create_command_registry().get("truncate")
    assert spec.targets(["-s", "0", "a.log", "b.log"]) == ["a.log", "b.log"]
    assert spec.targets(["-r", "ref", "-c", "--size=+1", "x"]) == ["x"]
    assert spec.targets(["--reference", "ref", "-s0", "--", "-y"]) == ["-y"]


def test_truncate_refuses_a_file_larger_than_the_sandbox_keeps():
    execution, vfs = asyncio.run(fs_more_replay("truncate -s 1G big; echo rc=$?; wc -c big"))
    assert execution.stderr == "truncate: failed to truncate 'big' at 1073741824 bytes: File too large"
    assert execution.stdout == b"rc=1\n0 big\n"
    execution, _ = asyncio.run(fs_more_replay("truncate -s 2K f", execution_policy={"max_materialized_bytes": 1024}))
    assert execution.exit_code == 1
    assert execution.stderr == "truncate: failed to truncate 'f' at 2048 bytes: File too large"


def test_truncate_reports_a_vfs_limit_as_a_failure_to_truncate():
    async def go():
        vfs = MemoryVFS(resource_policy={"max_file_bytes": 100})
        runtime = await create_agent_cli(vfs=vfs, grammar="bash")
        return await runtime.run_detailed("truncate -s 200 /f")
    execution = asyncio.run(go())
    assert execution.exit_code == 1 and execution.stderr.startswith("truncate: failed to truncate '/f' at 200 bytes: ")


@pytest.mark.parametrize("name", FS_MORE_COMMANDS)
def test_help_option_prints_the_help_text(name):
    execution, _ = asyncio.run(fs_more_replay(f"{name} --help"))
    assert execution.exit_code == 0 and execution.stdout.startswith(f"{name}: ".encode())


def test_the_strict_grammar_speaks_gnu_too():
    assert call("rmdir", ["/nope"]).stderr == "rmdir: failed to remove '/nope': No such file or directory"
    assert call("unlink", ["/d"], files={"/d/x": "1"}).stderr == "unlink: cannot unlink '/d': Is a directory"
    ctx = command_context({"/t": "hello"})
    assert call("truncate", ["-s", "3", "/t"], ctx=ctx).exit_code == 0 and read(ctx, "/t") == b"hel"


@pytest.mark.parametrize("name,shown", [
    ("plain", "'plain'"), ("sp ace", "'sp ace'"), ("it's", '"it\'s"'), ("a'b$c", "'a'\\''b$c'"),
    ("a\nb", "'a'$'\\n''b'"), ("\tx", "''$'\\t''x'"), ("x\x01", "'x'$'\\001'"), ("café", "'caf'$'\\303\\251'"),
    ("it's\n", "'''it'\\''s'$'\\n'"), ("#a'b", '"#a\'b"'), ("a#'b", "'a#'\\''b'"), ("", "''")])
def test_names_are_quoted_as_gnu_quoteaf_quotes_them(name, shown):
    assert quoteaf(name) == shown


@pytest.mark.parametrize("text,size", [("0", 0), ("K", 1024), ("1KB", 1000), ("1KiB", 1024), ("2m", 2 << 20),
                                       ("3G", 3 << 30), ("1T", 1 << 40), ("1E", 1 << 60), ("-5", -5), ("+7", 7)])
def test_truncate_sizes(text, size):
    assert parse_number(text) == size


FS_MORE_WORDS = ["-p", "-v", "-c", "-o", "-s", "-r", "--parents", "--ignore-fail-on-non-empty", "--verbose",
                 "--no-create", "--io-blocks", "--size=+1", "--size", "--reference=/w/a", "--", "-", ".", "..", "/",
                 "/w", "/w/a", "/w/sub", "/w/sub/", "/w/e", "/w/e/", "/nope", "/w/a/x", "0", "1K", "+3", "-2", "<1",
                 ">9", "/2", "%3", "/0", "9E", "abc", "", "x/y/z"]


@pytest.mark.parametrize("name", FS_MORE_COMMANDS)
def test_rmdir_unlink_truncate_random_arguments_never_crash(name):
    @fuzz_settings(60)
    @given(args=st.lists(st.one_of(st.sampled_from(FS_MORE_WORDS), st.text(max_size=5)), max_size=6))
    def check(args):
        result = call(name, args, files={"/w/a": "x\n", "/w/sub/b": "yy\n", "/w/e/.keep": ""})
        assert "internal runtime error" not in result.stderr
        assert result.exit_code in (0, 1)
    check()
