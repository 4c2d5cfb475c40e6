"""The runtime as an MCP stdio server with one tool, `run` (CPython; needs the `mcp` extra)."""
from __future__ import annotations

from typing import Any

from .runtime import AgentCLI
from .tooldef import build_tool_definition

SERVER_NAME = "onetool-wasm"


def build_server(runtime: AgentCLI, tool_name: str = "run",
                 description_variant: str = "full-tool-description") -> Any:
    """A low-level MCP server whose single tool runs a command line and returns its text block."""
    from mcp import types
    from mcp.server.lowlevel import Server

    definition = build_tool_definition(runtime, tool_name, description_variant, format="mcp")
    tool = types.Tool(name=tool_name, description=definition["description"],
                      input_schema=definition["inputSchema"])

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool])

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        command = (params.arguments or {}).get("command")
        if params.name != tool_name or not isinstance(command, str):
            message = f"call {tool_name} with a string argument 'command'"
            return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)
        execution = await runtime.run_detailed(command)
        return types.CallToolResult(content=[types.TextContent(type="text", text=execution.presentation.text)],
                                    is_error=execution.exit_code != 0)

    return Server(SERVER_NAME, on_list_tools=list_tools, on_call_tool=call_tool)


async def serve_stdio(runtime: AgentCLI, **options: Any) -> None:
    from mcp.server.stdio import stdio_server

    server = build_server(runtime, **options)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
