"""env: print the environment, or run a command in a changed one (-i -u -C NAME=VALUE)."""
from __future__ import annotations

import re
from typing import Sequence
from ...result import TEXT, CommandResult
from ..helpers import FS_ERRORS
from ..options import usage_failure
from ..spec import CommandContext, CommandFailed, CommandSpec
from ..getopt import NONE, REQUIRED, gnu_getopt, result_of


ENV_USAGE = "env [-i] [-0] [-u NAME] [-C DIR] [NAME=VALUE]... [COMMAND [ARG]...]"


_ENV_LONG = {"ignore-environment": ("i", NONE), "null": ("0", NONE), "unset": ("u", REQUIRED),
             "chdir": ("C", REQUIRED), "debug": ("v", NONE), "split-string": ("S", REQUIRED)}


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


ENV_FAILURE, NOT_FOUND, CANNOT_RUN = 125, 127, 126


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _env_options(args: list[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    try:
        return gnu_getopt("env", ENV_USAGE, args, "i0u:C:vS:", _ENV_LONG, permute=False)
    except CommandFailed as failure:
        raise CommandFailed(result_of(b"", [failure.result.stderr], ENV_FAILURE)) from None


async def cmd_env(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    raw, operands = _env_options(args)
    if operands[:1] == ["-"]:
        raw, operands = raw + [("i", None)], operands[1:]
    clear = any(key == "i" for key, _ in raw)
    end = "\0" if any(key == "0" for key, _ in raw) else "\n"
    unset = [value or "" for key, value in raw if key == "u"]
    directory = next((value for key, value in reversed(raw) if key == "C"), None)
    if any(key == "S" for key, _ in raw):
        raise usage_failure("env", "-S (split a string) is not supported; write the words out", ENV_USAGE,
                            ENV_FAILURE)
    for name in unset:
        if not name or "=" in name:
            return result_of(b"", [f"env: cannot unset '{name}': Invalid argument"], ENV_FAILURE)
    settings: list[tuple[str, str]] = []
    while operands and "=" in operands[0] and not operands[0].startswith("="):
        name, _, value = operands.pop(0).partition("=")
        settings.append((name, value))
    environment = {} if clear else dict(ctx.environment)
    for name in unset:
        environment.pop(name, None)
    for name, value in settings:
        environment[name] = value
    if not operands:
        if directory is not None:
            return result_of(b"", ["env: must specify command with --chdir (-C)"], ENV_FAILURE)
        text = "".join(f"{name}={value}{end}" for name, value in environment.items())
        return result_of(text.encode("utf-8", "surrogateescape"), [])
    if end == "\0":
        return result_of(b"", ["env: cannot specify --null (-0) with command"], ENV_FAILURE)
    return await run_in(ctx, operands, clear, unset, settings, directory, stdin)


async def run_in(ctx: CommandContext, command: Sequence[str], clear: bool, unset: list[str],
                 settings: list[tuple[str, str]], directory: str | None, stdin: bytes) -> CommandResult:
    """COMMAND run by a shell that first changes its environment (and directory)."""
    if ctx.run_argv is None:
        return result_of(b"", ["env: runs commands only inside the shell; without a command it prints "
                               "the environment"], ENV_FAILURE)
    if directory is not None:
        try:
            is_dir = await ctx.vfs.is_dir(directory)
        except FS_ERRORS:
            is_dir = False
        if not is_dir:
            return result_of(b"", [f"env: cannot change directory to '{directory}': No such file or directory"],
                             ENV_FAILURE)
    names = [name for name in (list(ctx.environment) if clear else unset) if _NAME.fullmatch(name)]
    steps = [f"unset -v {' '.join(names)}"] if names else []
    steps += [f"export {name}={_quote(value)}" for name, value in settings if _NAME.fullmatch(name)]
    if directory is not None:
        steps.append(f"cd -- {_quote(directory)} || exit {ENV_FAILURE}")
    script = "; ".join(steps + ['"$@"'])
    result = await ctx.run_argv(["sh", "-c", script, "env", *command], stdin)
    if result.exit_code == NOT_FOUND and "command not found" in result.stderr:
        return CommandResult(result.stdout, f"env: '{command[0]}': No such file or directory", NOT_FOUND, TEXT)
    return CommandResult(result.stdout, result.stderr, result.exit_code, TEXT)


def env_kind(args: Sequence[str]) -> str:
    """Printing the environment reads; running a command may do anything."""
    try:
        _, operands = gnu_getopt("env", ENV_USAGE, args, "i0u:C:vS:", _ENV_LONG, permute=False)
    except CommandFailed:
        return "read"
    return "write" if any("=" not in operand for operand in operands if operand != "-") else "read"


ENV = CommandSpec(
    name="env",
    summary="Print the environment, or run a command in a changed one, as GNU env.",
    usage=ENV_USAGE,
    details=("Without COMMAND, prints the exported variables as NAME=VALUE lines (-0: NUL-terminated). "
             "With it, runs COMMAND with NAME=VALUE set, -u NAME removed, -i (or `-`) starting from an "
             "empty environment, and -C DIR as its directory. Exit 125: env's own error; 127: no such "
             "command; else the command's status.\n"
             "Examples:\n  env | sort\n  env -i A=1 printenv A\n  env LC_ALL=C sort names.txt\n"
             "  env -u HOME printenv HOME"),
    group="system", handler=cmd_env,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind=env_kind,
    usage_exit_code=ENV_FAILURE,
)


COMMANDS = [ENV]
