"""A tiny MCP server for tests/test_mcp_provider.py (the official SDK's MCPServer, stdio).

Two tools: `read_note` (annotated read-only) and `delete_note` (annotated destructive).
`--crash-on-start`: exit before serving; `--crash-on-delete`: `delete_note` kills the process.
"""
import os
import sys
from typing import TypedDict

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

if "--crash-on-start" in sys.argv:
    print("notes server: cannot open the notes database", file=sys.stderr, flush=True)
    sys.exit(3)

NOTES = {"todo": "buy milk", "secret": "the key is s3cr3t-value"}
server = MCPServer("notes", instructions="Notes kept by a test server.")


class Note(TypedDict):
    name: str
    text: str
    pid: int


class Deleted(TypedDict):
    deleted: str
    remaining: int


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def read_note(name: str) -> Note:
    """Read one note by name.

    Returns its text and the server's process id."""
    if name not in NOTES:
        raise ToolError(f"no note named {name}")
    return {"name": name, "text": NOTES[name], "pid": os.getpid()}


@server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True))
def delete_note(name: str) -> Deleted:
    """Delete a note for good."""
    if "--crash-on-delete" in sys.argv:
        print("notes server: segfault while deleting", file=sys.stderr, flush=True)
        os._exit(7)
    NOTES.pop(name, None)
    return {"deleted": name, "remaining": len(NOTES)}


if __name__ == "__main__":
    server.run()
