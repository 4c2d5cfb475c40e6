"""`tree`: a directory drawn as GNU tree draws it.

    /notes
    ├── archive
    │   └── 2025.txt
    └── todo.txt

    1 directory, 2 files

Names sort in C-locale byte order, directories and files together (GNU tree's default);
hidden entries only with -a; -L N stops N levels down; -d lists directories only.

That is the strict grammar's (upstream's) drawing. The bash language draws as GNU tree 2.1
does under LC_ALL=C: ASCII connectors (`|-- `, `` `-- ``, `|   `), the operand as written
(default `.`), and -a -d -f -i -F -L -I -P --noreport --dirsfirst --charset -C -n.
"""
from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field

from ...result import CommandResult
from ...vfs.base import VFSStat
from ..fs_common import FS_ERRORS, listing_result, sorted_children, visit_operands
from ..getopt import NONE, REQUIRED, gnu_getopt
from ..spec import CommandFailed
from ..helpers import fail
from ..options import ArgReader, unknown_option, usage_failure
from ..spec import CommandContext, CommandSpec

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
    if ctx.grammar == "bash":
        return await gnu_tree(ctx, args)
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


# -- the bash language: GNU tree 2.1 under LC_ALL=C -----------------------------------------

_GNU_LONG = {"noreport": ("noreport", NONE), "dirsfirst": ("dirsfirst", NONE), "charset": ("charset", REQUIRED),
             "filelimit": ("filelimit", REQUIRED), "matchdirs": ("matchdirs", NONE), "prune": ("prune", NONE),
             "help": ("help", NONE), "version": ("version", NONE)}
_ASCII = ("|-- ", "`-- ", "|   ", "    ")


@dataclass
class GnuTreeOptions:
    all: bool = False
    dirs_only: bool = False
    full_path: bool = False
    no_indent: bool = False
    classify: bool = False
    noreport: bool = False
    dirs_first: bool = False
    max_level: int | None = None
    ignore: list[str] = field(default_factory=list)
    only: list[str] = field(default_factory=list)


def _tree_error(message: str) -> CommandFailed:
    return CommandFailed(CommandResult(b"", message, 1))


def parse_gnu_tree_args(args: list[str]) -> tuple[GnuTreeOptions, list[str]]:
    """tree reads its options by hand: each word is one option (`-L 2`, `-L2`), bundles of flag letters."""
    options = GnuTreeOptions()
    operands: list[str] = []
    index = 0
    ended = False
    while index < len(args):
        arg = args[index]
        index += 1
        if ended or not arg.startswith("-") or arg == "-":
            operands.append(arg)
            continue
        if arg == "--":
            ended = True
            continue
        if arg.startswith("--"):
            try:
                parsed, _ = gnu_getopt("tree", TREE_USAGE, [arg, *args[index:index + 1]], "", _GNU_LONG)
            except CommandFailed:
                raise _tree_error(f"tree: Invalid argument `{arg}'.\nusage: tree [-acdfghilnpqrstuvxACDFJQNSUX] "
                                  "[-L level [-R]] [-H  baseHREF] [-T title] [-o filename] [-P pattern] "
                                  "[-I pattern] [--gitignore] [--gitfile[=]file] [--matchdirs] [--metafirst] "
                                  "[--ignore-case] [--nolinks] [--hintro[=]file] [--houtro[=]file] [--inodes] "
                                  "[--device] [--sort[=]<name>] [--dirsfirst] [--filesfirst] [--filelimit #] "
                                  "[--si] [--du] [--prune] [--charset[=]X] [--timefmt[=]format] [--fromfile] "
                                  "[--fromtabfile] [--fflinks] [--info] [--infofile[=]file] [--noreport] "
                                  "[--version] [--help] [--] [directory ...]") from None
            key = parsed[0][0]
            if "=" not in arg and _GNU_LONG.get(arg[2:], ("", NONE))[1] == REQUIRED:
                index += 1
            if key == "noreport":
                options.noreport = True
            elif key == "dirsfirst":
                options.dirs_first = True
            continue
        position = 1
        while position < len(arg):
            letter = arg[position]
            position += 1
            if letter in "LIP":  # the value is always the next word (`-L2` reads the word after)
                if index >= len(args):
                    raise _tree_error(f"tree: Missing argument to -{letter} option.")
                value = args[index]
                index += 1
                if letter == "L":
                    if not value.isdigit() or int(value) < 1:
                        raise _tree_error("tree: Invalid level, must be greater than 0.")
                    options.max_level = int(value)
                elif letter == "I":
                    options.ignore.append(value)
                else:
                    options.only.append(value)
                continue
            flag = {"a": "all", "d": "dirs_only", "f": "full_path", "i": "no_indent", "F": "classify"}.get(letter)
            if flag:
                setattr(options, flag, True)
            elif letter not in "Cn":
                raise _tree_error(f"tree: Invalid argument -`{letter}'.\nusage: tree [-acdfghilnpqrstuvxACDFJQNSUX] "
                                  "[-L level [-R]] [-P pattern] [-I pattern] [--noreport] [--dirsfirst] "
                                  "[--charset[=]X] [--] [directory ...]")
    return options, operands


def _matches(name: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, alternative) for pattern in patterns for alternative in pattern.split("|"))


async def gnu_tree(ctx: CommandContext, args: list[str]) -> CommandResult:
    options, roots = parse_gnu_tree_args(args)
    lines: list[str] = []
    counts = Counts()
    status = 0
    for root in roots or ["."]:
        try:
            info = await ctx.vfs.stat(root)
        except FS_ERRORS:
            info = None
        if info is None or not info.exists:
            lines.append(f"{root}  [error opening dir]")
            status = 2
            continue
        if not info.is_dir:  # GNU tree 2.1 names it, counts it as a file and carries on
            lines.append(f"{root}  [error opening dir]")
            counts.files += 0 if options.dirs_only else 1
            continue
        lines.append(root + ("/" if options.classify and not root.endswith("/") else ""))
        if await _gnu_draw(ctx, root, options, counts, lines):
            counts.directories += 1  # GNU tree 2.1 counts a root directory that shows entries
    body = "".join(line + "\n" for line in lines)
    if not options.noreport:
        body += "\n" + counts.report(options.dirs_only) + "\n"
    return CommandResult(body.encode("utf-8", "surrogateescape"), "", status)


async def _gnu_children(ctx: CommandContext, directory: str, options: GnuTreeOptions) -> list[tuple[str, bool]]:
    try:
        listing = await ctx.vfs.listdir(directory)
    except FS_ERRORS:
        return []
    children = []
    for raw in listing:
        name, is_dir = raw.rstrip("/"), raw.endswith("/")
        if not options.all and name.startswith("."):
            continue
        if options.dirs_only and not is_dir:
            continue
        if options.ignore and _matches(name, options.ignore):
            continue
        if options.only and not is_dir and not _matches(name, options.only):
            continue
        children.append((name, is_dir))
    key = (lambda item: (not item[1], item[0].encode("utf-8", "surrogateescape"))) if options.dirs_first \
        else (lambda item: item[0].encode("utf-8", "surrogateescape"))
    return sorted(children, key=key)


async def _gnu_draw(ctx: CommandContext, root: str, options: GnuTreeOptions, counts: Counts,
                    lines: list[str]) -> bool:
    """Draw below `root`; True when it showed any entry."""
    def items(directory: str, shown: str, prefix: str, level: int, children: list[tuple[str, bool]]):
        return [(name, f"{directory.rstrip('/')}/{name}", f"{shown.rstrip('/') if shown != '/' else ''}/{name}",
                 is_dir, prefix, level, position == len(children) - 1)
                for position, (name, is_dir) in enumerate(children)][::-1]

    stack = items(root, root, "", 1, await _gnu_children(ctx, root, options))
    shown_any = bool(stack)
    while stack:
        name, path, shown, is_dir, prefix, level, last = stack.pop()
        text = shown if options.full_path else name
        if options.classify and is_dir:
            text += "/"
        connector = "" if options.no_indent else (_ASCII[1] if last else _ASCII[0])
        lines.append(f"{prefix}{connector}{text}")
        if not is_dir:
            counts.files += 1
            continue
        counts.directories += 1
        if options.max_level is None or level < options.max_level:
            deeper = "" if options.no_indent else prefix + (_ASCII[3] if last else _ASCII[2])
            stack.extend(items(path, shown, deeper, level + 1, await _gnu_children(ctx, path, options)))
    return shown_any


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
