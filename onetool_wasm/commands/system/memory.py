"""memory: the runtime-scoped working notes (store, recent, search)."""
from __future__ import annotations

import inspect
import re
from typing import Any
from ...result import CommandResult, err, ok, printable
from ..helpers import bounded_int, read_text_input, usage_error
from ..spec import CommandContext, CommandSpec


MEMORY_USAGE = "memory search <query> | memory recent [N] | memory store <text>"


RECALL_LIMIT = 10


async def _memory_call(ctx: CommandContext, method: str, *args: Any) -> Any:
    """ctx.memory.<method>(*args); a host's memory may answer asynchronously."""
    result = getattr(ctx.memory, method)(*args)
    return await result if inspect.isawaitable(result) else result


def _listing(items: list[Any], empty: str) -> CommandResult:
    if not items:
        return ok(empty + "\n")
    return ok("".join(f"#{item.id}  {printable(str(item.text))}\n" for item in items))


async def _stdin_text(ctx: CommandContext, command: str, stdin: bytes) -> str:
    # `echo note | memory store` would otherwise keep echo's newline in the note.
    return (await read_text_input(ctx, command, None, stdin)).rstrip("\r\n")


async def _memory_store(ctx: CommandContext, rest: list[str], stdin: bytes) -> CommandResult:
    if rest:
        text = " ".join(rest)
    elif stdin:
        text = await _stdin_text(ctx, "memory store", stdin)
    else:
        return err("memory store: provide text inline or via stdin")
    if not text.strip():
        return err('memory store: nothing to store: the text is empty. Usage: memory store <text>')
    item = await _memory_call(ctx, "store", text)
    return ok(f"stored memory #{item.id}\n")


async def _memory_recent(ctx: CommandContext, rest: list[str]) -> CommandResult:
    if len(rest) > 1:
        return usage_error("memory recent", "memory recent [N]")
    limit = RECALL_LIMIT
    if rest:
        if not re.fullmatch(r"\+?[0-9]+", rest[0].strip()):
            return err(f"memory recent: invalid integer: {rest[0]}. Usage: memory recent [N] (N >= 0)")
        limit = bounded_int(rest[0].strip())
    return _listing(await _memory_call(ctx, "recent", limit), "(no memories)")


async def _memory_search(ctx: CommandContext, rest: list[str], stdin: bytes) -> CommandResult:
    if not rest and not stdin:
        return usage_error("memory search", "memory search <query>")
    query = " ".join(rest) if rest else await _stdin_text(ctx, "memory search", stdin)
    return _listing(await _memory_call(ctx, "search", query, RECALL_LIMIT), "(no matches)")


async def cmd_memory(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    sub, rest = args[0], args[1:]
    if sub == "store":
        return await _memory_store(ctx, rest, stdin)
    if sub == "recent":
        return await _memory_recent(ctx, rest)
    if sub == "search":
        return await _memory_search(ctx, rest, stdin)
    return err(f"memory: unknown subcommand: {sub}. Use: memory search | memory recent | memory store")


def memory_kind(args: Any) -> str:
    """`memory store` writes; search and recent only read."""
    return "write" if list(args[:1]) == ["store"] else "read"


MEMORY = CommandSpec(
    name="memory",
    summary="Search, store, or inspect lightweight runtime-scoped working memory.",
    usage=MEMORY_USAGE,
    details=("This is lightweight runtime memory for the current agent session. "
             "It is not file storage or semantic retrieval infrastructure.\n"
             'Examples:\n  memory store "Acme prefers Monday follow-ups"\n'
             '  memory search "Acme follow-up"\n  memory recent 5'),
    group="system",
    handler=cmd_memory,
    accepts_stdin=True, min_args=1, max_args=None, conformance_args=("recent",),
    kind=memory_kind, requires_adapter=None,
)


COMMANDS = [MEMORY]

