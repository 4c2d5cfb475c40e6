"""help: the command table (by group in the bash language, one alphabetical table as upstream
prints it in the strict grammar), or one command's usage, details and examples."""
from __future__ import annotations

from ...result import CommandResult, err, ok
from ..helpers import line_end
from ..naming import command_table, grouped_command_table, unknown_command_message
from ..spec import CommandContext, CommandSpec

# The built-in groups, in the order `help` shows them (selection.GROUP_NAMES; not imported:
# selection imports every command module).
GROUP_ORDER = ("system", "fs", "text", "adapters", "data")


def cmd_help(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if not args:
        specs = ctx.registry.all()
        table = grouped_command_table(specs, GROUP_ORDER) if ctx.grammar == "bash" else command_table(specs)
        lines = ["Available commands:", *table, "",
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


COMMANDS = [HELP]
