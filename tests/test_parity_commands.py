"""Replay every recorded upstream command invocation against our built-ins.

Each record: a world before, one command with args and stdin, the result, the world after.
Where we differ on purpose (docs/DIFFERENCES.md), the record id is listed in DELIBERATE_DIFFERENCES
with its reason, and the expected value is adjusted there, in one place.
"""
from __future__ import annotations

import asyncio
import base64
from datetime import timedelta, timezone

import pytest

from onetool_wasm.commands import create_command_registry, invoke_command
from onetool_wasm.testing import create_test_command_context
from onetool_wasm.testing.world import seed_world

from .corpus import (UPSTREAM_COMMANDS, added_commands, by_path, load_json_files, require_corpus,
                     same_modulo_final_newline, skip_unimplemented, snapshot_world, upstream_clock)

require_corpus()

RECORDS = load_json_files("commands")

# The recorder's local zone (diff -u headers print local times).
RECORDED_ZONE = timezone(timedelta(hours=3))



def documents_more(record, result):
    """Help that keeps upstream's summary, usage and examples, with added features documented."""
    recorded = base64.b64decode(record["result"]["stdout_b64"]).decode()
    head, _, examples = recorded.partition("Examples:\n")
    text = result.stdout.decode()
    assert text.startswith(head.split("\n\n")[0] + "\n\n") and result.exit_code == 0
    assert all(line in text for line in examples.splitlines())


def grep_r_is_recursive(record, result):
    assert (result.stderr, result.exit_code) == ("grep: file not found: /logs. Use: ls /", 2)


# record id -> (reason, the check of our behaviour). Keep this short.
DELIBERATE_DIFFERENCES = {
    "grep/conformance-help-entry": ("docs/DIFFERENCES.md: grep's added GNU flags are documented in its help", documents_more),
    "help/help-grep-detail": ("docs/DIFFERENCES.md: grep's added GNU flags are documented in its help", documents_more),
    "sed/conformance-help-entry": ("docs/DIFFERENCES.md: sed's added GNU commands are documented in its help", documents_more),
    "grep/invalid-grep-recursive-option": ("docs/DIFFERENCES.md item 13: -R recurses as in GNU grep (here: no /logs)",
                                           grep_r_is_recursive),
}


async def replay(record):
    vfs, memory, adapters = await seed_world(record.get("world") or {}, now_ms=upstream_clock(),
                                             resource_policy=record.get("vfsResourcePolicy"))
    ctx = create_test_command_context(vfs=vfs, memory=memory, adapters=adapters,
                                      registry=create_command_registry(exclude_commands=added_commands()))
    ctx.timezone = RECORDED_ZONE
    spec = ctx.registry.get(record["command"])
    result = await invoke_command(spec, ctx, list(record["args"]), base64.b64decode(record.get("stdin_b64", "")))
    return result, await snapshot_world(vfs, memory)


def needed_commands(record) -> set[str]:
    needed = {record["command"], record.get("snapshotGroup", record["command"])}
    if record["command"] == "help":
        needed |= set(record["args"][:1]) & set(UPSTREAM_COMMANDS) if record["args"] else set(UPSTREAM_COMMANDS)
    return needed


@pytest.mark.parametrize("record", [r for _, r in RECORDS], ids=[i for i, _ in RECORDS])
def test_command_record(record):
    skip_unimplemented(needed_commands(record))
    result, after = asyncio.run(replay(record))
    record_id = f"{record.get('snapshotGroup', record['command'])}/{record['id']}"
    if record_id in DELIBERATE_DIFFERENCES:
        DELIBERATE_DIFFERENCES[record_id][1](record, result)
        return
    expected = record["result"]
    command = record.get("snapshotGroup", "help") if record["command"] == "help" else record["command"]
    assert same_modulo_final_newline(command, result.stdout, base64.b64decode(expected["stdout_b64"])), \
        (result.stdout, expected.get("stdout_text"))
    assert (result.stderr, result.exit_code, result.content_type) == \
        (expected["stderr"], expected["exitCode"], expected["contentType"])
    assert by_path(after["files"]) == by_path(record["worldAfter"]["files"])
    assert after["memory"] == record["worldAfter"]["memory"]
