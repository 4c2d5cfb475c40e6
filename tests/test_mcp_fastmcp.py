"""The MCP server driven by fastmcp's client, the other widely used Python MCP client (CPython
only: it spawns the server). fastmcp checks results its own way: it raises ToolError on an
`isError` result (unless raise_on_error=False), parses `structuredContent` through a type built
from the tool's `outputSchema` (`.data`, None when that fails), answers elicitation with a
handler whose form content it validates against the requested schema, and by default
(mode="auto") connects in the 2026-07-28 era, where a running tool cannot ask the client."""
from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from pathlib import Path

import pytest

from .helpers import arun

if sys.platform == "emscripten":
    pytest.skip("no subprocesses inside Pyodide: the MCP server is a CPython entry point", allow_module_level=True)

# Plain imports: the `test` extra installs fastmcp, so its absence is an error, not a skip.
import anyio  # noqa: E402
from fastmcp import Client  # noqa: E402
from fastmcp.client.elicitation import ElicitResult  # noqa: E402
from fastmcp.client.transports import ClientTransport, StdioTransport  # noqa: E402
from fastmcp.client.transports.base import TransportOptions  # noqa: E402
from fastmcp.exceptions import ToolError  # noqa: E402
from fastmcp.utilities.json_schema_type import json_schema_to_type_adapter  # noqa: E402
from mcp import MCPError  # noqa: E402
from mcp.shared.memory import create_client_server_memory_streams  # noqa: E402

from onetool_wasm import MemoryVFS, __version__, create_agent_cli  # noqa: E402
from onetool_wasm.mcp import OUTPUT_SCHEMA, build_server  # noqa: E402

from .test_mcp import _shop  # noqa: E402  (the provider the official-client layout tests use)

REPO = Path(__file__).resolve().parents[1]
MODERN = "2026-07-28"  # the era fastmcp's default mode="auto" adopts with this server
INVALID_PARAMS, CONNECTION_CLOSED, REQUEST_TIMEOUT = -32602, -32000, -32001


def stdio(root, *flags, env=None, log_file=None):
    """fastmcp's stdio transport spawning `python -m onetool_wasm --root ROOT mcp FLAGS`."""
    return StdioTransport(command=sys.executable, args=["-m", "onetool_wasm", "--root", str(root), "mcp", *flags],
                          env=env, cwd=str(REPO), keep_alive=False, log_file=log_file)


class InProcess(ClientTransport):
    """The server object that build_server returns, in this process. fastmcp's own in-memory
    transport (FastMCPTransport, what Client(server) infers) takes a FastMCP server or the
    SDK's MCPServer, not a low-level Server, so this does what it does for one."""

    def __init__(self, server) -> None:
        self.server = server

    @contextlib.asynccontextmanager
    async def connect_session(self, *, transport_options=None, **session_kwargs):
        options = transport_options or TransportOptions()
        async with create_client_server_memory_streams() as ((client_read, client_write), (server_read, server_write)):
            async with anyio.create_task_group() as group:
                group.start_soon(lambda: self.server.run(server_read, server_write,
                                                         self.server.create_initialization_options()))
                try:
                    async with options.session_class(read_stream=client_read, write_stream=client_write,
                                                     **session_kwargs) as session:
                        yield session
                finally:
                    group.cancel_scope.cancel()


def fastmcp_parses(schema, content):
    """What fastmcp's own output parsing makes of `content` (it raises when it does not fit)."""
    return json_schema_to_type_adapter(schema).validate_python(content)


def without_durations(content):
    """structuredContent with its timings checked (non-negative integers) and taken out."""
    assert isinstance(content["durationMs"], int) and content["durationMs"] >= 0
    pipelines = []
    for pipeline in content["pipeline"]:
        for command in pipeline["commands"]:
            assert isinstance(command["durationMs"], int) and command["durationMs"] >= 0
        pipelines.append({**pipeline, "commands": [{k: v for k, v in c.items() if k != "durationMs"}
                                                   for c in pipeline["commands"]]})
    return {**{k: v for k, v in content.items() if k != "durationMs"}, "pipeline": pipelines}


def step(argv, stdin, stdout, exit_code=0, stderr="", content_type="text/plain"):
    return {"argv": argv, "stdinBytes": stdin, "stdoutBytes": stdout, "stderr": stderr, "exitCode": exit_code,
            "contentType": content_type}


def plain(command_line, exit_code, pipeline, stderr="", content_type="text/plain", mode="plain", saved=None,
          total_bytes=None, total_lines=None):
    return {"commandLine": command_line, "exitCode": exit_code, "contentType": content_type, "stderr": stderr,
            "stdoutMode": mode, "savedPath": saved, "totalBytes": total_bytes, "totalLines": total_lines,
            "pipeline": pipeline}


def ran(exit_code, commands, relation=None):
    return {"relationFromPrevious": relation, "executed": True, "exitCode": exit_code, "skippedReason": None,
            "commands": commands}


# -- over stdio, fastmcp's defaults ----------------------------------------------------------------

def test_fastmcp_lists_run_with_its_schemas_and_parses_every_kind_of_result(tmp_path):
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n")
    lines = ["cat notes.txt | wc -l", "grep -q zeta notes.txt", "true; false && echo no || echo yes", "seq 1 500",
             "printf 'a\\000b'"]

    async def go():
        async with Client(stdio(tmp_path, "--max-lines", "50")) as client:
            tools = await client.list_tools()
            return client.session.protocol_version, tools, [await client.call_tool("run", {"command": line})
                                                              for line in lines]

    version, tools, (count, quiet, chain, long, binary) = arun(go())
    assert version == MODERN
    [tool] = tools
    assert tool.name == "run" and tool.description.startswith("Run bash command lines over registered commands")
    assert tool.input_schema["required"] == ["command"]
    assert tool.input_schema["properties"]["command"]["type"] == "string"
    assert tool.output_schema == OUTPUT_SCHEMA  # the schema fastmcp parses `.data` through

    assert (count.is_error, count.content[0].text.split("[exit:")[0]) == (False, "2\n\n")
    assert without_durations(count.structured_content) == plain("cat notes.txt | wc -l", 0, [
        ran(0, [step(["cat", "notes.txt"], 0, 11), step(["wc", "-l"], 11, 2)])])
    # fastmcp's own parse of structuredContent succeeded (on failure it logs and leaves None).
    data = count.data
    assert (data.commandLine, data.exitCode, data.stdoutMode, data.savedPath, data.totalLines) == (
        "cat notes.txt | wc -l", 0, "plain", None, None)
    assert [c.argv for c in data.pipeline[0].commands] == [["cat", "notes.txt"], ["wc", "-l"]]
    assert data.durationMs == count.structured_content["durationMs"]

    # A quiet non-zero status is an answer: no isError, so fastmcp does not raise.
    assert (quiet.is_error, quiet.content[0].text.split("[exit:")[0]) == (False, "")
    assert without_durations(quiet.structured_content) == plain("grep -q zeta notes.txt", 1, [
        ran(1, [step(["grep", "-q", "zeta", "notes.txt"], 0, 0, exit_code=1)])])
    assert quiet.data.exitCode == 1

    assert without_durations(chain.structured_content) == plain("true; false && echo no || echo yes", 0, [
        ran(0, [step(["true"], 0, 0)]), ran(1, [step(["false"], 0, 0, exit_code=1)], ";"),
        {"relationFromPrevious": "&&", "executed": False, "exitCode": None, "skippedReason": "previous_failed",
         "commands": []},
        ran(0, [step(["echo", "yes"], 0, 4)], "||")])
    assert [p.relationFromPrevious for p in chain.data.pipeline] == [None, ";", "&&", "||"]
    assert chain.data.pipeline[2].exitCode is None and chain.data.pipeline[2].executed is False

    assert without_durations(long.structured_content) == plain(
        "seq 1 500", 0, [ran(0, [step(["seq", "1", "500"], 0, 1892)])], mode="truncated",
        saved="/.system/cmd-output/cmd-0001.txt", total_bytes=1892, total_lines=500)
    assert (long.data.stdoutMode, long.data.savedPath, long.data.totalBytes) == (
        "truncated", "/.system/cmd-output/cmd-0001.txt", 1892)

    assert without_durations(binary.structured_content) == plain(
        "printf 'a\\000b'", 0, [ran(0, [step(["printf", "a\\000b"], 0, 3)])],
        content_type="application/octet-stream", mode="binary-guard", saved="/.system/cmd-output/cmd-0002.bin",
        total_bytes=3)
    assert (binary.data.stdoutMode, binary.data.totalLines) == ("binary-guard", None)


def test_an_is_error_result_raises_tool_error_with_the_text_block(tmp_path):
    lines = ["cat /missing", "nosuchcommand", "sleep 5"]

    async def go():
        async with Client(stdio(tmp_path, "--deadline-ms", "300")) as client:
            raised = []
            for line in lines:
                with pytest.raises(ToolError) as caught:
                    await client.call_tool("run", {"command": line})
                raised.append(str(caught.value))
            with pytest.raises(ToolError) as caught:
                await client.call_tool("run", {"cmd": "ls"})
            raised.append(str(caught.value))
            kept = [await client.call_tool("run", {"command": line}, raise_on_error=False) for line in lines]
            return raised, kept

    (missing, unknown, slow, no_command), (missing_result, unknown_result, slow_result) = arun(go())
    assert re.fullmatch(r"\[error\] cat: /missing: No such file or directory\n\n\[exit:1 \| \d+ms\]", missing)
    assert unknown.startswith("[error] bash: line 1: nosuchcommand: command not found")
    assert slow.startswith("[error] the run took longer than its 0.3 s limit and was stopped.")
    assert no_command == "run needs a string argument 'command' (the command line to run)"

    # raise_on_error=False: the result, with its structuredContent; fastmcp parses `.data` only for
    # results that are not errors, so its parser is asked directly here.
    assert (missing_result.is_error, missing_result.data) == (True, None)
    assert missing_result.content[0].text.startswith("[error] cat: /missing: No such file or directory\n\n")
    assert without_durations(missing_result.structured_content) == plain("cat /missing", 1, [
        ran(1, [step(["cat", "/missing"], 0, 0, exit_code=1, stderr="cat: /missing: No such file or directory")])],
        stderr="cat: /missing: No such file or directory")
    assert (unknown_result.is_error, unknown_result.structured_content["exitCode"]) == (True, 127)
    assert slow_result.is_error is True
    assert {k: slow_result.structured_content[k] for k in ("exitCode", "pipeline")} == {
        "exitCode": 124, "pipeline": [{"relationFromPrevious": None, "executed": True, "exitCode": None,
                                       "skippedReason": None, "commands": []}]}
    for result in (missing_result, unknown_result, slow_result):
        parsed = fastmcp_parses(OUTPUT_SCHEMA, result.structured_content)
        assert parsed.exitCode == result.structured_content["exitCode"]


def test_an_unknown_tool_is_an_mcp_error_and_a_timeout_stops_the_run(tmp_path):
    async def go():
        async with Client(stdio(tmp_path), mode="legacy") as client:
            info = client.initialize_result
            pong = await client.ping()
            with pytest.raises(MCPError) as unknown:
                await client.call_tool("nope", {})
            started = time.perf_counter()
            with pytest.raises(MCPError) as timed_out:
                await client.call_tool("run", {"command": "while true; do :; done"}, timeout=1)
            # Runs are one at a time: this answers only once the timed-out loop has stopped.
            after = await client.call_tool("run", {"command": "echo after"})
            return info, pong, unknown.value, timed_out.value, after, time.perf_counter() - started

    info, pong, unknown, timed_out, after, took = arun(go())
    assert (info.server_info.name, info.server_info.version) == ("onetool-wasm", __version__)
    assert pong is True
    # A JSON-RPC error, not a tool result: MCPError with the server's code and message, not ToolError.
    assert not isinstance(unknown, ToolError)
    assert (unknown.error.code, unknown.error.message) == (
        INVALID_PARAMS, "unknown tool: nope; this server has one tool, run")
    assert (timed_out.error.code, timed_out.error.message) == (REQUEST_TIMEOUT, "Request 'tools/call' timed out")
    assert after.content[0].text.startswith("after\n\n[exit:0 | ")
    assert took < 10  # the server's deadline is 30 s: the loop stopped because the call was cancelled


def test_a_server_that_exits_at_once_is_a_closed_connection_and_its_reason_is_in_the_log(tmp_path):
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "mcp.py").write_text("raise ImportError('No module named mcp (blocked for this test)')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(blocker), str(REPO)])}
    log = tmp_path / "server-stderr.txt"

    async def go():
        with pytest.raises(MCPError) as caught:
            async with Client(stdio(tmp_path, env=env, log_file=log), init_timeout=30):
                pass
        return caught.value

    started = time.perf_counter()
    error = arun(go())
    assert (error.error.code, error.error.message) == (CONNECTION_CLOSED, "Connection closed")
    assert time.perf_counter() - started < 20  # reported, not waited out
    assert log.read_text().startswith("onetool-wasm mcp: the MCP server needs the official MCP SDK: "
                                      "pip install 'onetool-wasm[mcp]'")


# -- consent through fastmcp's elicitation_handler ------------------------------------------------------

def consent_run(policy, handler=None, mode="legacy", command="rm /x"):
    """`command` through build_server in-process with fastmcp's client; the result and whether
    /x survived."""
    async def go():
        vfs = MemoryVFS()
        await vfs.write_bytes("/x", b"data")
        runtime = await create_agent_cli(vfs=vfs, policy=policy)
        options = {"elicitation_handler": handler} if handler else {}
        async with Client(InProcess(build_server(runtime)), mode=mode, **options) as client:
            result = await client.call_tool("run", {"command": command}, raise_on_error=False)
        return result, await vfs.exists("/x")

    return arun(go())


DECLINED = "[error] rm: fs:rm was declined by the user; nothing was run\n\n"
NO_ONE = ('[error] rm: fs:rm needs confirmation (matches confirm pattern "fs:rm") but no one could confirm it; '
          "nothing was run\n\n")


def test_an_approval_through_the_elicitation_handler_runs_the_command():
    asked = []

    async def approve(message, response_type, params, context):
        asked.append((message, params.requested_schema))
        return {"approve": True}  # plain data: fastmcp sends it as an "accept"

    result, exists = consent_run({"confirm": ["fs:rm"]}, approve)
    assert (result.is_error, exists) == (False, False)
    assert result.content[0].text.startswith("[exit:0 | ")
    [(message, schema)] = asked
    assert message == ('Allow fs:rm (write)?\nDelete a file or directory recursively.\n'
                       'Reason: matches confirm pattern "fs:rm"\nCommand: rm /x')
    assert schema == {"type": "object", "required": ["approve"], "properties": {
        "approve": {"type": "boolean", "title": "Allow fs:rm?", "default": False}}}

    async def approve_typed(message, response_type, params, context):
        return response_type(approve=True)  # the type fastmcp built from the requested schema

    result, exists = consent_run({"confirm": ["fs:rm"]}, approve_typed)
    assert (result.is_error, exists) == (False, False)


def test_a_declined_or_refused_elicitation_runs_nothing():
    async def decline(message, response_type, params, context):
        return ElicitResult(action="decline")

    async def cancel(message, response_type, params, context):
        return ElicitResult(action="cancel")

    async def unticked(message, response_type, params, context):
        return {"approve": False}

    async def not_a_form(message, response_type, params, context):
        return {"approve": "yes"}  # fastmcp checks it against the schema and answers an error

    for handler in (decline, cancel, unticked, not_a_form):
        result, exists = consent_run({"confirm": ["fs:rm"]}, handler)
        assert (result.is_error, exists) == (True, True), handler.__name__
        text = result.content[0].text
        if handler is not_a_form:
            assert text.startswith("[error] rm: fs:rm was declined by the user (confirm failed (MCPError)); "
                                   "nothing was run\n\n")
        else:
            assert text.startswith(DECLINED), handler.__name__


def test_without_a_handler_or_in_fastmcps_default_mode_on_no_confirm_decides():
    # No elicitation_handler: the client does not declare elicitation, consent is unavailable.
    result, exists = consent_run({"confirm": ["fs:rm"]})
    assert (result.is_error, exists) == (True, True) and result.content[0].text.startswith(NO_ONE)
    result, exists = consent_run({"confirm": ["fs:rm"], "onNoConfirm": "allow"})
    assert (result.is_error, exists) == (False, False)

    # fastmcp's default mode="auto" adopts 2026-07-28, where a running tool cannot send a
    # request to the client: the handler is never called, and on_no_confirm decides.
    async def never(message, response_type, params, context):
        raise AssertionError("a 2026-07-28 connection cannot be asked from a running tool")

    result, exists = consent_run({"confirm": ["fs:rm"]}, never, mode="auto")
    assert (result.is_error, exists) == (True, True) and result.content[0].text.startswith(NO_ONE)
    result, exists = consent_run({"confirm": ["fs:rm"], "onNoConfirm": "allow"}, never, mode="auto")
    assert (result.is_error, exists) == (False, False)


def test_consent_over_stdio_asks_in_legacy_mode_and_answers_per_request(tmp_path):
    (tmp_path / "a.txt").write_text("a")
    (tmp_path / "b.txt").write_text("b")
    asked = []

    async def only_a(message, response_type, params, context):
        asked.append(message.splitlines()[-1])
        return {"approve": message.endswith("rm a.txt")}

    async def go():
        async with Client(stdio(tmp_path, "--policy", '{"confirm": ["fs:rm"]}'), mode="legacy",
                          elicitation_handler=only_a) as client:
            return [await client.call_tool("run", {"command": line}, raise_on_error=False)
                    for line in ("rm a.txt", "rm b.txt")]

    removed, kept = arun(go())
    assert asked == ["Command: rm a.txt", "Command: rm b.txt"]
    assert (removed.is_error, kept.is_error) == (False, True)
    assert kept.content[0].text.startswith(DECLINED)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["b.txt"]


# -- the operations as typed tools (layouts) --------------------------------------------------------------

def layout_session(layout, calls, providers, policy=None, handler=None, mode="legacy"):
    """The tools of build_server(runtime, layout=...) in-process, and `calls` made with fastmcp
    (each a result, or the exception fastmcp raised)."""
    async def go():
        runtime = await create_agent_cli(providers=providers, policy=policy)
        options = {"elicitation_handler": handler} if handler else {}
        async with Client(InProcess(build_server(runtime, layout=layout)), mode=mode, **options) as client:
            tools = await client.list_tools()
            results = []
            for name, arguments in calls:
                try:
                    results.append(await client.call_tool(name, arguments))
                except (ToolError, MCPError) as error:
                    results.append(error)
            return tools, results

    return arun(go())


def test_a_flat_layout_lists_one_tool_per_operation_and_fastmcp_parses_their_results():
    log = []
    tools, (item, token, command, unasked, unknown) = layout_session("flat", [
        ("shop__getItem", {"id": 3}), ("shop__getToken", {}), ("run", {"command": "shop getItem id=3"}),
        ("shop__deleteItem", {"id": 1}), ("nope", {})], [_shop(log)])
    assert [tool.name for tool in tools] == ["run", "shop__getItem", "shop__deleteItem", "shop__getToken"]
    by_name = {tool.name: tool for tool in tools}
    assert by_name["shop__getItem"].output_schema == {
        "type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
        "required": ["id", "name"]}
    assert by_name["shop__getItem"].input_schema["required"] == ["id"]
    assert (by_name["shop__getItem"].annotations.read_only_hint, by_name["shop__deleteItem"].annotations.read_only_hint,
            by_name["shop__deleteItem"].output_schema) == (True, False, None)

    assert (item.is_error, item.structured_content) == (False, {"id": 3, "name": "pen"})
    assert (item.data.id, item.data.name) == (3, "pen")  # parsed through the operation's output schema
    assert item.content[0].text == '{\n  "id": 3,\n  "name": "pen"\n}\n'
    assert token.data == {"note": "key **REDACTED**"}  # no output schema: the object as it came
    assert command.content[0].text.startswith(item.content[0].text)
    assert (command.data.commandLine, command.data.contentType) == ("shop getItem id=3", "application/json")

    assert isinstance(unasked, ToolError)
    assert str(unasked) == "shop:deleteItem needs confirmation (write operation) but no one could confirm it; nothing was run"
    assert isinstance(unknown, MCPError) and not isinstance(unknown, ToolError)
    assert (unknown.error.code, unknown.error.message) == (
        INVALID_PARAMS, "unknown tool: nope; this server's tools are run, shop__getItem, shop__deleteItem, shop__getToken")
    assert log == []


def test_a_layout_tool_takes_edited_input_from_the_form_and_refuses_an_invalid_edit():
    log, asked = [], []

    async def edit(message, response_type, params, context):
        asked.append(params.requested_schema)
        return {"approve": True, "id": 9}

    _, (edited,) = layout_session("flat", [("shop__deleteItem", {"id": 1})], [_shop(log)], handler=edit)
    assert asked == [{"type": "object", "required": ["approve"], "properties": {
        "approve": {"type": "boolean", "title": "Allow shop:deleteItem?", "default": False},
        "id": {"type": "integer", "default": 1}}}]
    assert (edited.is_error, edited.structured_content, edited.data) == (False, {"deleted": 9}, {"deleted": 9})
    assert log == [{"id": 9}]

    async def bad_edit(message, response_type, params, context):
        return {"approve": True, "id": "nine"}  # fastmcp refuses it against the form's schema

    _, (refused,) = layout_session("flat", [("shop__deleteItem", {"id": 1})], [_shop(log)], handler=bad_edit)
    assert isinstance(refused, ToolError)
    assert str(refused) == "shop:deleteItem was declined by the user (confirm failed (MCPError)); nothing was run"
    assert log == [{"id": 9}]


def test_a_generic_layout_routes_call_operation_and_fastmcp_parses_the_catalog_tools():
    from onetool_wasm.catalog import FunctionProvider

    many = FunctionProvider("misc", [{"name": f"getThing{n}", "kind": "read", "handler": lambda i, n=n: {"n": n}}
                                     for n in range(31)])
    tools, (listed, described, called) = layout_session("auto", [
        ("list_operations", {"query": "getThing30"}), ("describe_operation", {"operation": "misc:getThing30"}),
        ("call_operation", {"operation": "misc:getThing30"})], [many])
    assert [tool.name for tool in tools] == ["run", "list_operations", "describe_operation", "call_operation"]
    assert [(op.operation, op.kind, op.verdict) for op in listed.data.operations] == [
        ("misc:getThing30", "read", "allow")]
    assert (listed.data.services[0].namespace, listed.data.services[0].operations) == ("misc", 31)
    assert (described.data.ref, described.data.verdict, described.data.example) == (
        "misc:getThing30", "allow", "api call misc:getThing30")
    assert called.data == {"n": 30}


def test_the_cli_serves_another_servers_tools_in_a_flat_layout_to_fastmcp(tmp_path):
    # python -m onetool_wasm --root DIR mcp --layout flat --mcp-server notes='python server.py'
    server_script = Path(__file__).parent / "data" / "mcp_notes_server.py"

    async def go():
        async with Client(stdio(tmp_path, "--layout", "flat", "--mcp-server",
                                f"notes={sys.executable} {server_script}")) as client:
            tools = await client.list_tools()
            note = await client.call_tool("notes__read_note", {"name": "todo"})
            with pytest.raises(ToolError) as missing:
                await client.call_tool("notes__read_note", {"name": "nope"})
            via_shell = await client.call_tool("run", {"command": "notes read_note name=todo"})
            return {tool.name: tool for tool in tools}, note, str(missing.value), via_shell

    tools, note, missing, via_shell = arun(go())
    assert list(tools)[0] == "run" and {"notes__read_note", "notes__delete_note"} <= set(tools)
    assert tools["notes__read_note"].output_schema["properties"]["text"] == {"title": "Text", "type": "string"}
    assert (note.is_error, note.data.name, note.data.text) == (False, "todo", "buy milk")
    assert isinstance(note.data.pid, int)
    assert "no note named nope" in missing
    assert via_shell.is_error is False and "buy milk" in via_shell.content[0].text


def test_a_wrapped_output_schema_keeps_its_local_refs_resolvable():
    from onetool_wasm.catalog import FunctionProvider

    pets = FunctionProvider("pets", [{
        "name": "listPets", "summary": "List pets", "kind": "read", "handler": lambda i: [{"id": 1, "name": "Rex"}],
        "output_schema": {"type": "array", "items": {"$ref": "#/$defs/Pet"}, "$defs": {"Pet": {
            "type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
            "required": ["id"]}}}}])
    _, (listed,) = layout_session("flat", [("pets__listPets", {})], [pets])
    assert listed.structured_content == {"result": [{"id": 1, "name": "Rex"}]}
    assert listed.data.result[0].id == 1
