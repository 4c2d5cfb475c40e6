"""fs group: stat, cat, write, append, plus what every fs command shares (metadata, kinds,
conformance cases)."""
from __future__ import annotations

import pytest

from onetool_wasm.commands import create_command_registry

from .helpers import call, command_context, conformance_test, outcome, read

FS_COMMANDS = ("ls", "stat", "cat", "write", "append", "mkdir", "cp", "mv", "rm", "find", "touch", "tree",
               "basename", "dirname", "realpath", "readlink", "chmod")
WRITING = {"write", "append", "mkdir", "cp", "mv", "rm", "touch", "chmod"}


# -- metadata -------------------------------------------------------------------------------

# fs commands tested in files of their own (test_cmd_archive, test_cmd_file, test_cmd_fs_more, test_cmd_diff*).
OTHER_FS_COMMANDS = ("diff", "du", "file", "gzip", "gunzip", "zcat", "ln", "mktemp", "tar", "rmdir", "unlink", "truncate",
                     "patch")


def test_every_fs_command_is_registered_in_the_fs_group():
    registry = create_command_registry()
    assert sorted(spec.name for spec in registry.all() if spec.group == "fs") == \
        sorted(FS_COMMANDS + OTHER_FS_COMMANDS)


@pytest.mark.parametrize("name", FS_COMMANDS)
def test_kind_is_write_only_for_commands_that_change_the_tree(name):
    spec = create_command_registry().get(name)
    assert spec.kind_for(list(spec.conformance_args)) == ("write" if name in WRITING else "read")


def test_read_only_preset_drops_every_writing_fs_command():
    names = set(create_command_registry(preset="readOnly").names())
    assert names & set(FS_COMMANDS) == set(FS_COMMANDS) - WRITING


test_conformance_case = conformance_test(*FS_COMMANDS)


@pytest.mark.parametrize("name", ["touch", "tree"])
def test_new_commands_have_help_with_examples(name):
    text = call("help", [name]).stdout.decode()
    spec = create_command_registry().get(name)
    assert text.startswith(f"{name}: {spec.summary}\nUsage: {spec.usage}\n\n")
    assert f"\nExamples:\n  {name}" in text


# -- stat -------------------------------------------------------------------------------------

def test_stat_file_prints_metadata_with_recorded_clock():
    result = call("stat", ["notes/todo.txt"], files={"/notes/todo.txt": "line one"})
    assert outcome(result) == ("path: /notes/todo.txt\ntype: file\nsize: 8 bytes\nmedia_type: text/plain\n"
                               "modified_epoch_ms: 1700000000003\n", "", 0)


def test_stat_directory():
    result = call("stat", ["/notes/"], files={"/notes/a.txt": "a"})
    assert outcome(result) == ("path: /notes\ntype: directory\nsize: 0 bytes\nmedia_type: inode/directory\n"
                               "modified_epoch_ms: 1700000000002\n", "", 0)


def test_stat_missing_and_clamped_paths():
    assert outcome(call("stat", ["../../nope"])) == ("", "stat: path not found: /nope", 1)
    assert outcome(call("stat", ["/../.."]))[0].startswith("path: /\ntype: directory\n")


# -- cat --------------------------------------------------------------------------------------

NOTES = {"/notes/a.txt": "alpha\n", "/notes/b.txt": "beta\n"}


def test_cat_concatenates_files_and_splices_stdin_each_time_dash_appears():
    assert outcome(call("cat", ["/notes/a.txt", "/notes/b.txt"], files=NOTES)) == ("alpha\nbeta\n", "", 0)
    result = call("cat", ["-", "/notes/a.txt", "-"], files=NOTES, stdin=b"mid\n")
    assert outcome(result) == ("mid\nalpha\nmid\n", "", 0)


def test_cat_without_paths_passes_stdin_through_byte_for_byte():
    result = call("cat", [], stdin="\ufeffbom kept\r\n".encode())
    assert result.stdout == "\ufeffbom kept\r\n".encode() and result.content_type == "text/plain"


def test_cat_without_paths_or_stdin_prints_usage():
    assert outcome(call("cat")) == ("", "cat: usage: cat [path ...|-]", 1)


def test_cat_refuses_to_drop_piped_stdin():
    result = call("cat", ["/notes/a.txt"], files=NOTES, stdin=b"lost")
    assert outcome(result) == ("", "cat: stdin is only read when no file paths are given or when '-' is "
                                   "present. Usage: cat [path ...|-]", 1)


def test_cat_errors_name_the_path_and_the_next_step():
    files = {**NOTES, "/img/logo.bin": b"\x00\x01\x02"}
    assert outcome(call("cat", ["/notes/a.txt", "/notes/zz.txt"], files=files)) == \
        ("", "cat: file not found: /notes/zz.txt. Use: ls /notes", 1)
    assert outcome(call("cat", ["/notes"], files=files)) == \
        ("", "cat: path is a directory: /notes. Use: ls /notes", 1)
    assert outcome(call("cat", ["/img/logo.bin"], files=files)) == \
        ("", "cat: binary file (3B): /img/logo.bin. Use: stat /img/logo.bin", 1)
    assert outcome(call("cat", ["-"], stdin=b"\x00\x01")) == \
        ("", "cat: stdin is binary (2B). Pipe text only, or save binary data to a file and inspect with stat.", 1)


def test_cat_enforces_max_materialized_bytes_over_all_inputs_together():
    ctx = command_context(NOTES, max_materialized_bytes=10)
    assert outcome(call("cat", ["/notes/a.txt"], ctx=ctx)) == ("alpha\n", "", 0)
    assert outcome(call("cat", ["/notes/a.txt", "/notes/b.txt"], ctx=ctx)) == \
        ("", "cat: input exceeds max materialized size (11B > 10B): /notes/b.txt", 1)
    assert outcome(call("cat", ["/notes/a.txt", "-"], ctx=ctx, stdin=b"12345")) == \
        ("", "cat: input exceeds max materialized size (11B > 10B): stdin", 1)


# -- write / append -----------------------------------------------------------------------------

def test_write_inline_content_joins_arguments_with_spaces():
    ctx = command_context()
    assert outcome(call("write", ["/notes/t.txt", "two", "words"], ctx=ctx)) == ("wrote 9B to /notes/t.txt", "", 0)
    assert read(ctx, "/notes/t.txt") == b"two words"


def test_write_from_stdin_and_empty_inline_content():
    ctx = command_context()
    assert outcome(call("write", ["/a.txt"], ctx=ctx, stdin=b"piped")) == ("wrote 5B to /a.txt", "", 0)
    assert outcome(call("write", ["/a.txt", ""], ctx=ctx, stdin=b"ignored")) == ("wrote 0B to /a.txt", "", 0)
    assert read(ctx, "/a.txt") == b""


def test_write_paths_clamp_at_the_root():
    ctx = command_context()
    assert outcome(call("write", ["../../x", "hi"], ctx=ctx)) == ("wrote 2B to /x", "", 0)
    assert read(ctx, "/x") == b"hi"


def test_write_errors():
    files = {"/notes/a.txt": "a", "/dir": {"kind": "dir"}}
    assert outcome(call("write", ["/dir", "x"], files=files)) == \
        ("", "write: path is a directory: /dir. Use: ls /dir", 1)
    assert outcome(call("write", ["/notes/a.txt/deeper/x.txt", "x"], files=files)) == \
        ("", "write: parent is not a directory: /notes/a.txt", 1)
    assert outcome(call("write", ["/new.txt"])) == \
        ("", "write: no content provided. Pass content inline or pipe it via stdin.", 1)
    ctx = command_context(policy={"maxFileBytes": 3})
    assert outcome(call("write", ["/big.txt", "hello"], ctx=ctx)) == \
        ("", "write: resource limit exceeded (maxFileBytes: 5 > 3) at /big.txt", 1)


def test_append_creates_then_extends():
    ctx = command_context()
    assert outcome(call("append", ["/log.txt", "one"], ctx=ctx)) == ("appended 3B to /log.txt", "", 0)
    assert outcome(call("append", ["/log.txt"], ctx=ctx, stdin=b"\ntwo")) == ("appended 4B to /log.txt", "", 0)
    assert read(ctx, "/log.txt") == b"one\ntwo"


def test_append_errors():
    files = {"/f.txt": "x", "/d": {"kind": "dir"}}
    assert outcome(call("append", ["/d", "x"], files=files)) == ("", "append: path is a directory: /d. Use: ls /d", 1)
    assert outcome(call("append", ["/f.txt/x", "x"], files=files)) == \
        ("", "append: parent is not a directory: /f.txt", 1)
    assert outcome(call("append", ["/f.txt"], files=files)) == \
        ("", "append: no content provided. Pass content inline or pipe it via stdin.", 1)
