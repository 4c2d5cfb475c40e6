"""search: the host's search adapter, hits as title, address and snippet."""
from __future__ import annotations

from typing import Any
from ...result import CommandResult, err, ok
from ..helpers import check_materialized, missing_adapter_error
from ._common import _call, _field, _text, error_message, redacted
from ..spec import CommandContext, CommandSpec


SEARCH_LIMIT = 10


def render_hits(hits: list[Any]) -> str:
    """`1. Title` / `   source: ...` / `   snippet` blocks separated by blank lines."""
    blocks = []
    for number, hit in enumerate(hits, start=1):
        lines = [f"{number}. {_text(_field(hit, 'title'))}"]
        source, snippet = _field(hit, "source", "url"), _field(hit, "snippet", "text")
        if source:
            lines.append(f"   source: {_text(source)}")
        if snippet:
            lines.append(f"   {_text(snippet)}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


async def cmd_search(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.adapters.search is None:
        return missing_adapter_error("search", "search")
    try:
        hits = await _call(ctx.adapters.search, "search", " ".join(args), SEARCH_LIMIT)
        hits = list(hits or [])[:SEARCH_LIMIT]
    except Exception as error:  # the host's adapter failed: report it, never crash
        return err(redacted(ctx, f"search: adapter error: {error_message(error)}"))
    if not hits:
        return ok("(no results)\n")
    rendered = redacted(ctx, render_hits(hits))
    check_materialized(ctx, "search", "search results", len(rendered.encode("utf-8")))
    return ok(rendered + "\n")


SEARCH = CommandSpec(
    name="search",
    summary="Query your configured search tool and return text results.",
    usage="search <query>",
    details=("Ranking and recall come from the configured adapter. "
             "This command formats the top results for the runtime.\n"
             'Examples:\n  search "refund timeout incident"\n  search "acme renewal risk" | head -n 5'),
    group="adapters",
    handler=cmd_search,
    accepts_stdin=False, min_args=1, max_args=None, conformance_args=("query",),
    kind="read", requires_adapter="search",
)


COMMANDS = [SEARCH]
