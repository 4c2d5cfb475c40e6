"""`tree`: a directory drawn as GNU tree draws it.

    /notes
    ├── archive
    │   └── 2025.txt
    └── todo.txt

    1 directory, 2 files

Names sort in C-locale byte order, directories and files together (GNU tree's default);
hidden entries only with -a; -L N stops N levels down; -d lists directories only.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..result import CommandResult, err
from .fs_common import FS_ERRORS, fs_failure, is_option, sorted_children, unknown_option
from .spec import CommandContext, CommandFailed, CommandSpec

TREE_USAGE = "tree [-a] [-d] [-L N] [path ...]"
_LEVEL = re.compile(r"[0-9]+")
_BRANCH, _LAST, _PIPE, _GAP = "├── ", "└── ", "│   ", "    "


@dataclass(frozen=True)
class TreeOptions:
    all: bool = False
    dirs_only: bool = False
    max_level: int | None = None


@dataclass
class Counts:
    directories: int = 0
    files: int = 0

    def report(self, dirs_only: bool) -> str:
        directories = f"{self.directories} director{'y' if self.directories == 1 else 'ies'}"
        if dirs_only:
            return directories
        return f"{directories}, {self.files} file{'' if self.files == 1 else 's'}"


def parse_tree_args(args: list[str]) -> tuple[TreeOptions, list[str]] | CommandResult:
    show_all, dirs_only, level, paths = False, False, None, []
    index, options_done = 0, False
    while index < len(args):
        arg = args[index]
        if options_done or not is_option(arg):
            paths.append(arg)
        elif arg == "--":
            options_done = True
        elif re.fullmatch(r"-[ad]*L.*", arg):
            # -L N, -LN, and bundles ending in L (`-aL 2`)
            flags, _, value = arg[1:].partition("L")
            show_all, dirs_only = show_all or "a" in flags, dirs_only or "d" in flags
            if not value:
                if index + 1 >= len(args):
                    return err(f"tree: missing value for -L. Usage: {TREE_USAGE}")
                index += 1
                value = args[index]
            if not _LEVEL.fullmatch(value) or int(value) < 1:
                return err(f"tree: invalid level for -L: {value}. Use a whole number of 1 or more, "
                           "e.g. tree -L 2 /")
            level = int(value)
        elif re.fullmatch(r"-[ad]+", arg):
            show_all, dirs_only = show_all or "a" in arg, dirs_only or "d" in arg
        else:
            return unknown_option("tree", arg, TREE_USAGE)
        index += 1
    return TreeOptions(show_all, dirs_only, level), paths


async def cmd_tree(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    parsed = parse_tree_args(args)
    if isinstance(parsed, CommandResult):
        return parsed
    options, roots = parsed
    lines: list[str] = []
    counts = Counts()
    missing: list[str] = []
    for root in roots or ["/"]:
        try:
            info = await ctx.vfs.stat(root)
            if not info.exists:
                missing.append(ctx.vfs.normalize(root))
                continue
            lines.append(info.path)
            if info.is_dir:
                await _draw(ctx, info.path, options, counts, lines)
            elif not options.dirs_only:
                counts.files += 1
        except FS_ERRORS as error:
            raise CommandFailed(await fs_failure(ctx, "tree", root, error)) from None
    stdout = ""
    if lines:
        stdout = "\n".join(lines) + "\n\n" + counts.report(options.dirs_only) + "\n"
    if missing:
        return CommandResult(stdout=stdout.encode("utf-8"), exit_code=1,
                             stderr=f"tree: path not found: {', '.join(missing)}")
    return CommandResult(stdout=stdout.encode("utf-8"))


async def _draw(ctx: CommandContext, root: str, options: TreeOptions, counts: Counts, lines: list[str]) -> None:
    """Append one line per node below `root`, in pre-order. Each stack item is a line still
    to draw: (name, path, is_dir, prefix, level, is_last); a stack rather than recursion,
    so no tree is too deep."""
    stack = await _children_items(ctx, root, "", 1, options)
    while stack:
        name, path, is_dir, prefix, level, last = stack.pop()
        lines.append(f"{prefix}{_LAST if last else _BRANCH}{name}")
        if not is_dir:
            counts.files += 1
            continue
        counts.directories += 1
        if options.max_level is None or level < options.max_level:
            stack.extend(await _children_items(ctx, path, prefix + (_GAP if last else _PIPE), level + 1, options))


async def _children_items(ctx: CommandContext, directory: str, prefix: str, level: int,
                          options: TreeOptions) -> list[tuple[str, str, bool, str, int, bool]]:
    """A directory's visible children as stack items, reversed so the first pops first."""
    children = [(name, path, is_dir) for name, path, is_dir in await sorted_children(ctx, directory)
                if (options.all or not name.startswith(".")) and (is_dir or not options.dirs_only)]
    items = [(name, path, is_dir, prefix, level, position == len(children) - 1)
             for position, (name, path, is_dir) in enumerate(children)]
    return items[::-1]


TREE = CommandSpec(
    name="tree",
    summary="Show a directory and everything below it as an indented tree, like GNU tree.",
    usage=TREE_USAGE,
    details=("Draws each path (default /) with ├──, └── and │ connectors, names in C-locale order "
             "(directories and files together), then a `N directories, M files` line. Hidden "
             "entries (names starting with .) only with -a; -L N descends at most N levels; "
             "-d shows directories only.\n"
             "Examples:\n  tree\n  tree /logs\n  tree -L 2 /\n  tree -a -d /config"),
    group="fs",
    handler=cmd_tree,
    accepts_stdin=False, min_args=0, conformance_args=("/",),
)

COMMANDS = [TREE]
