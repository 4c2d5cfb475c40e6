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

from ..result import CommandResult
from ..vfs.base import VFSStat
from .fs_common import listing_result, sorted_children, visit_operands
from .helpers import fail
from .options import ArgReader, unknown_option, usage_failure
from .spec import CommandContext, CommandSpec

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


def parse_tree_args(args: list[str]) -> tuple[TreeOptions, list[str]]:
    show_all, dirs_only, level = False, False, None
    reader = ArgReader(args)
    for arg in reader:
        if re.fullmatch(r"-[ad]*L.*", arg):
            # -L N, -LN, and bundles ending in L (`-aL 2`)
            flags, _, value = arg[1:].partition("L")
            show_all, dirs_only = show_all or "a" in flags, dirs_only or "d" in flags
            value = reader.value(value or None, usage_failure("tree", "missing value for -L", TREE_USAGE))
            if not _LEVEL.fullmatch(value) or int(value) < 1:
                raise fail(f"tree: invalid level for -L: {value}. Use a whole number of 1 or more, "
                           "e.g. tree -L 2 /")
            level = int(value)
        elif re.fullmatch(r"-[ad]+", arg):
            show_all, dirs_only = show_all or "a" in arg, dirs_only or "d" in arg
        else:
            raise unknown_option("tree", arg, TREE_USAGE)
    return TreeOptions(show_all, dirs_only, level), reader.operands


async def cmd_tree(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, roots = parse_tree_args(args)
    lines: list[str] = []
    counts = Counts()

    async def visit(info: VFSStat) -> None:
        lines.append(info.path)
        if info.is_dir:
            await _draw(ctx, info.path, options, counts, lines)
        elif not options.dirs_only:
            counts.files += 1
    missing = await visit_operands(ctx, "tree", roots or ["/"], visit)
    output = "\n".join(lines) + "\n\n" + counts.report(options.dirs_only) + "\n" if lines else ""
    return listing_result("tree", output, missing)


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
