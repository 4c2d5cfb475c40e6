"""The system group: help, and memory (the runtime-scoped working notes)."""
from __future__ import annotations

import inspect
import re
from typing import Any

from ..result import CommandResult, err, ok, printable
from .helpers import bounded_int, line_end, read_text_input, usage_error
from .spec import CommandContext, CommandSpec


def command_table(specs: list[CommandSpec]) -> list[str]:
    """`  name     — summary` lines, as the tool description and `help` print them."""
    return [f"  {spec.name.ljust(8)} — {spec.summary}" for spec in specs]


def edit_distance(left: str, right: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions, transpositions."""
    previous2: list[int] = []
    previous = list(range(len(right) + 1))
    for i, a in enumerate(left, 1):
        current = [i]
        for j, b in enumerate(right, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a != b))
            if i > 1 and j > 1 and a == right[j - 2] and left[i - 2] == b:
                cost = min(cost, previous2[j - 2] + 1)
            current.append(cost)
        previous2, previous = previous, current
    return previous[-1]


def closest_names(name: str, names: list[str], limit: int = 3) -> list[str]:
    """The nearest names (a typo or two away), best first; none when nothing is close."""
    allowed = max(1, len(name) // 3)
    scored = sorted((edit_distance(name, candidate), candidate) for candidate in names)
    best = [(d, c) for d, c in scored if d <= allowed]
    return [c for d, c in best if d == best[0][0]][:limit] if best else []


def unknown_command_message(name: str, names: list[str]) -> str:
    """`unknown command: x`, a suggestion when one is close, then what is available."""
    suggestions = closest_names(name, names)
    lines = [f"unknown command: {name}"]
    if suggestions:
        lines.append(f"did you mean: {', '.join(suggestions)}?")
    lines.append(f"Available: {', '.join(names) if names else '(none)'}")
    return "\n".join(lines)


def cmd_help(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if not args:
        lines = ["Available commands:", *command_table(ctx.registry.all()), "",
                 "Use: help <command>", "Or run a command with no args to get its usage."]
        return ok("\n".join(lines) + line_end(ctx))
    spec = ctx.registry.get(args[0])
    if spec is None:
        return err(f"help: {unknown_command_message(args[0], ctx.registry.names())}")
    return ok(spec.help_text() + line_end(ctx))


HELP = CommandSpec(
    name="help",
    summary="List commands or show detailed help for one command.",
    usage="help [command]",
    details="Examples:\n  help\n  help grep\n  grep",
    group="system",
    handler=cmd_help,
    accepts_stdin=False, min_args=0, max_args=1, conformance_args=(),
)


# -- memory -------------------------------------------------------------------------------

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

COMMANDS = [HELP, MEMORY]
