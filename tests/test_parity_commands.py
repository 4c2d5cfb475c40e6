"""Replay every recorded upstream command invocation against our built-ins.

Each record: a world before, one command with args and stdin, the result, the world after.
Where we differ on purpose (DESIGN §4.2), the record id is listed in DELIBERATE_DIFFERENCES
with its reason, and the expected value is adjusted there, in one place.
"""
from __future__ import annotations

import asyncio
import base64
from datetime import timedelta, timezone

import pytest

from onetool_wasm.commands import create_command_registry, invoke_command
from onetool_wasm.memory import SimpleMemory
from onetool_wasm.testing import create_test_command_context
from onetool_wasm.testing.adapters import DemoFetch, DemoSearch
from onetool_wasm.testing.world import populate_vfs
from onetool_wasm.vfs import MemoryVFS

from .corpus import (UPSTREAM_COMMANDS, added_commands, by_path, same_modulo_final_newline, load_json_files, require_corpus, snapshot_world, unimplemented,
                     upstream_clock)

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
    "grep/conformance-help-entry": ("DESIGN §4.4: grep's added GNU flags are documented in its help", documents_more),
    "help/help-grep-detail": ("DESIGN §4.4: grep's added GNU flags are documented in its help", documents_more),
    "sed/conformance-help-entry": ("DESIGN §4.4: sed's added GNU commands are documented in its help", documents_more),
    "grep/invalid-grep-recursive-option": ("DESIGN §4.2 item 4: -R recurses as in GNU grep (here: no /logs)",
                                           grep_r_is_recursive),
}


def build_ctx(record):
    clock = upstream_clock()
    vfs = MemoryVFS(now_ms=clock, resource_policy=record.get("vfsResourcePolicy"))
    world = record.get("world") or {}
    memory = SimpleMemory(now_ms=clock)
    adapters = {}
    if world.get("searchDocs") is not None:
        adapters["search"] = DemoSearch(world["searchDocs"])
    if world.get("fetchResources") is not None:
        adapters["fetch"] = DemoFetch(world["fetchResources"])
    return vfs, memory, adapters, world


async def replay(record):
    vfs, memory, adapters, world = build_ctx(record)
    await populate_vfs(vfs, world.get("files") or {})
    for entry in world.get("memory") or []:
        memory.store(entry if isinstance(entry, str) else entry["text"])
    ctx = create_test_command_context(vfs=vfs, memory=memory, adapters=adapters,
                                      registry=create_command_registry(exclude_commands=added_commands()))
    ctx.timezone = RECORDED_ZONE
    spec = ctx.registry.get(record["command"])
    result = await invoke_command(spec, ctx, list(record["args"]), base64.b64decode(record.get("stdin_b64", "")))
    return result, await snapshot_world(vfs, memory)


def missing_commands(record) -> list[str]:
    needed = {record["command"], record.get("snapshotGroup", record["command"])}
    if record["command"] == "help":
        needed |= set(record["args"][:1]) & set(UPSTREAM_COMMANDS) if record["args"] else set(UPSTREAM_COMMANDS)
    return unimplemented(needed)


@pytest.mark.parametrize("record", [r for _, r in RECORDS], ids=[i for i, _ in RECORDS])
def test_command_record(record):
    missing = missing_commands(record)
    if missing:
        pytest.skip(f"not implemented yet: {', '.join(missing)}")
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
