"""In the browser, another MCP server's tools are operations through the page's fetch:
`createOneTool({providers: [{namespace, mcp: url}]})` against a real MCP server over
streamable HTTP (the official SDK's, with CORS, on another origin than the page)."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
pytest.importorskip("mcp", reason="the MCP SDK (for the test server) is not installed")

from tests.test_mcp_http_provider import NotesHttpServer  # noqa: E402

FOOTER = re.compile(r"\n\n\[exit:(\d+) \| [^\]]+\]$")


@pytest.fixture(scope="module", params=["sse", "json"])
def mcp_server(request):
    server = NotesHttpServer(json_response=request.param == "json", cors=True).start()
    yield server
    server.stop()


@pytest.fixture
def loopback(onetool_page):
    """The shared page may fetch from another loopback port (Chromium's Local Network Access
    asks for a permission, denied headless unless granted) and from that origin."""
    context = onetool_page.page.context
    context.grant_permissions(["local-network-access"])
    yield onetool_page.page.watch
    context.clear_permissions()


def body(text):
    return FOOTER.sub("", text)


def test_the_tools_of_an_mcp_server_are_operations_in_the_page(mcp_server, loopback, onetool_page, onetool_create):
    loopback.allow_origin(mcp_server.url)  # the shared page all onetool_create runtimes live in
    tool = onetool_create("{providers: [{namespace: 'notes', mcp: %s}]}" % json.dumps(mcp_server.url))
    assert tool.page is onetool_page.page
    assert body(tool.run("api operations notes")) == (
        "notes operations:\n"
        "  notes:read_note    read      — Read one note by name.\n"
        "  notes:delete_note  write     — Delete a note. (needs confirmation)\n\n"
        "Use: api describe <namespace:operation>\n"
        "Call: api call <namespace:operation> [json | key=value ...]")
    assert body(tool.run("notes read_note name=todo | json get text")) == "buy milk"
    assert body(tool.run("api call notes:read_note name=nope")) == (
        "[error] api: notes:read_note failed: Error executing tool read_note: no note named nope")
    assert body(tool.run("notes delete_note name=todo")) == (
        "[error] notes: notes:delete_note needs confirmation (write operation) but no one could confirm it; "
        "nothing was run")
    sessions = {session for method, session, _ in mcp_server.requests if method == "POST" and session}
    assert len(sessions) == 1  # one session, its id read through CORS (exposed) and sent back


def test_a_server_without_cors_gives_a_clear_error(loopback, onetool_create):
    server = NotesHttpServer().start()  # no CORS: the page's fetch cannot read its answers
    try:
        loopback.allow_origin(server.url)
        loopback.allow_console_error("blocked by CORS policy")
        loopback.allow_console_error("net::ERR_FAILED")
        with pytest.raises(Exception, match=rf"MCP server notes \({re.escape(server.url)}\): initialize: "
                                            rf"cannot reach {re.escape(server.url)}"):
            onetool_create("{providers: [{namespace: 'notes', mcp: %s}]}" % json.dumps(server.url))
    finally:
        server.stop()
