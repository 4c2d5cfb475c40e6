"""The MCP stdio server, driven by the official MCP client (CPython only: it spawns a process)."""
from __future__ import annotations

import sys

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
    assert bad.is_error is True
    assert bad.content[0].text.startswith("[error] cat: /missing.txt: No such file or directory\n\n[exit:1 | ")
    assert loop.content[0].text.startswith("notes.txt: 2\n\n[exit:0 | ")


def test_mcp_server_speaks_the_strict_grammar_when_asked(tmp_path):
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n")
    tools, (good, bad) = serve_and_call(tmp_path, "--grammar", "strict")
    assert tools.tools[0].description.startswith("Run CLI-style commands over registered tools")
    assert good.content[0].text.startswith("2\n\n[exit:0 | ")
    assert bad.content[0].text.startswith("[error] cat: file not found: /missing.txt. Use: ls /\n\n[exit:1 | ")
