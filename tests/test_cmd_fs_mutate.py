"""mkdir, cp, mv, rm, touch: upstream's messages and semantics, plus GNU's common flags."""
from __future__ import annotations

import asyncio

import pytest

from .helpers import call, command_context, outcome, read

WORLD = {"/src.txt": "copy me", "/tree/a.txt": "alpha", "/tree/sub/b.txt": "beta", "/file": "f",
         "/other": {"kind": "dir"}}


def run(name, *args, ctx):
    return outcome(call(name, args, ctx=ctx))


def exists(ctx, path):
    return asyncio.run(ctx.vfs.exists(path))


def mtime(ctx, path):
    return asyncio.run(ctx.vfs.stat(path)).modified_epoch_ms


# -- mkdir ------------------------------------------------------------------------------------

def test_mkdir_creates_parents_with_or_without_p():
    ctx = command_context()
    assert run("mkdir", "/a/b", ctx=ctx) == ("created /a/b", "", 0)
    assert run("mkdir", "-p", "c/../d/e", ctx=ctx) == ("created /d/e", "", 0)
    assert exists(ctx, "/a/b") and exists(ctx, "/d/e") and not exists(ctx, "/c")


def test_mkdir_errors():
    ctx = command_context(WORLD)
    assert run("mkdir", "/file", ctx=ctx) == ("", "mkdir: path already exists: /file", 1)
    assert run("mkdir", "/file/x/y", ctx=ctx) == ("", "mkdir: parent is not a directory: /file", 1)
    assert run("mkdir", "-p", ctx=ctx) == ("", "mkdir: usage: mkdir [-p] <path>", 1)
    assert run("mkdir", "-x", "/d", ctx=ctx) == ("", "mkdir: unknown option: -x. Usage: mkdir [-p] <path>", 1)
    assert run("mkdir", "-v", ctx=ctx) == ("", "mkdir: unknown option: -v. Usage: mkdir [-p] <path>", 1)


def test_mkdir_double_dash_allows_a_dash_name():
    ctx = command_context()
    assert run("mkdir", "--", "-draft", ctx=ctx) == ("created /-draft", "", 0)


def test_mkdir_resource_limit():
    ctx = command_context(policy={"maxDirectoryDepth": 2})
    assert run("mkdir", "/a/b/c", ctx=ctx) == \
        ("", "mkdir: resource limit exceeded (maxDirectoryDepth: 3 > 2) at /a/b/c", 1)


# -- cp / mv ------------------------------------------------------------------------------------

def test_cp_file_and_directory():
    ctx = command_context(WORLD)
    assert run("cp", "/src.txt", "/copies/dst.txt", ctx=ctx) == ("copied /src.txt -> /copies/dst.txt", "", 0)
    assert read(ctx, "/copies/dst.txt") == b"copy me"
    assert run("cp", "-r", "/tree", "/tree2", ctx=ctx) == ("copied /tree -> /tree2", "", 0)
    assert read(ctx, "/tree2/sub/b.txt") == b"beta" and read(ctx, "/tree/sub/b.txt") == b"beta"
    assert run("cp", "-R", "/tree", "/tree3", ctx=ctx) == ("copied /tree -> /tree3", "", 0)


def test_cp_errors():
    ctx = command_context(WORLD)
    assert run("cp", "/nope", "/x", ctx=ctx) == ("", "cp: source not found: /nope", 1)
    assert run("cp", "/tree", "/other", ctx=ctx) == ("", "cp: destination already exists: /other", 1)
    assert run("cp", "/src.txt", "/other", ctx=ctx) == \
        ("", "cp: destination is a directory: /other. Use a file path.", 1)
    assert run("cp", "/tree", "/tree/sub/inner", ctx=ctx) == \
        ("", "cp: destination is inside the source directory: /tree/sub/inner", 1)
    assert run("cp", "/src.txt", "/file/x.txt", ctx=ctx) == ("", "cp: parent is not a directory: /file", 1)
    assert run("cp", "/a", "/b", "/c", ctx=ctx) == ("", "cp: usage: cp <src> <dst>", 1)
    assert run("cp", "-x", "/a", "/b", ctx=ctx) == ("", "cp: usage: cp <src> <dst>", 1)
    assert run("cp", "-r", "/tree", ctx=ctx) == ("", "cp: usage: cp <src> <dst>", 1)


def test_cp_and_mv_double_dash_allow_dash_names():
    ctx = command_context({"/-a": "dash"})
    assert run("cp", "--", "-a", "/b", ctx=ctx) == ("copied /-a -> /b", "", 0)
    assert run("mv", "--", "-a", "/c", ctx=ctx) == ("moved /-a -> /c", "", 0)


def test_mv_file_and_directory():
    ctx = command_context(WORLD)
    assert run("mv", "/src.txt", "/moved/dst.txt", ctx=ctx) == ("moved /src.txt -> /moved/dst.txt", "", 0)
    assert not exists(ctx, "/src.txt") and read(ctx, "/moved/dst.txt") == b"copy me"
    assert run("mv", "/tree", "/archive/tree", ctx=ctx) == ("moved /tree -> /archive/tree", "", 0)
    assert not exists(ctx, "/tree") and read(ctx, "/archive/tree/sub/b.txt") == b"beta"


def test_mv_errors():
    ctx = command_context(WORLD)
    assert run("mv", "/nope", "/x", ctx=ctx) == ("", "mv: source not found: /nope", 1)
    assert run("mv", "/src.txt", "/other", ctx=ctx) == \
        ("", "mv: destination is a directory: /other. Use a file path.", 1)
    assert run("mv", "/tree", "/tree/sub/in", ctx=ctx) == \
        ("", "mv: destination is inside the source directory: /tree/sub/in", 1)
    assert run("mv", "/tree", "/other", ctx=ctx) == ("", "mv: destination already exists: /other", 1)
    assert run("mv", "/src.txt", "/file/y", ctx=ctx) == ("", "mv: parent is not a directory: /file", 1)


# -- rm -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("flags", [[], ["-r"], ["-R"], ["-rf"], ["-fr"], ["-f"]])
def test_rm_is_recursive_with_any_alias(flags):
    ctx = command_context(WORLD)
    assert run("rm", *flags, "/tree", ctx=ctx) == ("removed /tree", "", 0)
    assert not exists(ctx, "/tree/sub/b.txt") and not exists(ctx, "/tree")


def test_rm_missing_path_fails_unless_forced():
    ctx = command_context(WORLD)
    assert run("rm", "/nope", ctx=ctx) == ("", "rm: path not found: /nope", 1)
    assert run("rm", "-r", "/nope", ctx=ctx) == ("", "rm: path not found: /nope", 1)
    assert run("rm", "-rf", "/nope", ctx=ctx) == ("", "", 0)


def test_rm_refuses_the_root_and_bad_options():
    ctx = command_context(WORLD)
    assert run("rm", "/", ctx=ctx) == ("", "rm: cannot delete root: /", 1)
    assert run("rm", "-rf", "../..", ctx=ctx) == ("", "rm: cannot delete root: /", 1)
    assert run("rm", "-i", "/file", ctx=ctx) == ("", "rm: unknown option: -i. Usage: rm [-r|-R] <path>", 1)
    assert run("rm", "-r", ctx=ctx) == ("", "rm: usage: rm [-r|-R] <path>", 1)
    assert run("rm", "a", "b", "c", ctx=ctx) == ("", "rm: usage: rm [-r|-R] <path>", 1)
    assert exists(ctx, "/file")


def test_rm_double_dash_removes_a_dash_name():
    ctx = command_context({"/-x": "dash"})
    assert run("rm", "--", "-x", ctx=ctx) == ("removed /-x", "", 0)


# -- touch ----------------------------------------------------------------------------------------

def test_touch_creates_empty_files_and_parents():
    ctx = command_context()
    assert run("touch", "/a.txt", "/deep/b.txt", ctx=ctx) == ("created /a.txt\ncreated /deep/b.txt\n", "", 0)
    assert read(ctx, "/a.txt") == b"" and read(ctx, "/deep/b.txt") == b""


def test_touch_updates_the_modified_time_and_keeps_content():
    ctx = command_context({"/f.bin": b"\x00\x01keep"})
    before = mtime(ctx, "/f.bin")
    assert run("touch", "/f.bin", ctx=ctx) == ("touched /f.bin\n", "", 0)
    assert mtime(ctx, "/f.bin") == before + 1 and read(ctx, "/f.bin") == b"\x00\x01keep"
    assert call("stat", ["/f.bin"], ctx=ctx).stdout.decode().endswith(f"modified_epoch_ms: {before + 1}\n")


def test_touch_c_never_creates_and_directories_are_left_alone():
    ctx = command_context({"/d/x": "x"})
    assert run("touch", "-c", "/nope", "/d/x", ctx=ctx) == ("touched /d/x\n", "", 0)
    assert not exists(ctx, "/nope")
    assert run("touch", "/d", ctx=ctx) == ("unchanged /d (directory)\n", "", 0)


def test_touch_errors():
    ctx = command_context({"/f": "x"})
    assert run("touch", "/f/inner", ctx=ctx) == ("", "touch: parent is not a directory: /f", 1)
    assert run("touch", "-c", ctx=ctx) == ("", "touch: usage: touch [-c] <path> [path ...]", 1)
    assert run("touch", "-m", "/f", ctx=ctx) == \
        ("", "touch: unknown option: -m. Usage: touch [-c] <path> [path ...]", 1)
    assert run("touch", "--", "-c", ctx=ctx) == ("created /-c\n", "", 0)
    limited = command_context(policy={"maxEntriesPerDirectory": 1})
    assert run("touch", "/a", ctx=limited) == ("created /a\n", "", 0)
    assert run("touch", "/b", ctx=limited)[1:] == \
        ("touch: resource limit exceeded (maxEntriesPerDirectory: 2 > 1) at /", 1)


def test_writing_commands_reject_stdin():
    ctx = command_context(WORLD)
    for name, args in (("mkdir", ["/x"]), ("cp", ["/a", "/b"]), ("mv", ["/a", "/b"]), ("rm", ["/x"]),
                       ("touch", ["/x"])):
        assert outcome(call(name, args, ctx=ctx, stdin=b"x")) == ("", f"{name}: does not accept stdin", 1)
