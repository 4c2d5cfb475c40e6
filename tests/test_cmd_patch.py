"""patch against GNU patch 2.7.6 (LC_ALL=C): the recorded cases (tests/data/patch_corpus.json,
tools/record_patch.py) replayed through the bash runtime over a MemoryVFS seeded with the
same world, with exact stdout, exit status and stderr; a few direct checks of the engine;
and a property test that random patch text and random files never crash the command.
Only reads the JSON, so it also runs inside Pyodide."""
from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands import create_command_registry
from onetool_wasm.patch import Applier, PatchInput, UNI_DIFF

from .helpers import fuzz_settings

CORPUS = json.loads((Path(__file__).parent / "data" / "patch_corpus.json").read_text(encoding="utf-8"))

# Cases where we knowingly differ from GNU (strict xfail), with the reason.
KNOWN_DIFFERENCES: dict[str, str] = {}


def expected_stdout(case: dict) -> bytes:
    if "stdout_b64" in case:
        return base64.b64decode(case["stdout_b64"])
    return case["stdout"].encode("utf-8")


async def seeded_runtime():
    vfs = MemoryVFS()
    for path, text in CORPUS["world"].items():
        if text is None:
            await vfs.mkdir(path, True)
            continue
        await vfs.mkdir(path.rsplit("/", 1)[0] or "/", True)
        await vfs.write_bytes(path, text.encode("utf-8"))
    return await create_agent_cli(vfs=vfs, grammar="bash")


async def replay(case: dict):
    runtime = await seeded_runtime()
    return await runtime.run_detailed(CORPUS["prefix"] + case["line"])


def params():
    return [pytest.param(case, id=case["id"],
                         marks=[pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[case["id"]])]
                         if case["id"] in KNOWN_DIFFERENCES else [])
            for case in CORPUS["cases"]]


@pytest.mark.parametrize("case", params())
def test_recorded_gnu_case(case):
    execution = asyncio.run(replay(case))
    got = (execution.stdout, execution.exit_code, execution.stderr.rstrip("\n"))
    want = (expected_stdout(case), case["exit_code"], case["stderr"].rstrip("\n"))
    assert got == want, case["line"]


def test_enough_recorded_cases():
    assert len(CORPUS["cases"]) >= 60


def test_registered_as_a_write_command():
    spec = create_command_registry().get("patch")
    assert spec.group == "fs"
    assert spec.kind_for(["-p1"]) == "write"
    assert spec.targets(["-o", "out.txt", "a.txt", "fix.diff"]) == ["out.txt", "a.txt"]


# -- the engine directly ------------------------------------------------------------------------

def test_offsets_are_searched_both_ways():
    patch = PatchInput(b"@@ -5,3 +5,3 @@\n b\n-c\n+C\n d\n", lambda text: None)
    hunk = patch.another_hunk(UNI_DIFF)
    applier = Applier(b"a\nb\nc\nd\ne\n")
    where = applier.locate_hunk(hunk, 0)
    assert (where, applier.in_offset) == (2, -3)
    assert applier.apply_hunk(hunk, where) == (True, None)
    assert applier.spew_output() == b"a\nb\nC\nd\ne\n"


def test_no_newline_marker_is_kept():
    patch = PatchInput(b"@@ -1 +1 @@\n-x\n+y\n\\ No newline at end of file\n", lambda text: None)
    hunk = patch.another_hunk(UNI_DIFF)
    applier = Applier(b"x\n")
    applier.apply_hunk(hunk, applier.locate_hunk(hunk, 0))
    assert applier.spew_output() == b"y"


def run_line(line: str, files: dict[str, bytes]):
    async def go():
        vfs = MemoryVFS()
        for path, data in files.items():
            await vfs.write_bytes(path, data)
        runtime = await create_agent_cli(vfs=vfs, grammar="bash")
        execution = await runtime.run_detailed(line)
        return execution, vfs
    return asyncio.run(go())


def test_git_diff_round_trip_through_our_diff():
    execution, vfs = run_line("cd /w && diff -u a b > p.diff; patch a < p.diff && cat a",
                              {"/w/a": b"1\n2\n3\n", "/w/b": b"1\ntwo\n3\n4\n"})
    assert execution.stdout == b"patching file a\n1\ntwo\n3\n4\n"
    assert execution.exit_code == 0


def test_heredoc_patch_for_a_named_file():
    line = "cd /w && patch f.py <<'EOF'\n--- f.py\n+++ f.py\n@@ -1,2 +1,2 @@\n-x = 1\n+x = 2\n y = 3\nEOF\ncat f.py"
    execution, _ = run_line(line, {"/w/f.py": b"x = 1\ny = 3\n"})
    assert execution.stdout == b"patching file f.py\nx = 2\ny = 3\n"


# -- property: random patches and files never crash --------------------------------------------

PATCH_LINES = ["--- a/f\n", "+++ b/f\n", "--- /dev/null\n", "+++ /dev/null\n", "@@ -1,2 +1,2 @@\n", "@@ -0,0 +1 @@\n",
               "@@ -1 +0,0 @@\n", "@@ -3,1 +3,2 @@ fn\n", " a\n", "-a\n", "+b\n", " b\n", "-c\n", "+\n", "\n",
               "\\ No newline at end of file\n", "diff --git a/f b/f\n", "index 0000000..e69de29\n",
               "new file mode 100644\n", "*** f\n", "***************\n", "*** 1,2 ****\n", "--- 1,2 ----\n",
               "! a\n", "! b\n", "  a\n", "1c1\n", "< a\n", "---\n", "> b\n", "Index: f\n", "garbage\n", "#x\n"]
FLAGS = ["-p0", "-p1", "-R", "-N", "-t", "-f", "--dry-run", "-b", "-s", "-E", "-F0", "-F3", "-u", "-c",
         "--no-backup-if-mismatch", "-o", "out", "-r", "-", "f", "-i", "p", "-z", ".b", "-d", "sub", "--bogus", "-p"]


@fuzz_settings(60)
@given(lines=st.lists(st.sampled_from(PATCH_LINES) | st.text(alphabet="ab+- @\\\n", max_size=8), max_size=14),
       content=st.text(alphabet="abc\n", max_size=12), flags=st.lists(st.sampled_from(FLAGS), max_size=4),
       tail=st.booleans())
def test_random_patches_never_crash(lines, content, flags, tail):
    text = "".join(lines) + ("x" if tail else "")
    files = {"/w/f": content.encode(), "/w/p": text.encode(), "/w/sub/g": b"a\n"}
    quoted = " ".join("'" + flag + "'" for flag in flags)
    execution, _ = run_line(f"cd /w; patch {quoted} < p", files)
    assert "internal runtime error" not in execution.stderr, (text, flags, execution.stderr)
    assert execution.exit_code in (0, 1, 2), (text, flags)
