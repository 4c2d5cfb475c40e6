"""McpProvider: another MCP server's tools as operations behind `api` (a real server subprocess:
tests/data/mcp_notes_server.py, built with the official SDK's MCPServer)."""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from .helpers import arun, zero_duration

if sys.platform == "emscripten":
    pytest.skip("no subprocesses inside Pyodide: McpProvider runs its server over stdio", allow_module_level=True)
mcp = pytest.importorskip("mcp", reason="the MCP client is not installed (pip install 'onetool-wasm[test]')")

from onetool_wasm import create_agent_cli  # noqa: E402
from onetool_wasm.catalog import McpProvider, McpUnavailable, OperationError, OperationTools  # noqa: E402

SERVER = str(Path(__file__).resolve().parent / "data" / "mcp_notes_server.py")
START = 120.0  # seconds a server may take to start on a busy machine (importing the SDK is slow)


def notes(*flags, **options):
    return McpProvider("notes", sys.executable, [SERVER, *flags], connect_timeout=START, **options)


@pytest.fixture(scope="module")
def provider():
    with notes(secrets=["s3cr3t-value"]) as value:
        yield value


def runtime_with(provider, **options):
    return arun(create_agent_cli(providers=[provider], **options))


def run(runtime, line):
    return zero_duration(arun(runtime.run(line)))


async def close_runtime(runtime):
    """Close the runtime; until AgentCLI has aclose(), close its operations."""
    closer = getattr(runtime, "aclose", None)
    if closer is not None:
        await closer()
    else:
        await runtime.ctx.operations.aclose()


def test_tools_become_operations_with_kinds_from_their_annotations(provider):
    read, delete = provider.operations
    assert (read.ref, read.kind, read.summary) == ("notes:read_note", "read", "Read one note by name.")
    assert read.description.startswith("Read one note by name.\n")
    assert read.input_schema["required"] == ["name"]
    assert read.output_schema["required"] == ["name", "text", "pid"]
    assert (delete.ref, delete.kind, delete.summary) == ("notes:delete_note", "sensitive", "Delete a note for good.")
    assert provider.summary == "Notes kept by a test server."  # the server's instructions


def test_calls_through_api_and_the_namespace_command(provider):
    runtime = runtime_with(provider)
    via_api = json.loads(run(runtime, "api call notes:read_note name=todo").rsplit("\n\n[exit", 1)[0])
    via_namespace = json.loads(run(runtime, "notes read_note '{\"name\": \"todo\"}'").rsplit("\n\n[exit", 1)[0])
    assert via_api == via_namespace
    assert (via_api["name"], via_api["text"]) == ("todo", "buy milk") and via_api["pid"] != os.getpid()
    assert run(runtime, "notes read_note name=todo | json get text") == "buy milk\n\n[exit:0 | 0ms]"
    assert run(runtime, "api operations notes") == (
        "notes operations:\n"
        "  notes:read_note    read      — Read one note by name.\n"
        "  notes:delete_note  sensitive — Delete a note for good. (needs confirmation)\n\n"
        "Use: api describe <namespace:operation>\n"
        "Call: api call <namespace:operation> [json | key=value ...]\n\n[exit:0 | 0ms]")


def test_a_tool_error_and_invalid_input_are_reported(provider):
    runtime = runtime_with(provider)
    assert run(runtime, "notes read_note name=nope") == (
        "[error] notes: notes:read_note failed: Error executing tool read_note: no note named nope\n\n[exit:1 | 0ms]")
    assert run(runtime, "notes read_note").startswith(
        "[error] notes: invalid input for notes:read_note (1 problem):\n  - at /: 'name' is a required property")


def test_secrets_of_the_provider_are_redacted(provider):
    out = run(runtime_with(provider), "notes read_note name=secret")
    assert "s3cr3t-value" not in out and "**REDACTED**" in out


def test_the_destructive_tool_needs_confirmation(provider):
    asked = []
    declined = runtime_with(provider, confirm=lambda request: asked.append(request.ref) or "declined")
    assert run(declined, "notes delete_note name=todo") == (
        "[error] notes: notes:delete_note was declined by the user; nothing was run\n\n[exit:1 | 0ms]")
    assert run(declined, "notes read_note name=todo").startswith('{\n  "name": "todo"')  # still there
    nobody = runtime_with(provider)
    assert run(nobody, "api call notes:delete_note name=todo").startswith(
        "[error] api: notes:delete_note needs confirmation (sensitive operation) but no one could confirm it")
    denied = runtime_with(provider, policy={"deny": ["notes:delete*"]})
    assert "denied by policy" in run(denied, "notes delete_note name=todo")
    approved = runtime_with(provider, confirm=lambda request: asked.append(request.ref) or "approved")
    assert run(approved, "notes delete_note name=todo") == (
        '{\n  "deleted": "todo",\n  "remaining": 1\n}\n\n[exit:0 | 0ms]')
    assert asked == ["notes:delete_note", "notes:delete_note"]
    assert "no note named todo" in run(approved, "notes read_note name=todo")


def test_structured_results_through_a_flat_layout(provider):
    runtime = runtime_with(provider)
    tools = OperationTools.for_runtime(runtime, "flat")
    assert tools.names() == ["notes__read_note", "notes__delete_note"]
    [read, delete] = tools.definitions("mcp")
    assert read["outputSchema"] == provider.get("read_note").output_schema
    assert read["annotations"] == {"title": "notes:read_note", "readOnlyHint": True}
    assert delete["annotations"] == {"title": "notes:delete_note", "readOnlyHint": False, "destructiveHint": True}
    result = arun(tools.handle_tool("notes__read_note", {"name": "secret"}))
    assert result.is_error is False
    assert result.structured == {"name": "secret", "text": "the key is **REDACTED**", "pid": result.structured["pid"]}


def test_the_server_process_ends_when_the_runtime_is_closed():
    provider = notes()
    runtime = runtime_with(provider)
    pid = json.loads(run(runtime, "notes read_note name=todo").rsplit("\n\n[exit", 1)[0])["pid"]
    assert process_alive(pid)
    arun(close_runtime(runtime))
    assert provider.closed
    deadline = time.monotonic() + 15
    while process_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not process_alive(pid)
    assert run(runtime, "notes read_note name=todo").startswith(
        f"[error] notes: notes:read_note failed: MCP server notes ({sys.executable} {SERVER}) is closed")


def process_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_server_that_crashes_during_a_call_gives_a_clear_error():
    with notes("--crash-on-delete") as provider:
        runtime = runtime_with(provider, confirm=lambda request: "approved")
        crashed = run(runtime, "notes delete_note name=todo")
        assert crashed.startswith(f"[error] notes: notes:delete_note failed: MCP server notes ({sys.executable} "
                                  f"{SERVER} --crash-on-delete) exited during the call to delete_note "
                                  "(the connection closed)\nServer stderr:\nnotes server: segfault while deleting")
        after = run(runtime, "notes read_note name=todo")
        assert "is not running (it exited or crashed)" in after


def test_a_server_that_crashes_on_start_gives_a_clear_error():
    with pytest.raises(OperationError) as error:
        notes("--crash-on-start")
    assert str(error.value) == (
        f"MCP server notes ({sys.executable} {SERVER} --crash-on-start) could not start: the server closed the "
        "connection (it exited or crashed)\nServer stderr:\nnotes server: cannot open the notes database")


def test_a_missing_command_gives_a_clear_error():
    with pytest.raises(OperationError, match="MCP server notes \\(/no/such/server\\) could not start: "):
        McpProvider("notes", "/no/such/server", connect_timeout=START)


def test_pyodide_says_stdio_needs_a_subprocess(monkeypatch):
    monkeypatch.setattr(sys, "platform", "emscripten")
    with pytest.raises(McpUnavailable, match="Pyodide cannot start processes; connect to a server over "
                                             "streamable HTTP instead"):
        McpProvider("notes", sys.executable, [SERVER])
