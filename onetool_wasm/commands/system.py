"""The system group: help (memory lands with the built-in commands issue)."""
from __future__ import annotations

import difflib

from ..result import CommandResult, err, ok
from .spec import CommandContext, CommandSpec


def command_table(specs: list[CommandSpec]) -> list[str]:
    """`  name     — summary` lines, as the tool description and `help` print them."""
    return [f"  {spec.name.ljust(8)} — {spec.summary}" for spec in specs]


def closest_names(name: str, names: list[str], limit: int = 3) -> list[str]:
    return difflib.get_close_matches(name, names, n=limit, cutoff=0.6)


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
        return ok("\n".join(lines))
    spec = ctx.registry.get(args[0])
    if spec is None:
        return err(f"help: {unknown_command_message(args[0], ctx.registry.names())}")
    return ok(spec.help_text())


HELP = CommandSpec(
    name="help",
    summary="List commands or show detailed help for one command.",
    usage="help [command]",
    details="Examples:\n  help\n  help grep\n  grep",
    group="system",
    handler=cmd_help,
    accepts_stdin=False, min_args=0, max_args=1, conformance_args=(),
)

COMMANDS = [HELP]
