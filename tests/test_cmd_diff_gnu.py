"""diff against the real GNU diff (LC_ALL=C, TZ=UTC) on the same files.

Each case writes its files into a temporary directory with fixed modification times,
runs GNU diff on them (absolute paths) and our diff over a DirectoryVFS rooted there.
stdout must be byte-identical once the directory prefix is removed from GNU's output and
its nanosecond stamps are cut to our millisecond ones; exit codes must be equal, and a
missing-file error must begin with GNU's line. Needs subprocess and GNU diffutils: skipped with a
printed reason elsewhere (Pyodide, systems whose diff is not GNU).
"""
from __future__ import annotations

import asyncio
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import timezone

import pytest

from onetool_wasm.commands import invoke_command
from onetool_wasm.commands.fs.diff import DIFF
from onetool_wasm.commands.registry import CommandRegistry
from onetool_wasm.testing import create_test_command_context
from onetool_wasm.vfs import DirectoryVFS


def _gnu_unavailable() -> str | None:
    if sys.platform == "emscripten":
        return "no subprocess in Pyodide"
    if shutil.which("diff") is None:
        return "diff not found"
    try:
        version = subprocess.run(["diff", "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError) as error:
        return f"cannot run diff: {error}"
    return None if "GNU diffutils" in version else "diff is not GNU diffutils"


_REASON = _gnu_unavailable()
if _REASON:
    print(f"test_cmd_diff_gnu skipped: {_REASON}")
    pytest.skip(f"needs GNU diff: {_REASON}", allow_module_level=True)

TEN = "".join(f"{word}\n" for word in "one two three four five six seven eight nine ten".split())
TEN_CHANGED = TEN.replace("two", "TWO") + "eleven\n"
CODE = "int main() {\n  if (x) {\n    a();\n  }\n  return 0;\n}\n\nvoid f() {\n  b();\n}\n"
CODE_EDITED = "int main() {\n  if (x) {\n    a();\n  }\n  if (y) {\n    c();\n  }\n  return 0;\n}\n\nvoid g() {\n}\n"
TREE = {"L/f": "1\n", "R/f": "2\n", "L/same": "s\n", "R/same": "s\n", "L/sub/a": "x\ny\n", "R/sub/a": "x\nz\n",
        "L/sub/deep/k": "k\n", "R/sub/deep/k": "K\n", "L/only": None, "R/sub/new.txt": "n\n", "R/d2": None,
        "L/d2": "q\n", "L/bin": "\x00a", "R/bin": "\x00b", "L/a b": "p\n", "R/a b": "q\n"}


def _random_pair(seed: int, size: int) -> dict[str, str]:
    rng = random.Random(seed)
    pool = ["", "}", "{", "return;", "x++;"] + [f"line {i}" for i in range(20)]
    left = rng.choices(pool, k=size)
    right = list(left)
    for _ in range(size // 8):
        at = rng.randrange(len(right) + 1)
        if rng.random() < 0.5:
            right[at:at] = rng.choices(pool, k=rng.randint(1, 4))
        else:
            del right[at:at + rng.randint(1, 4)]
    return {"a": "\n".join(left) + "\n", "b": "\n".join(right) + "\n"}


CASES: list[tuple[str, dict[str, str | None], list[str]]] = [
    ("normal", {"a": TEN, "b": TEN_CHANGED}, ["/a", "/b"]),
    ("unified", {"a": TEN, "b": TEN_CHANGED}, ["-u", "/a", "/b"]),
    ("context", {"a": TEN, "b": TEN_CHANGED}, ["-c", "/a", "/b"]),
    ("unified-0", {"a": TEN, "b": TEN_CHANGED}, ["-U0", "/a", "/b"]),
    ("context-1", {"a": TEN, "b": TEN_CHANGED}, ["-C", "1", "/a", "/b"]),
    ("identical", {"a": TEN, "b": TEN}, ["-u", "/a", "/b"]),
    ("no-newline", {"a": "a\nb\n", "b": "a\nb"}, ["/a", "/b"]),
    ("no-newline-both", {"a": "a\nb\nc", "b": "a\nB\nc"}, ["-u", "/a", "/b"]),
    ("empty-left", {"a": "", "b": "x\ny\n"}, ["-u", "/a", "/b"]),
    ("empty-right", {"a": "x\ny\n", "b": ""}, ["-c", "/a", "/b"]),
    ("ignore-space", {"a": "a  b\nx\n  lead\ntrail \t\nend\n", "b": "a b\nx\n lead\ntrail\nEND\n"}, ["-b", "/a", "/b"]),
    ("ignore-space-crlf", {"a": "a\r\nb\r\n", "b": "a\nc\n"}, ["-b", "-u", "/a", "/b"]),
    ("ignore-case", {"a": "Hello\nWorld\nÉ\n", "b": "hello\nWORLD\né\n"}, ["-i", "/a", "/b"]),
    ("ignore-both", {"a": "A  B\nc\nd\n", "b": "a b\nC\ne\n"}, ["-bi", "-u", "/a", "/b"]),
    ("binary", {"a": "a\x00b\n", "b": "a\x00c\n"}, ["/a", "/b"]),
    ("binary-as-text", {"a": "a\x00b\n", "b": "a\x00c\n"}, ["-a", "/a", "/b"]),
    ("code", {"a": CODE, "b": CODE_EDITED}, ["/a", "/b"]),
    ("code-unified", {"a": CODE, "b": CODE_EDITED}, ["-u", "/a", "/b"]),
    ("code-context", {"a": CODE, "b": CODE_EDITED}, ["-C", "2", "/a", "/b"]),
    ("duplicates", {"a": "x\na\n", "b": "x\na\na\n"}, ["/a", "/b"]),
    ("random-normal", _random_pair(1, 300), ["/a", "/b"]),
    ("random-unified", _random_pair(2, 300), ["-u", "/a", "/b"]),
    ("random-context", _random_pair(3, 120), ["-c", "/a", "/b"]),
    ("dirs", TREE, ["/L", "/R"]),
    ("dirs-recursive", TREE, ["-r", "/L", "/R"]),
    ("dirs-recursive-unified", TREE, ["-ru", "/L", "/R"]),
    ("dirs-recursive-context", TREE, ["-r", "-C", "1", "-a", "/L", "/R"]),
    ("file-vs-dir", {"a.txt": "x\n", "dir/a.txt": "y\n"}, ["/a.txt", "/dir"]),
    ("dir-vs-file", {"a.txt": "x\n", "dir/a.txt": "y\n"}, ["-u", "/dir", "/a.txt"]),
    ("missing", {"a": "x\n"}, ["/a", "/nope"]),
    ("missing-inside-dir", {"a": "x\n", "dir/b": "y\n"}, ["/a", "/dir"]),
    ("bad-count", {"a": "x\n", "b": "y\n"}, ["-U", "x", "/a", "/b"]),
]


def _populate(root: str, files: dict[str, str | None]) -> None:
    for index, (path, content) in enumerate(sorted(files.items())):
        target = os.path.join(root, path)
        if content is None:
            os.makedirs(target, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as handle:
            handle.write(content.encode("utf-8"))
        stamp_ns = (1700000000000 + index * 1001 + 7) * 1_000_000  # whole milliseconds
        os.utime(target, ns=(stamp_ns, stamp_ns))


def _gnu(root: str, args: list[str]) -> tuple[bytes, str, int]:
    argv = ["diff", *[root + arg if arg.startswith("/") else arg for arg in args]]
    done = subprocess.run(argv, capture_output=True, env={"LC_ALL": "C", "TZ": "UTC", "PATH": os.environ["PATH"]},
                          timeout=30)
    stdout = done.stdout.replace(root.encode(), b"")
    stdout = re.sub(rb"(\d\d:\d\d:\d\d\.\d{3})000000 ", rb"\1 ", stdout)
    stderr = done.stderr.decode().replace(root, "").split("\n")[0]
    return stdout, stderr, done.returncode


def _ours(root: str, args: list[str]):
    async def go():
        ctx = create_test_command_context(vfs=DirectoryVFS(root), registry=CommandRegistry([DIFF]))
        ctx.timezone = timezone.utc
        return await invoke_command(DIFF, ctx, list(args), b"")
    return asyncio.run(go())


@pytest.mark.parametrize("files, args", [(files, args) for _, files, args in CASES], ids=[c[0] for c in CASES])
def test_matches_gnu_diff(files, args):
    with tempfile.TemporaryDirectory() as scratch:
        root = os.path.realpath(scratch)
        _populate(root, files)
        expected_stdout, expected_stderr, expected_code = _gnu(root, args)
        result = _ours(root, args)
    assert result.stdout == expected_stdout
    assert result.exit_code == expected_code
    if "No such file" in expected_stderr:  # we add the next step (". Use: ls <dir>")
        assert result.stderr.startswith(expected_stderr)
