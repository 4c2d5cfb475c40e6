"""`find` as GNU findutils in the bash language: starting points, then an expression of
tests (-name -iname -path -ipath -regex -iregex -type -size -empty -mtime -mmin -newer),
actions (-print -print0 -printf -exec ... ; and + -delete -prune -quit) and operators
(`!` -not, -a -and, -o -or, parentheses), over a pre-order walk (post-order with -depth
or -delete). Without an action, matches are printed. `-exec` runs commands through the
shell (`ctx.run_argv`), so the policy and the run's limits apply to them.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ...result import CommandResult
from ...vfs.base import VFSStat
from ..fs_common import sorted_children
from ..fs_glob import compile_glob
from ..helpers import FS_ERRORS
from ..spec import CommandContext
from ._modes import ModeError, apply_mode, mode_of, parse_mode

MAX_PARENTHESES = 64
_NUMBER = re.compile(r"([+-]?)(\d+)")
_SIZE = re.compile(r"([+-]?)(\d+)([bcwkMG]?)")
_SIZE_UNITS = {"b": 512, "c": 1, "w": 2, "k": 1024, "M": 1 << 20, "G": 1 << 30}


class FindError(Exception):
    """A bad expression: `find: <message>`, exit 1, nothing searched."""


@dataclass
class Entry:
    path: str     # the real, normalised path
    shown: str    # as find prints it: the starting point as written, then names
    info: VFSStat
    depth: int

    @property
    def name(self) -> str:
        if self.depth == 0:
            return self.shown.rstrip("/").rsplit("/", 1)[-1] or self.shown
        return self.path.rsplit("/", 1)[-1]


@dataclass
class Run:
    """What one find invocation collects while it walks."""
    ctx: CommandContext
    out: bytearray = field(default_factory=bytearray)
    errors: list[str] = field(default_factory=list)  # stderr lines: find's own and -exec commands'
    prune: bool = False
    quit: bool = False
    failed: bool = False
    batches: list[tuple[list[str], list[str]]] = field(default_factory=list)  # -exec ... {} +
    now_ms: float = field(default_factory=lambda: time.time() * 1000)


Predicate = Callable[[Entry, Run], Any]  # async: returns bool


@dataclass
class Options:
    min_depth: int = 0
    max_depth: int | None = None
    depth_first: bool = False
    has_action: bool = False


class Parser:
    """Reads the expression after the starting points into one async predicate."""

    def __init__(self, words: list[str]) -> None:
        self.words = words
        self.position = 0
        self.options = Options()
        self.newer: dict[str, str] = {}  # -newer FILE, resolved before the walk

    def parse(self) -> Predicate:
        if self.position >= len(self.words):
            return _true
        predicate = self._or(0)
        if self.position < len(self.words):
            raise FindError(f"paths must precede expression: `{self.words[self.position]}'")
        return predicate

    def _peek(self) -> str | None:
        return self.words[self.position] if self.position < len(self.words) else None

    def _take(self) -> str:
        word = self.words[self.position]
        self.position += 1
        return word

    def _or(self, depth: int) -> Predicate:
        left = self._and(depth)
        while self._peek() in ("-o", "-or"):
            self._take()
            right = self._and(depth)
            left = _either(left, right)
        return left

    def _and(self, depth: int) -> Predicate:
        left = self._not(depth)
        while self._peek() not in (None, "-o", "-or", ")", ","):
            if self._peek() in ("-a", "-and"):
                self._take()
            right = self._not(depth)
            left = _both(left, right)
        return left

    def _not(self, depth: int) -> Predicate:
        if self._peek() in ("!", "-not"):
            self._take()
            inner = self._not(depth)
            return _negate(inner)
        return self._primary(depth)

    def _primary(self, depth: int) -> Predicate:
        word = self._peek()
        if word is None:
            raise FindError("expected an expression")
        if word == "(":
            if depth >= MAX_PARENTHESES:
                raise FindError("too many nested parentheses")
            self._take()
            inner = self._or(depth + 1)
            if self._peek() != ")":
                raise FindError("invalid expression; I was expecting to find a ')' somewhere but did not see one.")
            self._take()
            return inner
        self._take()
        return self._word(word)

    def _argument(self, option: str) -> str:
        if self._peek() is None:
            raise FindError(f"missing argument to `{option}'")
        return self._take()

    def _word(self, word: str) -> Predicate:
        options = self.options
        if word in ("-maxdepth", "-mindepth"):
            value = self._argument(word)
            if not value.isdigit():
                raise FindError(f"Expected a positive decimal integer argument to {word}, but got `{value}'")
            setattr(options, "max_depth" if word == "-maxdepth" else "min_depth", int(value))
            return _true
        if word in ("-depth", "-d"):
            options.depth_first = True
            return _true
        if word in ("-readable", "-writable", "-executable"):
            return _access(word)
        if word == "-perm":
            return _perm(self._argument(word))
        if word == "-true":
            return _true
        if word == "-false":
            return _false
        if word in ("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename"):
            pattern = compile_glob(self._argument(word), ignore_case=word.startswith("-i"))
            on_path = "name" not in word
            return _matching(pattern, on_path)
        if word in ("-regex", "-iregex"):
            source = self._argument(word)
            try:
                regex = re.compile(source, re.DOTALL | (re.IGNORECASE if word == "-iregex" else 0))
            except re.error as error:
                raise FindError(f"invalid regular expression `{source}': {error}")
            return _regex(regex)
        if word == "-type":
            return _type(self._argument(word))
        if word == "-empty":
            return _empty
        if word == "-size":
            return _size(self._argument(word))
        if word in ("-mtime", "-mmin"):
            return _age(word, self._argument(word))
        if word == "-newer":
            return _newer(self._argument(word))
        return self._action(word)

    def _action(self, word: str) -> Predicate:
        options = self.options
        if word == "-print":
            options.has_action = True
            return _print(b"\n")
        if word == "-print0":
            options.has_action = True
            return _print(b"\0")
        if word == "-printf":
            options.has_action = True
            return _printf(self._argument(word))
        if word == "-delete":
            options.has_action = True
            options.depth_first = True
            return _delete
        if word == "-prune":
            return _prune
        if word == "-quit":
            options.has_action = True  # GNU: only -prune and -print leave the default -print on
            return _quit
        if word in ("-exec", "-ok", "-execdir", "-okdir"):
            options.has_action = True
            return self._exec(word)
        if word in ("-ls", "-fls", "-fprint", "-fprintf"):
            raise FindError(f"{word} is not supported here; use -printf (or -print and ls -l)")
        if word.startswith("-"):
            raise FindError(f"unknown predicate `{word}'")
        raise FindError(f"paths must precede expression: `{word}'")

    def _exec(self, word: str) -> Predicate:
        command: list[str] = []
        while True:
            part = self._peek()
            if part is None:
                raise FindError(f"missing argument to `{word}'")
            self._take()
            if part == ";":
                break
            if part == "+" and command and command[-1] == "{}":
                return _exec_batch(command[:-1], in_dir=word.endswith("dir"))
            command.append(part)
        if not command:
            raise FindError(f"missing argument to `{word}'")
        return _exec_each(command, in_dir=word.endswith("dir"))


# ---------------------------------------------------------------- predicates


async def _true(entry: Entry, run: Run) -> bool:
    return True


async def _false(entry: Entry, run: Run) -> bool:
    return False


def _either(left: Predicate, right: Predicate) -> Predicate:
    async def either(entry: Entry, run: Run) -> bool:
        return await left(entry, run) or await right(entry, run)
    return either


def _both(left: Predicate, right: Predicate) -> Predicate:
    async def both(entry: Entry, run: Run) -> bool:
        return await left(entry, run) and await right(entry, run)
    return both


def _negate(inner: Predicate) -> Predicate:
    async def negate(entry: Entry, run: Run) -> bool:
        return not await inner(entry, run)
    return negate


def _matching(pattern: re.Pattern[str], on_path: bool) -> Predicate:
    async def matching(entry: Entry, run: Run) -> bool:
        return pattern.fullmatch(entry.shown if on_path else entry.name) is not None
    return matching


def _regex(regex: re.Pattern[str]) -> Predicate:
    async def matching(entry: Entry, run: Run) -> bool:
        return regex.fullmatch(entry.shown) is not None
    return matching


def _type(letter: str) -> Predicate:
    if letter not in "fdlbcps" or len(letter) != 1:
        raise FindError(f"Unknown argument to -type: {letter}")

    async def of_type(entry: Entry, run: Run) -> bool:
        return (letter == "d" and entry.info.is_dir) or (letter == "f" and not entry.info.is_dir)
    return of_type


async def _empty(entry: Entry, run: Run) -> bool:
    if not entry.info.is_dir:
        return entry.info.size == 0
    try:
        return not await run.ctx.vfs.listdir(entry.path)
    except FS_ERRORS:
        return False


def _compare(sign: str, value: int, wanted: int) -> bool:
    return value > wanted if sign == "+" else value < wanted if sign == "-" else value == wanted


def _size(argument: str) -> Predicate:
    match = _SIZE.fullmatch(argument)
    if not match:
        raise FindError(f"invalid argument `{argument}' to `-size'")
    sign, number, unit = match.group(1), int(match.group(2)), _SIZE_UNITS[match.group(3) or "b"]

    async def sized(entry: Entry, run: Run) -> bool:
        units = -(-entry.info.size // unit)  # GNU rounds up to whole units
        return _compare(sign, units, number)
    return sized


def _age(option: str, argument: str) -> Predicate:
    match = _NUMBER.fullmatch(argument)
    if not match:
        raise FindError(f"invalid argument `{argument}' to `{option}'")
    sign, number = match.group(1), int(match.group(2))
    period_ms = 86_400_000 if option == "-mtime" else 60_000

    async def aged(entry: Entry, run: Run) -> bool:
        age = int((run.now_ms - entry.info.modified_epoch_ms) // period_ms)
        return _compare(sign, age, number)
    return aged


def _newer(reference: str) -> Predicate:
    async def newer(entry: Entry, run: Run) -> bool:
        try:
            info = await run.ctx.vfs.stat(reference)
        except FS_ERRORS:
            info = None
        if info is None or not info.exists:
            raise FindError(f"`{reference}': No such file or directory")
        return entry.info.modified_epoch_ms > info.modified_epoch_ms
    return newer


def _print(end: bytes) -> Predicate:
    async def print_(entry: Entry, run: Run) -> bool:
        run.out += entry.shown.encode("utf-8", "surrogateescape") + end
        return True
    return print_


_PRINTF = re.compile(r"%([-+ #0]*\d*)([pfhsdmPtT%])|\\(.)", re.DOTALL)
_ESCAPES = {"n": "\n", "t": "\t", "0": "\0", "\\": "\\", "r": "\r"}


def _printf(template: str) -> Predicate:
    async def printf(entry: Entry, run: Run) -> bool:
        def field_of(match: re.Match[str]) -> str:
            if match.group(3) is not None:
                return _ESCAPES.get(match.group(3), "\\" + match.group(3))
            flags, code = match.group(1), match.group(2)
            value = {"p": entry.shown, "f": entry.name, "s": str(entry.info.size), "d": str(entry.depth),
                     "h": entry.shown.rsplit("/", 1)[0] if "/" in entry.shown else ".",
                     "P": entry.shown.split("/", 1)[1] if "/" in entry.shown and entry.depth else "",
                     "m": "755" if entry.info.is_dir else "644", "%": "%",
                     "t": time.strftime("%a %b %d %H:%M:%S %Y", time.gmtime(entry.info.modified_epoch_ms / 1000)),
                     "T": str(entry.info.modified_epoch_ms // 1000)}[code]
            return ("%" + flags + "s") % value if flags else value
        run.out += _PRINTF.sub(field_of, template).encode("utf-8", "surrogateescape")
        return True
    return printf


async def _delete(entry: Entry, run: Run) -> bool:
    if entry.depth == 0 and entry.shown in (".", "./"):
        return True  # GNU never deletes the starting `.`
    try:
        if entry.info.is_dir and await run.ctx.vfs.listdir(entry.path):
            run.errors.append(f"find: cannot delete `{entry.shown}': Directory not empty")
            run.failed = True
            return False
        await run.ctx.vfs.delete(entry.path)
    except FS_ERRORS as error:
        run.errors.append(f"find: cannot delete `{entry.shown}': {error}")
        run.failed = True
        return False
    return True


async def _prune(entry: Entry, run: Run) -> bool:
    run.prune = True
    return True


async def _quit(entry: Entry, run: Run) -> bool:
    run.quit = True
    return True


def _exec_each(command: list[str], in_dir: bool = False) -> Predicate:
    """-exec (and -ok: no terminal to ask, so it runs as the policy allows): `{}` is the path;
    -execdir runs in the entry's directory with `{}` as `./NAME`."""
    async def exec_each(entry: Entry, run: Run) -> bool:
        if in_dir:
            argv = [part.replace("{}", _dir_name(entry)) for part in command]
            return await _run(run, _in_directory(_parent(entry.path), argv)) == 0
        argv = [part.replace("{}", entry.shown) for part in command]
        return await _run(run, argv) == 0
    return exec_each


def _exec_batch(command: list[str], in_dir: bool = False) -> Predicate:
    """`-exec ... {} +`: the paths gathered and run in batches at the end; with -execdir,
    one batch a directory."""
    batches: dict[str, tuple[list[str], list[str]]] = {}

    async def exec_batch(entry: Entry, run: Run) -> bool:
        where = _parent(entry.path) if in_dir else ""
        if where not in batches:
            batches[where] = (_in_directory(where, command) if in_dir else command, [])
            run.batches.append(batches[where])
        batches[where][1].append(_dir_name(entry) if in_dir else entry.shown)
        return True
    return exec_batch


def _parent(path: str) -> str:
    return path.rsplit("/", 1)[0] or "/"


def _dir_name(entry: Entry) -> str:
    """How -execdir names an entry: `./NAME` (the start point itself as GNU shows it)."""
    return "./" + entry.path.rstrip("/").rsplit("/", 1)[-1] if entry.path != "/" else "/"


def _in_directory(directory: str, argv: list[str]) -> list[str]:
    """Run `argv` with `directory` as the working directory: a shell that cds, then runs it
    (through the same gate: the command is still checked by its own name)."""
    return ["sh", "-c", 'cd "$1" || exit 1; shift; "$@"', "sh", directory, *argv]


def _access(word: str) -> Predicate:
    """-readable/-writable/-executable: the owner's bits (the sandbox's user owns every file);
    a VFS without modes grants read and write, and execute to directories."""
    bit = {"-readable": 0o400, "-writable": 0o200, "-executable": 0o100}[word]

    async def access(entry: Entry, run: Run) -> bool:
        mode = getattr(entry.info, "mode", None)
        if mode is None:
            return word != "-executable" or entry.info.is_dir
        return bool(mode & bit)
    return access


def _perm(text: str) -> Predicate:
    """-perm MODE (exactly), -perm -MODE (all of these bits), -perm /MODE (any of them);
    MODE octal or symbolic (`u+x`, `g=w`), applied to 000 as GNU does."""
    kind, body = (text[0], text[1:]) if text[:1] in ("-", "/", "+") and len(text) > 1 else ("", text)
    try:
        wanted = apply_mode(parse_mode(body), 0, False, umask=0)
    except ModeError:
        raise FindError(f"invalid mode '{text}'") from None

    async def perm(entry: Entry, run: Run) -> bool:
        mode = mode_of(entry.info) & 0o777
        if kind == "-":
            return mode & wanted == wanted
        if kind in ("/", "+"):
            return wanted == 0 or bool(mode & wanted)
        return mode == wanted
    return perm


async def _run(run: Run, argv: list[str]) -> int:
    if run.ctx.run_argv is None:
        raise FindError("-exec needs the shell to run commands")
    result = await run.ctx.run_argv(argv, b"")
    run.out += result.stdout
    if result.exit_code == 127 and "command not found" in result.stderr:
        # GNU find execs the program itself: a missing one is ENOENT, in find's words.
        run.errors.append(f"find: '{argv[0]}': No such file or directory")
    elif result.stderr:
        run.errors.append(result.stderr)
    return result.exit_code


# ---------------------------------------------------------------- the walk


async def gnu_find(ctx: CommandContext, args: list[str]) -> CommandResult:
    starts: list[str] = []
    index = 0
    while index < len(args) and (not args[index].startswith("-") or args[index] == "-") \
            and args[index] not in ("(", "!"):
        starts.append(args[index])
        index += 1
    parser = Parser(args[index:])
    try:
        predicate = parser.parse()
    except FindError as error:
        return CommandResult(b"", f"find: {error}", 1)
    options = parser.options
    run = Run(ctx)
    try:
        for start in starts or ["."]:
            await _walk(run, start, predicate, options)
            if run.quit:
                break
        for command, paths in run.batches:
            for first in range(0, len(paths), 1000):
                if await _run(run, command + paths[first:first + 1000]) != 0:
                    run.failed = True
    except FindError as error:
        run.errors.append(f"find: {error}")
        run.failed = True
    # What -exec commands print does not make find fail; its own errors do.
    status = 1 if run.failed else 0
    return CommandResult(bytes(run.out), "\n".join(run.errors), status)


async def _walk(run: Run, start: str, predicate: Predicate, options: Options) -> None:
    try:
        info = await run.ctx.vfs.stat(start)
    except FS_ERRORS:
        info = None
    if info is None or not info.exists:
        run.errors.append(f"find: '{start}': No such file or directory")
        run.failed = True
        return
    # (entry, children_done): post-order visits an entry after its children.
    stack: list[tuple[Entry, bool]] = [(Entry(info.path, start, info, 0), False)]
    while stack and not run.quit:
        if run.ctx.cancelled():
            raise FindError("interrupted")
        entry, children_done = stack.pop()
        if options.depth_first and entry.info.is_dir and not children_done:
            stack.append((entry, True))
            await _push_children(run, entry, stack, options)
            continue
        run.prune = False
        if entry.depth >= options.min_depth:
            matched = await predicate(entry, run)
            if matched and not options.has_action:
                run.out += entry.shown.encode("utf-8", "surrogateescape") + b"\n"
        if not options.depth_first and entry.info.is_dir and not run.prune:
            await _push_children(run, entry, stack, options)


async def _push_children(run: Run, entry: Entry, stack: list[tuple[Entry, bool]], options: Options) -> None:
    if options.max_depth is not None and entry.depth >= options.max_depth:
        return
    try:
        children = await sorted_children(run.ctx, entry.path)
    except FS_ERRORS as error:
        run.errors.append(f"find: '{entry.shown}': {error}")
        run.failed = True
        return
    for name, path, _ in reversed(children):
        try:
            info = await run.ctx.vfs.stat(path)
        except FS_ERRORS:
            continue
        shown = entry.shown + name if entry.shown.endswith("/") else f"{entry.shown}/{name}"
        stack.append((Entry(path, shown, info, entry.depth + 1), False))
