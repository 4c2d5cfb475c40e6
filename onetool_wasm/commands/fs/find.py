"""`find`: a pre-order walk in C-locale name order with -type, -name and -maxdepth filters
(GNU spellings and upstream's `--type file|dir`, `--name`, `--max-depth`)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...result import CommandResult
from ...vfs.base import VFSStat
from ...vfs.paths import base_name
from ._find_gnu import gnu_find
from ..fs_common import listing_result, sorted_children, visit_operands
from ..fs_glob import compile_glob
from ..helpers import fail
from ..options import ArgReader, unknown_option, usage_failure
from ..spec import CommandContext, CommandSpec

FIND_USAGE = ("find [path] [--type file|dir|-type f|-type d] [--name pattern|-name pattern] "
              "[--max-depth N|-maxdepth N]")
_TYPES = {"file": "file", "f": "file", "dir": "dir", "d": "dir"}
_DEPTH = re.compile(r"[0-9]+")
_VALUED_OPTIONS = ("--type", "-type", "--name", "-name", "-iname", "--max-depth", "-maxdepth")


@dataclass
class FindFilters:
    type_filter: str | None = None
    name: re.Pattern[str] | None = None
    max_depth: int | None = None

    def matches(self, path: str, is_dir: bool) -> bool:
        if self.type_filter is not None and self.type_filter != ("dir" if is_dir else "file"):
            return False
        return self.name is None or self.name.fullmatch(base_name(path)) is not None


def parse_find_args(args: list[str]) -> tuple[FindFilters, list[str]]:
    filters = FindFilters()
    reader = ArgReader(args)
    for arg in reader:
        if arg == "-print":
            continue  # GNU's default action, written out
        if arg not in _VALUED_OPTIONS:
            raise unknown_option("find", arg, FIND_USAGE)
        missing = usage_failure("find", f"missing value for {arg}", FIND_USAGE)
        _apply_option(filters, arg, reader.value(None, missing))
    return filters, reader.operands


def _apply_option(filters: FindFilters, option: str, value: str) -> None:
    if option.endswith("type"):
        if value not in _TYPES:
            raise fail(f"find: invalid value for {option}: {value}. Expected file, dir, f, or d.")
        filters.type_filter = _TYPES[value]
    elif option.endswith("name"):
        filters.name = compile_glob(value, ignore_case=option == "-iname")
    else:
        if not _DEPTH.fullmatch(value):
            raise fail(f"find: invalid integer for {option}: {value}")
        filters.max_depth = int(value)


async def cmd_find(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    """GNU find's expressions in the bash language (find_gnu.py); upstream's options in the
    strict grammar."""
    if ctx.grammar == "bash":
        return await gnu_find(ctx, args)
    filters, starts = parse_find_args(args)
    matches: list[str] = []

    async def visit(info: VFSStat) -> None:
        await _walk(ctx, info.path, info.path, info.is_dir, filters, matches)
    missing = await visit_operands(ctx, "find", starts or ["/"], visit)
    return listing_result("find", "".join(f"{path}\n" for path in matches), missing)


async def _walk(ctx: CommandContext, start: str, label: str, is_dir: bool, filters: FindFilters,
                matches: list[str]) -> None:
    """Pre-order, children in name order; a stack rather than recursion, so no tree is too
    deep. `label` is how the start is shown; children are shown below it."""
    stack = [(start, label, is_dir, 0)]
    while stack:
        path, shown, is_dir, depth = stack.pop()
        if filters.matches(path, is_dir):
            matches.append(shown)
        if is_dir and (filters.max_depth is None or depth < filters.max_depth):
            children = await sorted_children(ctx, path)
            stack.extend((child, _below(shown, name), child_is_dir, depth + 1)
                         for name, child, child_is_dir in reversed(children))


def _below(shown: str, name: str) -> str:
    return shown + name if shown.endswith("/") else f"{shown}/{name}"


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
