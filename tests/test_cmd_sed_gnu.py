"""sed in the bash language is GNU sed 4.9: the recorded cases (tests/data/sed_gnu_corpus.json,
recorded by tools/record_sed_gnu.py) replayed through the runtime (stdout, exit status and
GNU's error text), a few exact checks, and a property test that random scripts, flags and
input never crash it."""
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

from .helpers import call, command_context, fuzz_settings

CORPUS = json.loads((Path(__file__).parent / "data" / "sed_gnu_corpus.json").read_text(encoding="utf-8"))

# Cases where we knowingly differ from GNU (strict xfail, with the reason).
KNOWN_DIFFERENCES: dict[str, str] = {
    "sed-err-e-command": "the `e` command runs a shell command; the sandbox has no process execution",
    "sed-err-bad-regex-ere": "onetool_wasm.regex reads an unclosed ERE interval `a{1` literally; GNU sed refuses it",
}


def expected_stdout(case: dict) -> bytes:
    if "stdout_b64" in case:
        return base64.b64decode(case["stdout_b64"])
    return case["stdout"].encode("utf-8")


async def replay(case: dict):
    vfs = MemoryVFS()
    for path, text in CORPUS["world"].items():
        await vfs.mkdir(path.rsplit("/", 1)[0] or "/", True)
        await vfs.write_bytes(path, text.encode("utf-8"))
    runtime = await create_agent_cli(vfs=vfs)
    return await runtime.run_detailed(CORPUS["prefix"] + case["line"])


def check_case(case: dict) -> None:
    execution = asyncio.run(replay(case))
    stderr = execution.stderr if isinstance(execution.stderr, str) else execution.stderr.decode("utf-8", "replace")
    got = (execution.stdout, execution.exit_code, stderr)
    want = (expected_stdout(case), case["exit_code"], case["stderr"].removesuffix("\n"))  # the runtime drops it
    assert got == want, case["line"]


@pytest.mark.parametrize("case", [
    pytest.param(case, id=case["id"], marks=[pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[case["id"]])]
                 if case["id"] in KNOWN_DIFFERENCES else [])
    for case in CORPUS["cases"]])
def test_recorded_gnu_case(case):
    check_case(case)


def test_enough_cases_are_recorded_and_almost_all_agree():
    assert len(CORPUS["cases"]) >= 150
    assert len(KNOWN_DIFFERENCES) <= len(CORPUS["cases"]) * 0.02


# -- exact checks -------------------------------------------------------------------------------

def run(line: str, files: dict[str, bytes] | None = None):
    async def go():
        vfs = MemoryVFS()
        for path, data in (files or {}).items():
            await vfs.write_bytes(path, data)
        runtime = await create_agent_cli(vfs=vfs)
        return await runtime.run_detailed(line), vfs
    return asyncio.run(go())


def test_registered_in_the_text_group():
    spec = create_command_registry().get("sed")
    assert spec.group == "text"
    assert "\nExamples:\n  " in spec.details


def test_kind_is_write_when_the_script_writes_files():
    spec = create_command_registry().get("sed")
    assert spec.kind_for(["s/a/b/", "f"]) == "read"
    assert spec.kind_for(["w out", "f"]) == "write"
    assert spec.kind_for(["-n", "/x/w out"]) == "write"
    assert spec.kind_for(["s/a/b/w out"]) == "write"
    assert spec.kind_for(["-e", "1W out"]) == "write"
    assert spec.kind_for(["-f", "script.sed"]) == "write"  # the script is not known before it is read
    assert spec.kind_for(["s/w/x/"]) == "read"
    assert spec.kind_for(["-i", "p", "f"]) == "write"


def test_read_only_preset_refuses_w():
    ctx = command_context({"/a": b"x\n"}, registry=create_command_registry(preset="readOnly"))
    result = call("sed", ["w /out", "/a"], ctx=ctx)
    assert result.exit_code == 1 and "read-only" in result.stderr


def test_w_writes_into_the_vfs():
    execution, vfs = run("sed -n '/b/w /out' /in", {"/in": b"a\nb\nab\n"})
    assert execution.exit_code == 0
    assert asyncio.run(vfs.read_bytes("/out")) == b"b\nab\n"


def test_e_is_refused_clearly():
    execution, _ = run("echo x | sed 'e echo hi'")
    assert execution.exit_code == 1
    assert "no process execution" in str(execution.stderr)


# -- random scripts never crash -----------------------------------------------------------------

PIECES = ["p", "d", "D", "N", "P", "G", "H", "h", "x", "g", "n", "=", "l", "l 3", "F", "z", "q", "Q2", "$!N",
          "s/a/b/g", "s/\\(a\\)/\\U\\1/2", "s/x*/-/gw /o", "y/ab/ba/", "/a/,/b/p", "0,/a/d", "1~2d", "2,+1p", "2,~3p",
          "a\\x", "i y", "c\\", "r /in", "R /in", "w /o", "W /o", "e", "v", "b", ":a", "ba", "ta", "T", "{", "}",
          "/x/I!p", "s/[/", "y/a/", "#n", "\\%a%M p", "s/a/\\n\\t&\\x41/", "s//x/", "k", "1,2q", "0p", "+1p"]
FLAGS = ["-n", "-E", "-r", "-s", "-z", "-u", "-i", "-i.bak", "--posix", "-l", "5", "--null-data", "--separate",
         "-f", "-", "/in", "/missing", "/", "--", "--bogus", "-e", "--debug", "--line-length=3"]


@fuzz_settings(150)
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=5), separator=st.sampled_from([";", "\n"]),
       flags=st.lists(st.sampled_from(FLAGS), max_size=4), stdin=st.binary(max_size=24))
def test_random_scripts_never_crash(pieces, separator, flags, stdin):
    ctx = command_context({"/in": b"a\nb\nab\n", "/script.sed": b"s/a/A/\n"})
    args = [*flags, separator.join(pieces), "/in"]
    result = call("sed", args, ctx=ctx, stdin=stdin)
    assert "internal runtime error" not in result.stderr, (args, result.stderr)
    ctx.grammar = "bash"
    result = call("sed", args, ctx=ctx, stdin=stdin)
    assert "internal runtime error" not in result.stderr, (args, result.stderr)
    assert result.exit_code in (0, 1, 2, 4) or 0 < result.exit_code < 256, (args, result)
