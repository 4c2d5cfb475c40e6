"""The MCP stdio server, driven by the official MCP client (CPython only: it spawns a process)."""
from __future__ import annotations

import sys

import pytest

from .helpers import arun

if sys.platform == "emscripten":
    pytest.skip("no subprocesses inside Pyodide: the MCP server is a CPython entry point", allow_module_level=True)
mcp = pytest.importorskip("mcp", reason="the MCP client is not installed (pip install 'onetool-wasm[test]')")


def test_mcp_server_lists_the_run_tool_and_runs_commands(tmp_path):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    (tmp_path / "notes.txt").write_text("alpha\nbeta\n")
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "onetool_wasm", "--root", str(tmp_path), "mcp"])

    async def session_calls():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = await session.list_tools()
                good = await session.call_tool("run", {"command": "cat /notes.txt | wc -l"})
                bad = await session.call_tool("run", {"command": "cat /missing.txt"})
                return tools, good, bad

    tools, good, bad = arun(session_calls())
    assert [tool.name for tool in tools.tools] == ["run"]
    assert tools.tools[0].input_schema["required"] == ["command"]
    assert tools.tools[0].description.startswith("Run CLI-style commands over registered tools")
    assert good.is_error is False
    assert good.content[0].text.startswith("2\n\n[exit:0 | ")
    assert bad.is_error is True
    assert bad.content[0].text.startswith("[error] cat: file not found: /missing.txt. Use: ls /\n\n[exit:1 | ")
