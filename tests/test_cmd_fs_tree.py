"""tree: GNU tree's drawing, C-locale order, -a, -d, -L, and the closing count line."""
from __future__ import annotations

import pytest

from .helpers import call, command_context, outcome

USAGE = "tree [-a] [-d] [-L N] [path ...]"
WORLD = {"/notes/todo.txt": "t", "/notes/archive/2025.txt": "o", "/notes/archive/old/x.md": "x",
         "/notes/.secret": "s", "/notes/Zeta.txt": "z", "/readme.md": "r", "/empty": {"kind": "dir"}}


def tree(*args, files=WORLD):
    return outcome(call("tree", args, files=files))


def test_tree_of_the_root_by_default():
    assert tree() == ("/\n"
                      "├── empty\n"
                      "├── notes\n"
                      "│   ├── Zeta.txt\n"
                      "│   ├── archive\n"
                      "│   │   ├── 2025.txt\n"
                      "│   │   └── old\n"
                      "│   │       └── x.md\n"
                      "│   └── todo.txt\n"
                      "└── readme.md\n"
                      "\n"
                      "4 directories, 5 files\n", "", 0)


def test_tree_all_shows_hidden_entries():
    assert tree("-a", "/notes/") == ("/notes\n"
                                     "├── .secret\n"
                                     "├── Zeta.txt\n"
                                     "├── archive\n"
                                     "│   ├── 2025.txt\n"
                                     "│   └── old\n"
                                     "│       └── x.md\n"
                                     "└── todo.txt\n"
                                     "\n"
                                     "2 directories, 5 files\n", "", 0)


def test_tree_level_limits_depth_but_counts_what_it_shows():
    expected = ("/notes\n├── Zeta.txt\n├── archive\n└── todo.txt\n\n1 directory, 2 files\n", "", 0)
    assert tree("-L", "1", "/notes") == expected
    assert tree("-L1", "/notes") == expected
    assert tree("/notes", "-L", "1") == expected


def test_tree_directories_only():
    assert tree("-d", "/notes") == ("/notes\n└── archive\n    └── old\n\n2 directories\n", "", 0)
    assert tree("-adL", "1", "/") == ("/\n├── empty\n└── notes\n\n2 directories\n", "", 0)


def test_tree_singular_and_empty_counts():
    assert tree("/empty") == ("/empty\n\n0 directories, 0 files\n", "", 0)
    assert tree("/notes/archive/old") == ("/notes/archive/old\n└── x.md\n\n0 directories, 1 file\n", "", 0)


def test_tree_of_a_file_and_several_paths_share_one_count():
    assert tree("/readme.md", "/notes/archive/old") == (
        "/readme.md\n/notes/archive/old\n└── x.md\n\n0 directories, 2 files\n", "", 0)


def test_tree_sorts_names_in_c_locale_byte_order():
    files = {"/t/b": "", "/t/B": "", "/t/_": "", "/t/\u00e9": "", "/t/a/1": ""}
    assert tree("/t", files=files)[0] == \
        "/t\n├── B\n├── _\n├── a\n│   └── 1\n├── b\n└── \u00e9\n\n1 directory, 5 files\n"


def test_tree_missing_path():
    assert tree("/nope") == ("", "tree: path not found: /nope", 1)
    assert tree("/empty", "/nope") == ("/empty\n\n0 directories, 0 files\n", "tree: path not found: /nope", 1)


@pytest.mark.parametrize("args, message", [
    (["-L"], f"tree: missing value for -L. Usage: {USAGE}"),
    (["-L", "0"], "tree: invalid level for -L: 0. Use a whole number of 1 or more, e.g. tree -L 2 /"),
    (["-Lx"], "tree: invalid level for -L: x. Use a whole number of 1 or more, e.g. tree -L 2 /"),
    (["-f"], f"tree: unknown option: -f. Usage: {USAGE}"),
    (["--level=2"], f"tree: unknown option: --level=2. Usage: {USAGE}"),
])
def test_tree_option_errors(args, message):
    assert tree(*args) == ("", message, 1)


def test_tree_handles_a_very_deep_tree_without_recursion_limits():
    ctx = command_context({"/" + "/".join(["d"] * 1050) + "/leaf.txt": "x"})
    text = call("tree", ["/"], ctx=ctx).stdout.decode()
    assert text.endswith("└── leaf.txt\n\n1050 directories, 1 file\n")
    assert call("find", ["/", "-name", "leaf.txt"], ctx=ctx).exit_code == 0
    assert call("ls", ["-R", "/"], ctx=ctx).stdout.decode().endswith("/d:\nleaf.txt\n")
