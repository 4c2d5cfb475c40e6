"""sed: GNU sed's language and cycle over bytes, in-place editing through the VFS."""
from __future__ import annotations

import pytest
from hypothesis import given

from onetool_wasm.commands import create_command_registry
from onetool_wasm.commands.text.sed import sed_kind
from onetool_wasm.sed import execute as sed_exec

from .helpers import (arun, call, check_no_crash, command_context, conformance_test, fuzz_settings, random_args,
                      random_stdin)

USAGE = "sed [OPTION]... [SCRIPT] [INPUTFILE...]"
WORLD = {"/app.log": b"alpha\nbeta\ngamma\n", "/nums.txt": b"1\n2\n3\n4\n5\n6\n", "/noeol.txt": b"one\ntwo",
         "/config.env": b"REGION=us-east-1\n", "/rewrite.sed": b"s/foo/bar/\n2p\n", "/extra.txt": b"X\nY\n"}


def run(*args, stdin=b"", world=WORLD, registry=None):
    """sed's result and every file afterwards."""
    ctx = command_context(world, registry=registry)
    result = call("sed", args, ctx=ctx, stdin=stdin)
    return result, arun(_read_all(ctx.vfs))


async def _read_all(vfs):
    return {path: await vfs.read_bytes(path) for path in await _files(vfs, "/")}


async def _files(vfs, directory):
    found = []
    for name in await vfs.listdir(directory):
        path = directory.rstrip("/") + "/" + name.rstrip("/")
        found.extend(await _files(vfs, path) if name.endswith("/") else [path])
    return found


def sed(*args, stdin=b"", world=WORLD):
    result, _ = run(*args, stdin=stdin, world=world)
    assert result.exit_code == 0, result
    return result.stdout.decode()


def error(*args, stdin=b"a\n"):
    result, _ = run(*args, stdin=stdin)
    return result.stderr, result.exit_code


# -- the recorded subset ---------------------------------------------------------------------------
def test_substitution_addresses_and_ranges():
    assert sed("s/ERROR/WARN/g", stdin=b"ERROR one\nERROR two\n") == "WARN one\nWARN two\n"
    assert sed("-n", "2p", "/app.log") == "beta\n"
    assert sed("-ne", "2p", "/app.log") == "beta\n"
    assert sed("-n", "2,1p", stdin=b"a\nb\nc\n") == "b\n"
    assert sed("-n", "/hit/,/hit/p", stdin=b"hit\nrest\nhit\nlast\n") == "hit\nrest\nhit\n"
    assert sed("-n", "0,/hit/p", stdin=b"hit\nrest\n") == "hit\n"
    assert sed("-n", "1,0p", stdin=b"a\nb\nc\n") == "a\n"
    assert sed("-n", "/hit/,0p", stdin=b"hit\nrest\nhit\n") == "hit\nhit\n"
    assert sed("2!d", stdin=b"a\nb\nc\n") == "b\n"
    assert sed("-n", "/keep/!p", stdin=b"a\nkeep\nb\n") == "a\nb\n"
    assert sed("s/a/A/2g", stdin=b"a a a\n") == "a A A\n"


def test_replacements():
    assert sed("s/\\(foo\\)/[\\1]/", stdin=b"foo\n") == "[foo]\n"
    assert sed("s/foo/[&]/", stdin=b"foo\n") == "[foo]\n"
    assert sed("s/\\./-/", stdin=b"file.txt\n") == "file-txt\n"
    assert sed("s/foo/bar\\n\\tbaz/", stdin=b"foo\n") == "bar\n\tbaz\n"
    assert sed("-E", "s/x=([0-9]+),y=([0-9]+)/\\2,\\1/", stdin=b"x=10,y=20\n") == "20,10\n"
    assert sed("s/b/[&][\\&]/", stdin=b"abc\n") == "a[b][&]c\n"
    assert sed("-E", "s/(\\w+) (\\w+)/\\U\\2\\E \\u\\1/", stdin=b"hello world\n") == "WORLD Hello\n"
    assert sed("s/.*/\\L&/;s/^./\\u&/", stdin=b"SHOUT\n") == "Shout\n"
    assert sed("s/x*/-/g", stdin=b"abxd\n") == "-a-b-d-\n"  # no empty match right after a match
    assert sed("s/é/X/I", stdin="É\né\n".encode()) == "É\nX\n"


def test_text_commands():
    assert sed("2a\\line A\\n\\tline B", "/app.log") == "alpha\nbeta\nline A\n\tline B\ngamma\n"
    assert sed("-e", "1i\\TOP", "-e", "3a\\BOTTOM", "/app.log") == "TOP\nalpha\nbeta\ngamma\nBOTTOM\n"
    assert sed("2,3c\\X", stdin=b"a\nb\nc\nd\n") == "a\nX\nd\n"
    assert sed("1,2!c\\X", stdin=b"a\nb\nc\nd\n") == "a\nb\nX\nX\n"
    assert sed("2,10c\\X", stdin=b"a\nb\nc\n") == "a\n"  # a range cut off by the end prints nothing
    assert sed("1a\\\n  indented\\\nsecond", stdin=b"x\n") == "x\n  indented\nsecond\n"
    assert sed("/x/a   one-liner", stdin=b"x\n") == "x\none-liner\n"
    assert sed("a foo; p", stdin=b"x\n") == "x\nfoo; p\n"


def test_options_scripts_and_files():
    assert sed("-n", "-f", "/rewrite.sed", "/nums.txt", world={**WORLD, "/nums.txt": b"foo\nfoo\n"}) == "bar\n"
    assert sed("-nEf/rewrite.sed", "/in", world={**WORLD, "/in": b"foo\nfoo\n"}) == "bar\n"
    assert sed("-n", "--expression=$p", "/app.log") == "gamma\n"
    assert sed("s/a/b/", "/app.log", "-n") == ""  # options may follow operands
    assert sed("-s", "-n", "$p", "/app.log", "/nums.txt") == "gamma\n6\n"
    assert sed("-n", "$p", "/app.log", "/nums.txt") == "6\n"
    assert sed("F", "/extra.txt", stdin=b"") == "/extra.txt\nX\n/extra.txt\nY\n"
    assert sed("", stdin=b"same\n") == "same\n"
    assert sed("s/a/A/") == ""  # no input at all is an empty stream


def test_help_option_prints_the_help_entry():
    assert sed("--help").startswith("sed: Stream editor with in-place editing")


# -- GNU's extended commands -------------------------------------------------------------------
def test_hold_space_and_multiline_commands():
    assert sed("1!G;h;$!d", "/app.log") == "gamma\nbeta\nalpha\n"
    assert sed("$!N;s/\\n/+/", "/nums.txt") == "1+2\n3+4\n5+6\n"
    assert sed(":a;N;$!ba;s/\\n/,/g", "/nums.txt") == "1,2,3,4,5,6\n"
    assert sed("$!N;P;D", stdin=b"a\na\nb\n") == "a\na\nb\n"
    assert sed("N;D", "/nums.txt") == "6\n"
    assert sed("-n", "h;n;G;p", "/nums.txt") == "2\n1\n4\n3\n6\n5\n"
    assert sed("x", "/noeol.txt") == "\none\n"  # the final newline travels with the text
    assert sed("1!G;h;$!d", "/noeol.txt") == "two\none\n"
    assert sed("$!N;P;D", "/noeol.txt") == "one\ntwo"


def test_branches_and_blocks():
    assert sed(":a;s/^.\\{1,3\\}$/ &/;ta", stdin=b"ab\n") == "  ab\n"
    assert sed("s/a//;T;s/b/c/", stdin=b"ab\nb\n") == "c\nb\n"
    assert sed("/x/b end;s/^/-/;:end", stdin=b"x\ny\n") == "x\n-y\n"
    assert sed("-n", "2{p;p}", "/app.log") == "beta\nbeta\n"
    assert sed("-n", "/a/{/m/p}", "/app.log") == "gamma\n"
    assert sed("-n", "-e", "2{", "-e", "p", "-e", "}", "/app.log") == "beta\n"


def test_more_addresses():
    assert sed("-n", "0~2p", "/nums.txt") == "2\n4\n6\n"
    assert sed("-n", "2~3p", "/nums.txt") == "2\n5\n"
    assert sed("-n", "/2/,+2p", "/nums.txt") == "2\n3\n4\n"
    assert sed("-n", "2,~4p", "/nums.txt") == "2\n3\n4\n"
    assert sed("-n", "/BETA/Ip", "/app.log") == "beta\n"
    assert sed("N;s/^b/B/M", stdin=b"a\nb\n") == "a\nB\n"
    assert sed("-n", "/e/{s//E/gp}", "/app.log") == "bEta\n"
    assert sed("-n", "\\,ta$,p", "/app.log") == "beta\n"


def test_other_commands():
    assert sed("y/abc/xyz/", stdin=b"aabbcc\n") == "xxyyzz\n"
    assert sed("-n", "$=", "/nums.txt") == "6\n"
    assert sed("=", stdin=b"a\n") == "1\na\n"
    assert sed("-n", "l", stdin=b"a\tb\\\x01\n") == "a\\tb\\\\\\001$\n"
    assert sed("-n", "l 5", stdin=b"abcdefgh\n") == "abcd\\\nefgh$\n"
    assert sed("2r /extra.txt", "/app.log") == "alpha\nbeta\nX\nY\ngamma\n"
    assert sed("r /nope", stdin=b"a\n") == "a\n"
    assert sed("z;s/^$/empty/", stdin=b"a\n") == "empty\n"
    assert sed("2q", "/nums.txt") == "1\n2\n"
    assert sed("2Q", "/nums.txt") == "1\n"
    result, _ = run("2q5", "/nums.txt")
    assert (result.stdout, result.exit_code) == (b"1\n2\n", 5)


def test_missing_final_newline_is_preserved_like_gnu():
    assert sed("s/o/0/", "/noeol.txt") == "0ne\ntw0"
    assert sed("p", stdin=b"a") == "a\na"
    assert sed("$a\\END", stdin=b"a") == "a\nEND\n"


# -- in-place editing ---------------------------------------------------------------------------
def test_in_place_with_backup():
    result, files = run("-i.bak", "s/us-east-1/us-west-2/", "/config.env")
    assert (result.stdout, result.exit_code) == (b"", 0)
    assert files["/config.env"] == b"REGION=us-west-2\n" and files["/config.env.bak"] == b"REGION=us-east-1\n"


def test_in_place_without_backup_each_file_separately():
    result, files = run("-i", "-e", "1d", "/app.log", "/nums.txt")
    assert result.exit_code == 0 and "/app.log.bak" not in files
    assert (files["/app.log"], files["/nums.txt"]) == (b"beta\ngamma\n", b"2\n3\n4\n5\n6\n")
    _, files = run("--in-place=.orig", "$s/$/!/", "/app.log")
    assert (files["/app.log"], files["/app.log.orig"]) == (b"alpha\nbeta\ngamma!\n", b"alpha\nbeta\ngamma\n")
    _, files = run("-i", "bak_*", "s/a/A/", "/app.log")  # GNU: a separate -i takes no suffix
    assert "/bak_*" not in files
    _, files = run("-ibak/*", "s/a/A/", "/app.log")
    assert files["/bak/app.log"] == b"alpha\nbeta\ngamma\n" and files["/app.log"] == b"Alpha\nbetA\ngAmma\n"


def test_in_place_errors():
    assert error("-i", "s/a/b/") == ("sed: -i requires at least one input file", 1)
    assert error("-i", "s/a/b/", "-") == ("sed: cannot use -i with stdin", 1)
    result, files = run("-i", "s/a/A/", "/missing", "/app.log")
    assert (result.stderr, result.exit_code) == ("sed: file not found: /missing. Use: ls /", 2)
    assert files["/app.log"] == b"Alpha\nbetA\ngAmma\n"


def test_kind_depends_on_in_place():
    assert [sed_kind(args) for args in (["s/a/b/"], ["-i", "s/a/b/", "f"], ["-ni.bak", "p", "f"],
                                        ["--in-place", "p", "f"], ["-n", "s/i/x/", "f"], ["-e", "s/i/", "f"],
                                        ["s/a/b/", "-i", "f"], ["--", "-i"])] == \
        ["read", "write", "write", "write", "read", "read", "write", "read"]


def test_read_only_preset_refuses_in_place():
    registry = create_command_registry(preset="readOnly")
    result, files = run("-i", "s/a/A/", "/app.log", registry=registry)
    assert result.exit_code == 1 and "read-only" in result.stderr
    assert files["/app.log"] == WORLD["/app.log"]
    result, _ = run("s/a/A/", "/app.log", registry=registry)
    assert result.stdout == b"Alpha\nbetA\ngAmma\n"


# -- errors --------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, message", [
    ([], f"sed: missing script. Usage: {USAGE}"),
    (["-n"], f"sed: missing script. Usage: {USAGE}"),
    (["-e"], "sed: missing script for -e"),
    (["-f"], "sed: missing script file for -f"),
    (["s/a/b/w"], "sed: unsupported substitute flag: w"),
    (["s/a"], "sed: unterminated substitute pattern"),
    (["s/a/b"], "sed: unterminated substitute replacement"),
    (["s/\\(a/b/"], "sed: invalid regex: Unmatched ( or \\("),
    (["k"], "sed: unsupported sed command: k"),
    (["w /out"], "sed: unsupported sed command: w (sed here writes files only with -i)"),
    (["a"], "sed: expected \\ after `a', `c' or `i'"),
    (["0,3p"], "sed: invalid usage of line address 0"),
    (["2{p"], "sed: unmatched `{'"),
    (["}"], "sed: unexpected `}'"),
    (["b nowhere"], "sed: can't find label for jump to `nowhere'"),
    (["y/ab/c/"], "sed: strings for `y' command are different lengths"),
    (["pq"], "sed: extra characters after command: q"),
    (["-k", "p"], f"sed: unknown option: -k. Usage: {USAGE}"),
    (["-f", "/nope.sed"], "sed: script file not found: /nope.sed. Use: ls /"),
    (["s//x/"], "sed: no previous regular expression"),
    (["s/a/\\1/"], "sed: invalid reference \\1 on `s' command's RHS"),
])
def test_errors(args, message):
    assert error(*args) == (message, 1)


def test_endless_loops_are_stopped(monkeypatch):
    monkeypatch.setattr(sed_exec, "MAX_STEPS", 1000)
    assert error(":a;ba") == ("sed: script stopped after 1002 steps (an endless b/t loop?)", 1)


# -- conformance and random arguments ----------------------------------------------------------------
test_conformance = conformance_test("sed")


SCRIPTS = ["p", "d", "2p", "$d", "s/a/b/g", "s/\\(a\\)/\\1\\1/", "/a/,/b/d", "1!G;h;$!d", "N;P;D", ":a;N;ba", "y/ab/ba/",
           "=", "l", "2q", "a\\x", "i x", "c\\", "0,/a/d", "1~2d", "{p", "}", "s/[/x/", "n;n;n", "$!N", "x;G", "r /app.log",
           "s/x*/-/g", "/a/I,+1p", "T;s/^/>/", "\\%a%p", "s/a/\\U&/2", "w /x", "e", "#n", "b", ":", "y/a/"]
FLAGS = ["-n", "-e", "-f", "-E", "-r", "-i", "-i.bak", "-s", "-ne", "-nE", "--expression", "--quiet", "--in-place",
         "--bogus", "-", "--", "-z"]
PATHS = ["/app.log", "/noeol.txt", "/missing", "/", "/rewrite.sed", "/app.log/x", ""]


@fuzz_settings(200)
@given(args=random_args(SCRIPTS, FLAGS, PATHS, max_size=5), stdin=random_stdin(16))
def test_random_arguments_never_crash(args, stdin):
    result, _ = run(*args, stdin=stdin)
    check_no_crash(result, args, "sed: ", (0, 1, 2, 3, 4, 5))
