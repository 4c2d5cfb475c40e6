"""fs group: stat, cat, write, append, plus what every fs command shares (metadata, kinds,
conformance cases). `fs_run` and `make_ctx` are used by the other test_cmd_fs_* modules."""
from __future__ import annotations

import asyncio
import itertools

import pytest

from onetool_wasm.commands import create_command_registry
from onetool_wasm.testing import create_command_conformance_cases, create_test_command_context, run_registered_command
from onetool_wasm.testing.world import populate_vfs
from onetool_wasm.vfs import MemoryVFS

FS_COMMANDS = ("ls", "stat", "cat", "write", "append", "mkdir", "cp", "mv", "rm", "find", "touch", "tree")
WRITING = {"write", "append", "mkdir", "cp", "mv", "rm", "touch"}


def make_ctx(files=None, policy=None, max_materialized_bytes=None):
    """A context over a MemoryVFS whose clock ticks 1700000000001, +1 a call (as recorded)."""
    ticks = itertools.count(1700000000001)
    vfs = MemoryVFS(now_ms=lambda: next(ticks), resource_policy=policy)
    asyncio.run(populate_vfs(vfs, files or {}))
    return create_test_command_context(vfs=vfs, max_materialized_bytes=max_materialized_bytes)


def fs_run(name, args=(), files=None, ctx=None, stdin=b""):
    ctx = ctx if ctx is not None else make_ctx(files)
    return asyncio.run(run_registered_command(name, list(args), ctx=ctx, stdin=stdin)).result


def outcome(result):
    return result.stdout.decode("utf-8"), result.stderr, result.exit_code


def read(ctx, path):
    return asyncio.run(ctx.vfs.read_bytes(path))


# -- metadata -------------------------------------------------------------------------------

def test_every_fs_command_is_registered_in_the_fs_group():
    registry = create_command_registry()
    assert sorted(spec.name for spec in registry.all() if spec.group == "fs" and spec.name != "diff") == \
        sorted(FS_COMMANDS)


@pytest.mark.parametrize("name", FS_COMMANDS)
def test_kind_is_write_only_for_commands_that_change_the_tree(name):
    spec = create_command_registry().get(name)
    assert spec.kind_for(list(spec.conformance_args)) == ("write" if name in WRITING else "read")


def test_read_only_preset_drops_every_writing_fs_command():
    names = set(create_command_registry(preset="readOnly").names())
    assert names & set(FS_COMMANDS) == set(FS_COMMANDS) - WRITING


@pytest.mark.parametrize("case", [c for c in create_command_conformance_cases(create_command_registry())
                                  if c.command_name in FS_COMMANDS], ids=lambda case: case.id)
def test_conformance_case(case):
    asyncio.run(case.run())


@pytest.mark.parametrize("name", ["touch", "tree"])
def test_new_commands_have_help_with_examples(name):
    text = fs_run("help", [name]).stdout.decode()
    spec = create_command_registry().get(name)
    assert text.startswith(f"{name}: {spec.summary}\nUsage: {spec.usage}\n\n")
    assert f"\nExamples:\n  {name}" in text


# -- stat -------------------------------------------------------------------------------------

def test_stat_file_prints_metadata_with_recorded_clock():
    result = fs_run("stat", ["notes/todo.txt"], files={"/notes/todo.txt": "line one"})
    assert outcome(result) == ("path: /notes/todo.txt\ntype: file\nsize: 8 bytes\nmedia_type: text/plain\n"
                               "modified_epoch_ms: 1700000000003\n", "", 0)


def test_stat_directory():
    result = fs_run("stat", ["/notes/"], files={"/notes/a.txt": "a"})
    assert outcome(result) == ("path: /notes\ntype: directory\nsize: 0 bytes\nmedia_type: inode/directory\n"
                               "modified_epoch_ms: 1700000000002\n", "", 0)


def test_stat_missing_and_clamped_paths():
    assert outcome(fs_run("stat", ["../../nope"])) == ("", "stat: path not found: /nope", 1)
    assert outcome(fs_run("stat", ["/../.."]))[0].startswith("path: /\ntype: directory\n")


# -- cat --------------------------------------------------------------------------------------

NOTES = {"/notes/a.txt": "alpha\n", "/notes/b.txt": "beta\n"}


def test_cat_concatenates_files_and_splices_stdin_each_time_dash_appears():
    assert outcome(fs_run("cat", ["/notes/a.txt", "/notes/b.txt"], files=NOTES)) == ("alpha\nbeta\n", "", 0)
    result = fs_run("cat", ["-", "/notes/a.txt", "-"], files=NOTES, stdin=b"mid\n")
    assert outcome(result) == ("mid\nalpha\nmid\n", "", 0)


def test_cat_without_paths_passes_stdin_through_byte_for_byte():
    result = fs_run("cat", [], stdin="\ufeffbom kept\r\n".encode())
    assert result.stdout == "\ufeffbom kept\r\n".encode() and result.content_type == "text/plain"


def test_cat_without_paths_or_stdin_prints_usage():
    assert outcome(fs_run("cat")) == ("", "cat: usage: cat [path ...|-]", 1)


def test_cat_refuses_to_drop_piped_stdin():
    result = fs_run("cat", ["/notes/a.txt"], files=NOTES, stdin=b"lost")
    assert outcome(result) == ("", "cat: stdin is only read when no file paths are given or when '-' is "
                                   "present. Usage: cat [path ...|-]", 1)


def test_cat_errors_name_the_path_and_the_next_step():
    files = {**NOTES, "/img/logo.bin": b"\x00\x01\x02"}
    assert outcome(fs_run("cat", ["/notes/a.txt", "/notes/zz.txt"], files=files)) == \
        ("", "cat: file not found: /notes/zz.txt. Use: ls /notes", 1)
    assert outcome(fs_run("cat", ["/notes"], files=files)) == \
        ("", "cat: path is a directory: /notes. Use: ls /notes", 1)
    assert outcome(fs_run("cat", ["/img/logo.bin"], files=files)) == \
        ("", "cat: binary file (3B): /img/logo.bin. Use: stat /img/logo.bin", 1)
    assert outcome(fs_run("cat", ["-"], stdin=b"\x00\x01")) == \
        ("", "cat: stdin is binary (2B). Pipe text only, or save binary data to a file and inspect with stat.", 1)


def test_cat_enforces_max_materialized_bytes_over_all_inputs_together():
    ctx = make_ctx(NOTES, max_materialized_bytes=10)
    assert outcome(fs_run("cat", ["/notes/a.txt"], ctx=ctx)) == ("alpha\n", "", 0)
    assert outcome(fs_run("cat", ["/notes/a.txt", "/notes/b.txt"], ctx=ctx)) == \
        ("", "cat: input exceeds max materialized size (11B > 10B): /notes/b.txt", 1)
    assert outcome(fs_run("cat", ["/notes/a.txt", "-"], ctx=ctx, stdin=b"12345")) == \
        ("", "cat: input exceeds max materialized size (11B > 10B): stdin", 1)


# -- write / append -----------------------------------------------------------------------------

def test_write_inline_content_joins_arguments_with_spaces():
    ctx = make_ctx()
    assert outcome(fs_run("write", ["/notes/t.txt", "two", "words"], ctx=ctx)) == ("wrote 9B to /notes/t.txt", "", 0)
    assert read(ctx, "/notes/t.txt") == b"two words"


def test_write_from_stdin_and_empty_inline_content():
    ctx = make_ctx()
    assert outcome(fs_run("write", ["/a.txt"], ctx=ctx, stdin=b"piped")) == ("wrote 5B to /a.txt", "", 0)
    assert outcome(fs_run("write", ["/a.txt", ""], ctx=ctx, stdin=b"ignored")) == ("wrote 0B to /a.txt", "", 0)
    assert read(ctx, "/a.txt") == b""


def test_write_paths_clamp_at_the_root():
    ctx = make_ctx()
    assert outcome(fs_run("write", ["../../x", "hi"], ctx=ctx)) == ("wrote 2B to /x", "", 0)
    assert read(ctx, "/x") == b"hi"


def test_write_errors():
    files = {"/notes/a.txt": "a", "/dir": {"kind": "dir"}}
    assert outcome(fs_run("write", ["/dir", "x"], files=files)) == \
        ("", "write: path is a directory: /dir. Use: ls /dir", 1)
    assert outcome(fs_run("write", ["/notes/a.txt/deeper/x.txt", "x"], files=files)) == \
        ("", "write: parent is not a directory: /notes/a.txt", 1)
    assert outcome(fs_run("write", ["/new.txt"])) == \
        ("", "write: no content provided. Pass content inline or pipe it via stdin.", 1)
    ctx = make_ctx(policy={"maxFileBytes": 3})
    assert outcome(fs_run("write", ["/big.txt", "hello"], ctx=ctx)) == \
        ("", "write: resource limit exceeded (maxFileBytes: 5 > 3) at /big.txt", 1)


def test_append_creates_then_extends():
    ctx = make_ctx()
    assert outcome(fs_run("append", ["/log.txt", "one"], ctx=ctx)) == ("appended 3B to /log.txt", "", 0)
    assert outcome(fs_run("append", ["/log.txt"], ctx=ctx, stdin=b"\ntwo")) == ("appended 4B to /log.txt", "", 0)
    assert read(ctx, "/log.txt") == b"one\ntwo"


def test_append_errors():
    files = {"/f.txt": "x", "/d": {"kind": "dir"}}
    assert outcome(fs_run("append", ["/d", "x"], files=files)) == ("", "append: path is a directory: /d. Use: ls /d", 1)
    assert outcome(fs_run("append", ["/f.txt/x", "x"], files=files)) == \
        ("", "append: parent is not a directory: /f.txt", 1)
    assert outcome(fs_run("append", ["/f.txt"], files=files)) == \
        ("", "append: no content provided. Pass content inline or pipe it via stdin.", 1)
