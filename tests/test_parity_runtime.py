"""Replay recorded upstream runtime behaviour: tool descriptions and whole executions."""
from __future__ import annotations

import asyncio
import base64
import re

import pytest

from onetool_wasm import CommandSpec, create_agent_cli, err, ok, ok_bytes
from onetool_wasm.testing import build_world
from onetool_wasm.vfs import MemoryVFS

from .corpus import (FINAL_NEWLINE_COMMANDS, UPSTREAM_COMMANDS, added_commands, by_path, load_json_files,
                     same_modulo_final_newline, require_corpus, skip_unimplemented, snapshot_world, upstream_clock)

require_corpus()

DESCRIPTIONS = load_json_files("runtime/descriptions")
EXECUTIONS = load_json_files("runtime/executions")

# The custom commands the recorder registered, rebuilt from their recorded outputs.
CUSTOM = {
    "echo": lambda ctx, args, stdin: ok(" ".join(args)),
    "fail": lambda ctx, args, stdin: err("fail: forced failure"),
    "burst": lambda ctx, args, stdin: ok("first line\nsecond line\nthird line"),
    "binary": lambda ctx, args, stdin: ok_bytes(b"\x00\x01\x02\x03"),
}


def custom_commands(names):
    return [CommandSpec(name=name, summary=f"custom {name}", usage=name, details=f"Examples:\n  {name}",
                        handler=CUSTOM[name]) for name in names or []]


def runtime_options(record):
    """The recorded runtime's options; our added built-ins are left out so listings compare."""
    selection = record.get("builtinCommands", {})
    if selection is not False:
        selection = {**selection, "excludeCommands": [*selection.get("excludeCommands", []), *added_commands()]}
    # The records are the upstream runtime's: its grammar is ours as grammar="strict".
    options = {"builtin_commands": selection, "grammar": "strict"}
    if "customCommands" in record:
        options["commands"] = custom_commands(record["customCommands"])
    if "outputLimits" in record:
        options["output_limits"] = record["outputLimits"]
    return options


@pytest.mark.parametrize("record", [r for _, r in DESCRIPTIONS], ids=[i for i, _ in DESCRIPTIONS])
def test_tool_description(record):
    skip_unimplemented(needed_builtins(record))
    async def describe():
        runtime = await create_agent_cli(vfs=MemoryVFS(), **runtime_options(record))
        return runtime.build_tool_description(record["variant"])

    assert asyncio.run(describe()) == record["description"]


def normalise_duration(text: str) -> str:
    return re.sub(r"\[exit:(\d+) \| [^\]]+\]", r"[exit:\1 | 0ms]", text)


def trace_as_recorded(trace):
    out = []
    for pipeline in trace:
        entry = {"relationFromPrevious": pipeline.relation_from_previous, "executed": pipeline.executed}
        if pipeline.executed:
            entry["exitCode"] = pipeline.exit_code
        else:
            entry["skippedReason"] = pipeline.skipped_reason
        entry["commands"] = [{"argv": list(c.argv), "stdinBytes": c.stdin_bytes, "stdoutBytes": c.stdout_bytes,
                              "stderr": c.stderr, "exitCode": c.exit_code, "contentType": c.content_type}
                             for c in pipeline.commands]
        out.append(entry)
    return out


def without_final_newlines(trace):
    """Byte counts with the newline our line-oriented commands add (docs/DIFFERENCES.md) set aside:
    a stage's stdoutBytes, and the next stage's stdinBytes, lose one where the command is one of them."""
    out = []
    for pipeline in trace:
        commands, carried = [], 0
        for command in pipeline["commands"]:
            adds = command["argv"][0] in FINAL_NEWLINE_COMMANDS
            commands.append({**command, "stdinBytes": command["stdinBytes"] - carried,
                             "stdoutBytes": command["stdoutBytes"] - adds if command["stdoutBytes"] else 0})
            carried = adds if command["stdoutBytes"] else 0
        out.append({**pipeline, "commands": commands})
    return out


def presentation_as_recorded(p):
    out = {"text": normalise_duration(p.text), "body": p.body, "stdoutMode": p.stdout_mode}
    for key, value in (("savedPath", p.saved_path), ("totalBytes", p.total_bytes), ("totalLines", p.total_lines)):
        if value is not None:
            out[key] = value
    return out


async def replay_execution(record):
    world = dict(record.get("world") or {})
    options = runtime_options(record)
    if "output_limits" in options:
        world["outputLimits"] = options.pop("output_limits")
    if "vfsResourcePolicy" in record:
        world["vfsResourcePolicy"] = record["vfsResourcePolicy"]
    runtime = await build_world(world, now_ms=upstream_clock(), **options)
    execution = await runtime.run_detailed(record["commandLine"])
    return runtime, execution


def needed_builtins(record) -> tuple[str, ...]:
    """The upstream built-ins a record relies on: all of them, unless it runs without built-ins."""
    return () if record.get("builtinCommands") is False else UPSTREAM_COMMANDS


@pytest.mark.parametrize("record", [r for _, r in EXECUTIONS], ids=[i for i, _ in EXECUTIONS])
def test_execution(record):
    skip_unimplemented(needed_builtins(record))
    runtime, execution = asyncio.run(replay_execution(record))
    expected = record["execution"]
    assert execution.exit_code == expected["exitCode"]
    last_command = execution.trace[-1].commands[-1].argv[0] if execution.trace and execution.trace[-1].commands else ""
    assert same_modulo_final_newline(last_command, execution.stdout, base64.b64decode(expected["stdout_b64"]))
    assert execution.stderr == expected["stderr"]
    assert execution.content_type == expected["contentType"]
    assert without_final_newlines(trace_as_recorded(execution.trace)) == expected["trace"]
    assert presentation_as_recorded(execution.presentation) == expected["presentation"]
    after = asyncio.run(snapshot_world(runtime.ctx.vfs, runtime.ctx.memory))
    assert by_path(after["files"]) == by_path(record["worldAfter"]["files"])
