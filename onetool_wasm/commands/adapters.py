"""The adapters group: `search` and `fetch`, rendered for the model from host adapters.

Hosts plug in objects with `search(query, limit)` / `fetch(resource)` (sync or async,
see onetool_wasm/adapters.py); plain callables and dict-shaped results are accepted too,
since hosts (and the browser bridge) do not always build our dataclasses.
"""
from __future__ import annotations

import inspect
import re
from typing import Any

from ..result import JSON, OCTET, TEXT, CommandResult, err, ok, ok_bytes, printable
from .calc import format_js_number
from .json_text import to_json_text
from .helpers import check_materialized, missing_adapter_error
from .spec import CommandContext, CommandSpec

SEARCH_LIMIT = 10
_NOT_FOUND = re.compile(r"\bnot found\b", re.IGNORECASE)


async def _call(adapter: Any, method: str, *args: Any) -> Any:
    """adapter.method(*args), or adapter(*args) for a bare callable; awaited if needed."""
    target = getattr(adapter, method, None)
    if target is None and callable(adapter):
        target = adapter
    if target is None:
        raise TypeError(f"the {method} adapter has no {method}() method")
    result = target(*args)
    return await result if inspect.isawaitable(result) else result


def _field(item: Any, *names: str) -> Any:
    """A field of a dataclass/object or a mapping, by its first present name."""
    for name in names:
        if isinstance(item, dict) and name in item:
            return item[name]
        if not isinstance(item, dict) and hasattr(item, name):
            return getattr(item, name)
    return None


def error_message(error: BaseException) -> str:
    """What the host's exception says; KeyError's repr quotes are dropped."""
    if isinstance(error, KeyError) and len(error.args) == 1:
        return str(error.args[0])
    return str(error) or type(error).__name__


# -- search -------------------------------------------------------------------------------

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


def _text(value: Any) -> str:
    return printable("" if value is None else str(value))


async def cmd_search(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.adapters.search is None:
        return missing_adapter_error("search", "search")
    try:
        hits = await _call(ctx.adapters.search, "search", " ".join(args), SEARCH_LIMIT)
        hits = list(hits or [])[:SEARCH_LIMIT]
    except Exception as error:  # the host's adapter failed: report it, never crash
        return err(f"search: adapter error: {error_message(error)}")
    if not hits:
        return ok("(no results)\n")
    rendered = render_hits(hits)
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


# -- fetch --------------------------------------------------------------------------------

def is_not_found(error: BaseException) -> bool:
    """ENOENT/NOT_FOUND codes, HTTP 404, FileNotFoundError/KeyError, or 'not found' said."""
    if isinstance(error, (FileNotFoundError, KeyError)):
        return True
    if getattr(error, "code", None) in ("ENOENT", "NOT_FOUND"):
        return True
    if any(getattr(error, name, None) == 404 for name in ("status", "statusCode", "status_code")):
        return True
    return _NOT_FOUND.search(error_message(error)) is not None


def render_payload(ctx: CommandContext, resource: str, payload: Any, content_type: str | None) -> CommandResult:
    """Bytes as they are, objects and arrays as pretty JSON, anything else as text."""
    if isinstance(payload, (bytes, bytearray, memoryview)):
        data = bytes(payload)
        check_materialized(ctx, "fetch", resource, len(data))
        return ok_bytes(data, content_type or OCTET)
    if isinstance(payload, (dict, list, tuple)):
        text, content_type = to_json_text(payload), JSON
    elif payload is None or isinstance(payload, bool):
        text = {None: "null", True: "true", False: "false"}[payload]
    elif isinstance(payload, float):
        text = format_js_number(payload)
    else:
        text = str(payload)
    data = printable(text).encode("utf-8")
    check_materialized(ctx, "fetch", resource, len(data))
    return ok_bytes(data, content_type or TEXT)


async def cmd_fetch(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.adapters.fetch is None:
        return missing_adapter_error("fetch", "fetch")
    resource = args[0]
    try:
        response = await _call(ctx.adapters.fetch, "fetch", resource)
    except Exception as error:  # the host's adapter failed: report it, never crash
        return _fetch_failure(resource, error)
    if response is None:
        return err(f"fetch: adapter error: the fetch adapter returned nothing for {resource}")
    content_type = _field(response, "content_type", "contentType")
    try:
        return render_payload(ctx, resource, _field(response, "payload"), str(content_type) if content_type else None)
    except (TypeError, ValueError, RecursionError) as error:
        return err(f"fetch: adapter error: the payload of {resource} cannot be shown as JSON "
                   f"({error_message(error)})")


def _fetch_failure(resource: str, error: BaseException) -> CommandResult:
    if is_not_found(error):
        return err(f"fetch: resource not found: {resource}")
    return err(f"fetch: adapter error: {error_message(error)}")


FETCH = CommandSpec(
    name="fetch",
    summary="Call your configured fetch tool and return text or JSON.",
    usage="fetch <resource>",
    details=("Resource identifiers and payloads come from the configured adapter. "
             "This command renders the returned text, JSON, or bytes for the runtime.\n"
             "Examples:\n  fetch order:123\n  fetch crm/customer/acme | json get owner.email"),
    group="adapters",
    handler=cmd_fetch,
    accepts_stdin=False, min_args=1, max_args=1, conformance_args=("res:1",),
    kind="read", requires_adapter="fetch",
)

COMMANDS = [SEARCH, FETCH]
