"""The MCP stdio server, driven by the official MCP client (CPython only: it spawns a process)."""
from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .helpers import arun

if sys.platform == "emscripten":
    pytest.skip("no subprocesses inside Pyodide: the MCP server is a CPython entry point", allow_module_level=True)
mcp = pytest.importorskip("mcp", reason="the MCP client is not installed (pip install 'onetool-wasm[test]')")


def serve_and_call(root, *flags, commands=("cat /notes.txt | wc -l", "cat /missing.txt")):
    """Start `python -m onetool_wasm [flags] --root ROOT mcp`, list its tools, call `run`."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "onetool_wasm", *flags, "--root", str(root), "mcp"])

    async def session_calls():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = await session.list_tools()
                results = [await session.call_tool("run", {"command": line}) for line in commands]
                return tools, results

    return arun(session_calls())


def test_mcp_server_lists_the_run_tool_and_runs_commands(tmp_path):
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n")
    tools, (good, bad, loop) = serve_and_call(tmp_path, commands=(
        "cat /notes.txt | wc -l", "cat /missing.txt", "for f in *.txt; do echo \"$f: $(wc -l < $f)\"; done"))
    assert [tool.name for tool in tools.tools] == ["run"]
    assert tools.tools[0].input_schema["required"] == ["command"]
    assert tools.tools[0].description.startswith("Run bash command lines over registered commands")
    assert good.is_error is False
    assert good.content[0].text.startswith("2\n\n[exit:0 | ")
    assert bad.is_error is True  # a non-zero status with an error message
    assert bad.content[0].text.startswith("[error] cat: /missing.txt: No such file or directory\n\n[exit:1 | ")
    assert loop.content[0].text.startswith("notes.txt: 2\n\n[exit:0 | ")


def test_mcp_server_speaks_the_strict_grammar_when_asked(tmp_path):
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n")
    tools, (good, bad) = serve_and_call(tmp_path, "--grammar", "strict")
    assert tools.tools[0].description.startswith("Run CLI-style commands over registered tools")
    assert good.content[0].text.startswith("2\n\n[exit:0 | ")
    assert bad.content[0].text.startswith("[error] cat: file not found: /missing.txt. Use: ls /\n\n[exit:1 | ")


def test_results_carry_structured_content_and_is_error_means_an_error(tmp_path):
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n")
    tools, (count, quiet, failed, missing) = serve_and_call(tmp_path, commands=(
        "cat notes.txt | wc -l", "grep -q zeta notes.txt", "cat nope.txt", "nosuchcommand"))
    schema = tools.tools[0].output_schema
    assert schema["required"] == ["commandLine", "exitCode", "durationMs", "contentType", "stderr", "stdoutMode",
                                  "pipeline"]
    data = count.structured_content
    assert {k: data[k] for k in ("commandLine", "exitCode", "contentType", "stderr", "stdoutMode", "savedPath")} == {
        "commandLine": "cat notes.txt | wc -l", "exitCode": 0, "contentType": "text/plain", "stderr": "",
        "stdoutMode": "plain", "savedPath": None}
    [pipeline] = data["pipeline"]
    assert pipeline["relationFromPrevious"] is None and pipeline["executed"] is True
    assert [(c["argv"], c["stdoutBytes"]) for c in pipeline["commands"]] == [(["cat", "notes.txt"], 11), (["wc", "-l"], 2)]
    assert all(isinstance(c["durationMs"], int) for c in pipeline["commands"])
    # A quiet non-zero status is an answer; one with an error message, or 127, is an error.
    assert (quiet.is_error, quiet.structured_content["exitCode"]) == (False, 1)
    assert (failed.is_error, failed.structured_content["exitCode"]) == (True, 1)
    assert (missing.is_error, missing.structured_content["exitCode"]) == (True, 127)


def test_an_unknown_tool_is_a_protocol_error_and_the_server_says_its_version(tmp_path):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.shared.exceptions import MCPError

    from onetool_wasm import __version__

    params = StdioServerParameters(command=sys.executable, args=["-m", "onetool_wasm", "--root", str(tmp_path), "mcp"])

    async def go():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                info = await session.initialize()
                with pytest.raises(MCPError, match="unknown tool: nope; this server has one tool, run"):
                    await session.call_tool("nope", {})
                return info

    info = arun(go())
    assert (info.server_info.name, info.server_info.version) == ("onetool-wasm", __version__)


class RawClient:
    """The server as a process we write raw lines to, to see exactly what it answers."""

    def __init__(self, root: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
        self.process = subprocess.Popen([sys.executable, "-m", "onetool_wasm", "--root", str(root), "mcp"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env=env)
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "raw", "version": "1"}}})
        assert self.receive(timeout=30)["id"] == 0
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message) -> None:
        line = message if isinstance(message, str) else json.dumps(message)
        self.process.stdin.write(line.encode("utf-8", "surrogatepass") + b"\n")
        self.process.stdin.flush()

    def receive(self, timeout: float = 10) -> dict:
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        assert ready, f"no answer within {timeout} s"
        return json.loads(self.process.stdout.readline())

    def close(self) -> float:
        """Close stdin; how long the server took to exit."""
        started = time.perf_counter()
        self.process.stdin.close()
        self.process.wait(timeout=15)
        return time.perf_counter() - started


@pytest.fixture
def raw(tmp_path):
    client = RawClient(tmp_path)
    yield client
    if client.process.poll() is None:
        client.process.kill()


MALFORMED = [
    ("{not json", None, -32700),
    ('[{"jsonrpc":"2.0","id":3,"method":"ping"}]', None, -32600),
    ('{"jsonrpc":"1.0","id":4,"method":"ping"}', 4, -32600),
    ('{"jsonrpc":"2.0","id":null,"method":"ping"}', None, -32600),
    ('{"jsonrpc":"2.0","id":1.5,"method":"ping"}', None, -32600),
    ('{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', None, -32600),
    ('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":["run"]}', 5, -32602),
    ('{"jsonrpc":"2.0","id":6,"method":7}', 6, -32600),
    ('"just a string"', None, -32600),
    ('{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"run","arguments":{"command":'
     + "[" * 1000 + "]" * 1000 + "}}}", 8, -32600),
    ('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":' + "[" * 100_000 + "]" * 100_000 + "}", 9, -32600),
    ('{"jsonrpc":"2.0","id":10,"method":"no/such/method"}', 10, -32601),
]


def test_every_malformed_request_gets_a_json_rpc_error(raw):
    for line, request_id, code in MALFORMED:
        raw.send(line)
        answer = raw.receive()
        assert (answer["id"], answer["error"]["code"]) == (request_id, code), line[:60]
    raw.send({"jsonrpc": "2.0", "id": 11, "method": "ping"})
    assert raw.receive() == {"jsonrpc": "2.0", "id": 11, "result": {}}


def test_a_lone_surrogate_in_a_command_is_replaced_not_dropped(raw):
    raw.send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run","arguments":'
             '{"command":"echo a\\ud800b"}}}')
    answer = raw.receive()
    assert answer["result"]["content"][0]["text"].startswith("a\ufffdb\n\n[exit:0 | ")


def test_a_ping_is_answered_during_a_long_run_and_a_cancel_stops_the_run(raw):
    raw.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
              "params": {"name": "run", "arguments": {"command": "while true; do :; done"}}})
    time.sleep(0.5)
    started = time.perf_counter()
    raw.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
    # The loop would run until the run's 30 s deadline: answers well before it come during it
    # (how fast is the bench's business; a loaded CI machine once took 4.9 s here).
    assert raw.receive(timeout=15) == {"jsonrpc": "2.0", "id": 2, "result": {}}
    raw.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
    # Runs are one at a time: the next one answers only once the cancelled loop has stopped.
    raw.send({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
              "params": {"name": "run", "arguments": {"command": "echo after"}}})
    answer = raw.receive(timeout=15)
    assert answer["id"] == 3
    assert answer["result"]["content"][0]["text"].startswith("after\n\n[exit:0 | ")
    assert time.perf_counter() - started < 25  # stopped by the cancel, not by the deadline


def test_closing_stdin_during_a_long_run_ends_the_server(raw):
    raw.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
              "params": {"name": "run", "arguments": {"command": "while true; do :; done"}}})
    time.sleep(0.5)
    assert raw.close() < 10
    assert raw.process.returncode == 0


def test_without_the_mcp_package_the_server_says_what_to_install(tmp_path):
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "mcp.py").write_text("raise ImportError('No module named mcp (blocked for this test)')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(blocker), str(Path(__file__).resolve().parents[1])])}
    done = subprocess.run([sys.executable, "-m", "onetool_wasm", "mcp"], capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 1
    assert done.stderr.startswith("onetool-wasm mcp: the MCP server needs the official MCP SDK: "
                                  "pip install 'onetool-wasm[mcp]'")
    assert "Traceback" not in done.stderr


def _in_process(policy, elicitation_callback=None, mode="legacy"):
    """Run `rm /x` through the server in-process with the official client; the text and
    whether /x survived."""
    from mcp import Client

    from onetool_wasm import MemoryVFS, create_agent_cli
    from onetool_wasm.mcp import build_server

    async def go():
        vfs = MemoryVFS()
        await vfs.write_bytes("/x", b"data")
        runtime = await create_agent_cli(vfs=vfs, policy=policy)
        server = build_server(runtime)
        options = {"elicitation_callback": elicitation_callback} if elicitation_callback else {}
        # Elicitation from a running tool needs a back-channel: handshake-era protocols have one.
        async with Client(server, mode=mode, **options) as client:
            result = await client.call_tool("run", {"command": "rm /x"})
        return result.content[0].text, await vfs.exists("/x")

    return arun(go())


def test_consent_is_asked_through_elicitation_and_an_approval_runs_the_command():
    from mcp import types
    asked = []

    async def approve(context, params):
        asked.append((params.message, params.requested_schema))
        return types.ElicitResult(action="accept", content={"approve": True})

    text, exists = _in_process({"confirm": ["fs:rm"]}, approve)
    assert text.startswith("[exit:0 | ") and exists is False
    [(message, schema)] = asked
    assert message.startswith("Allow fs:rm (write)?") and "Command: rm /x" in message
    assert schema["properties"]["approve"] == {"type": "boolean", "title": "Allow fs:rm?", "default": False}
    assert schema["required"] == ["approve"]


def test_a_declined_or_unanswered_elicitation_runs_nothing():
    from mcp import types

    async def decline(context, params):
        return types.ElicitResult(action="accept", content={"approve": False})

    text, exists = _in_process({"confirm": ["fs:rm"]}, decline)
    assert text.startswith("[error] rm: fs:rm was declined by the user; nothing was run") and exists is True

    async def cancel(context, params):
        return types.ElicitResult(action="cancel")

    text, exists = _in_process({"confirm": ["fs:rm"]}, cancel)
    assert text.startswith("[error] rm: fs:rm was declined by the user; nothing was run") and exists is True


def test_a_client_without_elicitation_is_unavailable_and_on_no_confirm_decides():
    text, exists = _in_process({"confirm": ["fs:rm"]})
    assert text.startswith("[error] rm: fs:rm needs confirmation") and exists is True
    text, exists = _in_process({"confirm": ["fs:rm"], "onNoConfirm": "allow"})
    assert text.startswith("[exit:0 | ") and exists is False


def test_the_consent_form_prefills_scalar_fields_and_edits_come_back_as_input():
    from onetool_wasm.consent import make_request
    from onetool_wasm.mcp import consent_schema, decision_from_elicitation

    request = make_request("shop:addItem", "write", "write operation", "Add an item",
                           {"name": "pen", "count": 2, "price": 1.5, "gift": False, "tags": ["a"]})
    schema = consent_schema(request)
    assert schema["properties"] == {
        "approve": {"type": "boolean", "title": "Allow shop:addItem?", "default": False},
        "name": {"type": "string", "default": "pen"}, "count": {"type": "integer", "default": 2},
        "price": {"type": "number", "default": 1.5}, "gift": {"type": "boolean", "default": False}}
    assert decision_from_elicitation("accept", {"approve": True, "count": 3}, request) == {
        "approved": True, "input": {"name": "pen", "count": 3, "price": 1.5, "gift": False, "tags": ["a"]}}
    assert decision_from_elicitation("accept", {"approve": True}, request) == "approved"
    assert decision_from_elicitation("decline", None, request) == "declined"


def test_a_modern_connection_has_no_back_channel_so_consent_is_unavailable():
    async def approve(context, params):
        raise AssertionError("a 2026-07-28 connection cannot be asked from a running tool")

    text, exists = _in_process({"confirm": ["fs:rm"]}, approve, mode="auto")
    assert text.startswith("[error] rm: fs:rm needs confirmation") and exists is True


# -- the operations as typed tools next to `run` (layouts) ---------------------------------------------

def _shop(log):
    from onetool_wasm.catalog import FunctionProvider

    item = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
            "required": ["id", "name"]}
    return FunctionProvider("shop", [
        {"name": "getItem", "summary": "One item", "handler": lambda i: {"id": i["id"], "name": "pen"},
         "input_schema": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]},
         "output_schema": item},
        {"name": "deleteItem", "summary": "Delete an item", "handler": lambda i: log.append(i) or {"deleted": i["id"]},
         "input_schema": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}},
        {"name": "getToken", "summary": "A token", "kind": "read", "handler": lambda i: {"note": "key s3cr3t-9"}},
    ], secrets=["s3cr3t-9"])


def _layout_session(layout, calls, providers=None, policy=None, elicitation_callback=None, mode="legacy"):
    """List the tools of `build_server(runtime, layout=...)` in-process and make `calls`."""
    from mcp import Client

    from onetool_wasm import create_agent_cli
    from onetool_wasm.mcp import build_server

    async def go():
        runtime = await create_agent_cli(providers=providers, policy=policy)
        server = build_server(runtime, layout=layout)
        options = {"elicitation_callback": elicitation_callback} if elicitation_callback else {}
        async with Client(server, mode=mode, **options) as client:
            tools = (await client.list_tools()).tools
            results = [await client.call_tool(name, arguments) for name, arguments in calls]
        return tools, results

    return arun(go())


def test_a_flat_layout_lists_run_and_one_tool_per_operation():
    log = []
    tools, (item, token, command) = _layout_session("auto", [
        ("shop__getItem", {"id": 3}), ("shop__getToken", {}), ("run", {"command": "shop getItem id=3"})],
        providers=[_shop(log)])
    assert [tool.name for tool in tools] == ["run", "shop__getItem", "shop__deleteItem", "shop__getToken"]
    by_name = {tool.name: tool for tool in tools}
    assert by_name["shop__getItem"].output_schema["required"] == ["id", "name"]
    assert by_name["shop__getItem"].annotations.read_only_hint is True
    assert by_name["shop__deleteItem"].annotations.read_only_hint is False
    assert by_name["shop__deleteItem"].output_schema is None
    assert (item.is_error, item.structured_content) == (False, {"id": 3, "name": "pen"})
    assert item.content[0].text == '{\n  "id": 3,\n  "name": "pen"\n}\n'
    assert command.content[0].text.startswith(item.content[0].text)  # the same call through `run`
    assert token.structured_content == {"note": "key **REDACTED**"} and "s3cr3t-9" not in token.content[0].text


def test_a_generic_layout_beyond_30_operations_routes_call_operation():
    from onetool_wasm.catalog import FunctionProvider

    many = FunctionProvider("misc", [{"name": f"getThing{n}", "kind": "read", "handler": lambda i, n=n: {"n": n}}
                                     for n in range(31)])
    tools, (listed, called) = _layout_session("auto", [
        ("list_operations", {"query": "getThing30"}), ("call_operation", {"operation": "misc:getThing30"})],
        providers=[many])
    assert [tool.name for tool in tools] == ["run", "list_operations", "describe_operation", "call_operation"]
    assert listed.structured_content["operations"] == [
        {"operation": "misc:getThing30", "summary": "getThing30", "kind": "read", "verdict": "allow"}]
    assert called.structured_content == {"n": 30}


def test_layout_tools_ask_consent_through_elicitation_and_honour_the_policy():
    from mcp import types
    log, asked = [], []

    async def approve(context, params):
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"approve": True, "id": 9})

    _, (approved,) = _layout_session("flat", [("shop__deleteItem", {"id": 1})], providers=[_shop(log)],
                                     elicitation_callback=approve)
    assert approved.structured_content == {"deleted": 9} and log == [{"id": 9}]
    assert asked[0].startswith("Allow shop:deleteItem (write)?")
    _, (unanswered,) = _layout_session("flat", [("shop__deleteItem", {"id": 1})], providers=[_shop(log)])
    assert unanswered.is_error and unanswered.content[0].text.startswith("shop:deleteItem needs confirmation")
    _, (denied, generic) = _layout_session("generic", [
        ("call_operation", {"operation": "shop:deleteItem", "input": {"id": 1}}),
        ("call_operation", {"operation": "shop:getItem", "input": {"id": "x"}})],
        providers=[_shop(log)], policy={"deny": ["shop:delete*"]})
    assert denied.content[0].text == 'shop:deleteItem denied by policy (matches deny pattern "shop:delete*"); nothing was run'
    assert generic.is_error and generic.content[0].text.startswith("invalid input for shop:getItem (1 problem)")
    assert log == [{"id": 9}]


def test_an_unknown_tool_names_the_layout_tools_and_a_layout_needs_providers():
    from mcp.shared.exceptions import MCPError

    from onetool_wasm import create_agent_cli
    from onetool_wasm.mcp import build_server

    from mcp import Client

    async def unknown():
        server = build_server(await create_agent_cli(providers=[_shop([])]), layout="flat")
        async with Client(server) as client:
            with pytest.raises(MCPError, match="unknown tool: nope; this server's tools are run, shop__getItem, "):
                await client.call_tool("nope", {})

    arun(unknown())

    async def without_providers():
        build_server(await create_agent_cli(), layout="auto")

    with pytest.raises(ValueError, match="the runtime has no providers"):
        arun(without_providers())


def test_the_cli_serves_another_servers_tools_in_a_flat_layout(tmp_path):
    # python -m onetool_wasm --root DIR mcp --layout flat --mcp-server notes='python server.py'
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    server_script = Path(__file__).parent / "data" / "mcp_notes_server.py"
    params = StdioServerParameters(command=sys.executable, args=[
        "-m", "onetool_wasm", "--root", str(tmp_path), "mcp", "--layout", "flat",
        "--mcp-server", f"notes={sys.executable} {server_script}"])

    async def go():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = await session.list_tools()
                via_shell = await session.call_tool("run", {"command": "notes read_note name=todo"})
                return [tool.name for tool in tools.tools], via_shell

    names, via_shell = arun(go())
    assert names[0] == "run" and {"notes__read_note", "notes__delete_note"} <= set(names)
    assert via_shell.is_error is False
    assert "buy milk" in via_shell.content[0].text
