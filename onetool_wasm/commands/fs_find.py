"""`find`: a pre-order walk in C-locale name order with -type, -name and -maxdepth filters
(GNU spellings and upstream's `--type file|dir`, `--name`, `--max-depth`)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..result import CommandResult, err
from ..vfs.paths import base_name
from .fs_common import FS_ERRORS, fs_failure, is_option, sorted_children, unknown_option
from .fs_glob import compile_glob
from .spec import CommandContext, CommandFailed, CommandSpec

FIND_USAGE = ("find [path] [--type file|dir|-type f|-type d] [--name pattern|-name pattern] "
              "[--max-depth N|-maxdepth N]")
_TYPES = {"file": "file", "f": "file", "dir": "dir", "d": "dir"}
_DEPTH = re.compile(r"[0-9]+")


@dataclass
class FindFilters:
    type_filter: str | None = None
    name: re.Pattern[str] | None = None
    max_depth: int | None = None

    def matches(self, path: str, is_dir: bool) -> bool:
        if self.type_filter is not None and self.type_filter != ("dir" if is_dir else "file"):
            return False
        return self.name is None or self.name.fullmatch(base_name(path)) is not None


def parse_find_args(args: list[str]) -> tuple[FindFilters, list[str]] | CommandResult:
    filters, paths = FindFilters(), []
    index, options_done = 0, False
    while index < len(args):
        arg = args[index]
        if options_done or not is_option(arg):
            paths.append(arg)
        elif arg == "--":
            options_done = True
        elif arg == "-print":
            pass  # GNU's default action, written out
        elif arg in ("--type", "-type", "--name", "-name", "-iname", "--max-depth", "-maxdepth"):
            if index + 1 >= len(args):
                return err(f"find: missing value for {arg}. Usage: {FIND_USAGE}")
            problem = _apply_option(filters, arg, args[index + 1])
            if problem is not None:
                return problem
            index += 1
        else:
            return unknown_option("find", arg, FIND_USAGE)
        index += 1
    return filters, paths


def _apply_option(filters: FindFilters, option: str, value: str) -> CommandResult | None:
    if option.endswith("type"):
        if value not in _TYPES:
            return err(f"find: invalid value for {option}: {value}. Expected file, dir, f, or d.")
        filters.type_filter = _TYPES[value]
    elif option.endswith("name"):
        filters.name = compile_glob(value, ignore_case=option == "-iname")
    else:
        if not _DEPTH.fullmatch(value):
            return err(f"find: invalid integer for {option}: {value}")
        filters.max_depth = int(value)
    return None


async def cmd_find(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    parsed = parse_find_args(args)
    if isinstance(parsed, CommandResult):
        return parsed
    filters, starts = parsed
    matches: list[str] = []
    missing: list[str] = []
    for start in starts or ["/"]:
        try:
            info = await ctx.vfs.stat(start)
            if not info.exists:
                missing.append(ctx.vfs.normalize(start))
                continue
            await _walk(ctx, info.path, info.is_dir, filters, matches)
        except FS_ERRORS as error:
            raise CommandFailed(await fs_failure(ctx, "find", start, error)) from None
    stdout = "".join(f"{path}\n" for path in matches).encode("utf-8")
    if missing:
        return CommandResult(stdout=stdout, stderr=f"find: path not found: {', '.join(missing)}", exit_code=1)
    return CommandResult(stdout=stdout)


async def _walk(ctx: CommandContext, start: str, is_dir: bool, filters: FindFilters, matches: list[str]) -> None:
    """Pre-order, children in name order; a stack rather than recursion, so no tree is too deep."""
    stack = [(start, is_dir, 0)]
    while stack:
        path, is_dir, depth = stack.pop()
        if filters.matches(path, is_dir):
            matches.append(path)
        if is_dir and (filters.max_depth is None or depth < filters.max_depth):
            children = await sorted_children(ctx, path)
            stack.extend((child, child_is_dir, depth + 1) for _, child, child_is_dir in reversed(children))


FIND = CommandSpec(
    name="find",
    summary="Recursively list files and directories with optional filters.",
    usage=FIND_USAGE,
    details=('Examples:\n  find /logs\n  find /config -type f -name "*.json"\n'
             "  find /drafts --max-depth 1"),
    group="fs",
    handler=cmd_find,
    accepts_stdin=False, min_args=0, conformance_args=("/",),
)

COMMANDS = [FIND]
