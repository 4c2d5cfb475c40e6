"""ls: upstream's -1aRl listing, C-locale order, and several operands as GNU ls prints them."""
from __future__ import annotations

from onetool_wasm.commands.fs.ls import iso_timestamp

from .helpers import call, command_context, outcome

# Created in this order, so with the recorded clock: / .001, /notes .002, /notes/todo.txt .003,
# /notes/archive .004, /notes/archive/2025.txt .005, /notes/.secret .006, /readme.md .007, /empty .008
WORLD = {"/notes/todo.txt": "todo\n", "/notes/archive/2025.txt": "old", "/notes/.secret": "s",
         "/readme.md": "# hi\n", "/empty": {"kind": "dir"}}


def ls(*args, files=WORLD, ctx=None):
    return outcome(call("ls", args, files=files, ctx=ctx))


def test_ls_defaults_to_the_root_and_hides_dot_entries():
    assert ls() == ("empty\nnotes\nreadme.md\n", "", 0)
    assert ls("/notes") == ("archive\ntodo.txt\n", "", 0)


def test_ls_empty_directory_prints_nothing():
    assert ls("/empty") == ("", "", 0)


def test_ls_sorts_in_c_locale_byte_order_files_and_directories_together():
    files = {"/t/b": "", "/t/B": "", "/t/a/x": "", "/t/_u": "", "/t/\u00e4": "", "/t/Z": ""}
    assert ls("/t", files=files) == ("B\nZ\n_u\na\nb\n\u00e4\n", "", 0)


def test_ls_all_adds_dot_and_dotdot_first():
    assert ls("-a", "/notes") == (".\n..\n.secret\narchive\ntodo.txt\n", "", 0)


def test_ls_long_format_type_size_iso_time_name():
    assert ls("-l", "/notes") == ("d        0 2023-11-14T22:13:20.004Z archive\n"
                                  "-        5 2023-11-14T22:13:20.003Z todo.txt\n", "", 0)


def test_ls_flags_combine_in_any_bundle():
    expected = (".\n..\n.secret\narchive\ntodo.txt\n", "", 0)
    assert ls("-1a", "/notes") == expected
    assert ls("-a", "-1", "/notes") == expected
    assert ls("-la", "/notes")[0].splitlines()[:2] == ["d        0 2023-11-14T22:13:20.002Z .",
                                                        "d        0 2023-11-14T22:13:20.001Z .."]


def test_ls_recursive_prints_a_section_per_directory():
    assert ls("-R", "/notes") == ("/notes:\narchive\ntodo.txt\n\n/notes/archive:\n2025.txt\n", "", 0)
    assert ls("-R", "/empty") == ("/empty:\n", "", 0)


def test_ls_recursive_skips_hidden_directories_unless_all():
    files = {"/t/.cache/x": "", "/t/v": ""}
    assert ls("-R", "/t", files=files) == ("/t:\nv\n", "", 0)
    assert ls("-Ra", "/t", files=files) == ("/t:\n.\n..\n.cache\nv\n\n/t/.cache:\n.\n..\nx\n", "", 0)


def test_ls_long_recursive():
    assert ls("-lR", "/notes/archive") == \
        ("/notes/archive:\n-        3 2023-11-14T22:13:20.005Z 2025.txt\n", "", 0)


def test_ls_file_operand_prints_its_normalized_path():
    assert ls("notes/../readme.md") == ("/readme.md\n", "", 0)
    assert ls("-l", "/readme.md") == ("-        5 2023-11-14T22:13:20.007Z /readme.md\n", "", 0)


def test_ls_several_operands_files_first_then_directory_sections():
    assert ls("/notes", "/readme.md", "/empty", "/notes/todo.txt") == (
        "/notes/todo.txt\n/readme.md\n\n/empty:\n\n/notes:\narchive\ntodo.txt\n", "", 0)


def test_ls_several_directories_get_headers():
    assert ls("/notes/archive", "/empty") == ("/empty:\n\n/notes/archive:\n2025.txt\n", "", 0)


def test_ls_missing_operand_is_reported_and_the_rest_still_listed():
    assert ls("/missing") == ("", "ls: path not found: /missing", 1)
    assert ls("/nope", "/notes/archive", "/gone") == \
        ("/notes/archive:\n2025.txt\n", "ls: path not found: /nope, /gone", 1)


def test_ls_double_dash_ends_options():
    files = {"/-l": "dash"}
    assert ls("--", "-l", files=files) == ("/-l\n", "", 0)


def test_ls_unknown_options_name_the_flag_and_usage():
    assert ls("-x") == ("", "ls: unknown option: -x. Usage: ls [-1aRl] [path]", 1)
    assert ls("-lax") == ("", "ls: unknown option: -x. Usage: ls [-1aRl] [path]", 1)
    assert ls("--all") == ("", "ls: unknown option: --all. Usage: ls [-1aRl] [path]", 1)


def test_ls_rejects_stdin():
    assert outcome(call("ls", ["/"], stdin=b"x")) == ("", "ls: does not accept stdin", 1)


def test_ls_sees_files_written_after_construction():
    ctx = command_context(WORLD)
    call("write", ["/notes/new.txt", "n"], ctx=ctx)
    assert ls("/notes", ctx=ctx) == ("archive\nnew.txt\ntodo.txt\n", "", 0)


def test_iso_timestamp_matches_javascript_to_iso_string():
    assert iso_timestamp(1700000000001) == "2023-11-14T22:13:20.001Z"
    assert iso_timestamp(0) == "1970-01-01T00:00:00.000Z"
    assert iso_timestamp(-1) == "1969-12-31T23:59:59.999Z"
    assert iso_timestamp(-62135596800000) == "0001-01-01T00:00:00.000Z"
    assert iso_timestamp(10**20) == str(10**20)
