"""Replays the agent-line corpus against our bash: each case's stdout, exit code and whether
it wrote to stderr, as GNU bash 5.2 + coreutils produced them under LC_ALL=C.

The expected values were recorded by tools/record_bash_corpus.py from tests/data/bash_corpus.txt
(in a sandbox whose root is a fresh copy of tests/data/bash_corpus_world.json); this module only
reads that data, so it runs on CPython and inside Pyodide alike.

A case we knowingly differ on goes into KNOWN_DIFFERENCES with the reason; it is then expected to
fail (strict xfail), so fixing it forces its removal from the dict.
"""
from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from onetool_wasm import MemoryVFS, create_agent_cli

DATA = Path(__file__).resolve().parent / "data"
CASES: list[dict[str, Any]] = json.loads((DATA / "bash_corpus.json").read_text(encoding="utf-8"))
WORLD: dict[str, Any] = json.loads((DATA / "bash_corpus_world.json").read_text(encoding="utf-8"))
REQUIRED_SHARE = 0.98

# id -> why our shell's outcome differs from bash's (start empty; every entry needs a reason).
KNOWN_DIFFERENCES: dict[str, str] = {}

Outcome = tuple[bytes, int, bool]  # stdout, exit code, stderr non-empty
_outcomes: dict[str, Outcome] = {}  # replays done by the per-case tests, reused by the summary


async def _seeded_vfs() -> MemoryVFS:
    vfs = MemoryVFS()
    for folder in WORLD["dirs"]:
        await vfs.mkdir(folder, True)
    for path, text in WORLD["files"].items():
        await vfs.write_bytes(path, text.encode("utf-8"))
    return vfs


async def _replay(script: str) -> Outcome:
    runtime = await create_agent_cli(vfs=await _seeded_vfs(), grammar="bash")
    execution = await runtime.run_detailed(script)
    return execution.stdout, execution.exit_code, bool(execution.stderr)


def replay(case: dict[str, Any]) -> Outcome:
    """Our shell's outcome for one case, on a fresh world (each case runs at most once)."""
    if case["id"] not in _outcomes:
        _outcomes[case["id"]] = asyncio.run(_replay(case["script"]))
    return _outcomes[case["id"]]


def expected(case: dict[str, Any]) -> Outcome:
    return case["stdout"].encode("utf-8"), case["exit_code"], case["stderr_nonempty"]


def _param(case: dict[str, Any]):
    reason = KNOWN_DIFFERENCES.get(case["id"])
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(case, id=case["id"], marks=marks)


def test_corpus_is_well_formed():
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids)) and len(ids) >= 430
    assert set(KNOWN_DIFFERENCES) <= set(ids)


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_case_matches_bash(case):
    stdout, exit_code, wrote_stderr = replay(case)
    want_stdout, want_code, want_stderr = expected(case)
    assert stdout == want_stdout, f"stdout differs for:\n{case['script']}"
    assert exit_code == want_code, f"exit code {exit_code}, bash gave {want_code}"
    assert wrote_stderr == want_stderr, "stderr was " + ("written" if wrote_stderr else "empty") + \
        ", bash's was " + ("written" if want_stderr else "empty")


def test_identical_share():
    """At least 98 % of the cases give exactly bash's outcome (known differences included)."""
    differing = []
    for case in CASES:
        try:
            same = replay(case) == expected(case)
        except Exception:  # a crash is one more differing case; its own test shows the traceback
            same = False
        if not same:
            differing.append(case["id"])
    share = 1 - len(differing) / len(CASES)
    assert share >= REQUIRED_SHARE, (
        f"{share:.1%} of {len(CASES)} cases identical (need {REQUIRED_SHARE:.0%}); "
        f"{len(differing)} differ, e.g. {', '.join(differing[:20])}")
