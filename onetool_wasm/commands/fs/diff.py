"""diff: compare two files, or two directories (-r), in GNU diff's output formats.

The edit script comes from onetool_wasm.diff (GNU's choices among minimal scripts, and
the output formats), the command line from _diff_options. This module finds what to
compare: files, directories, a file against a directory (`diff a.txt /dir` compares
with /dir/a.txt, as GNU does) and stdin (`-`). Exit codes are GNU's: 0 same,
1 different, 2 trouble.

In the bash language it speaks GNU diffutils 3.8: names as written, -q -s -N -B -w -b -E
-Z -I -i -L -y -W -t -e -x -X --strip-trailing-cr, and GNU's error texts. The strict
grammar keeps upstream's options and texts.
"""
from __future__ import annotations

import fnmatch
import re
import time
from dataclasses import dataclass, field
from datetime import tzinfo
from typing import Sequence

from ...diff import DiffSide, Layout, edit_script, quote_name, render, render_side
from ...regex import RegexError, compile_regex
from ...result import CommandResult
from ...vfs.errors import VFSError
from ...vfs.paths import base_name, parent_of
from ..helpers import check_materialized, content_type_for
from ..spec import CommandContext, CommandFailed, CommandSpec
from ._diff_options import USAGE, DiffOptions, gnu_trouble, parse_diff_args, parse_gnu_diff_args

# C isspace() minus the newline: what -b treats as white space.
_SPACE_RUN = re.compile(rb"[ \t\v\f\r]+")
_TRAILING = b" \t\v\f\r"
_MAX_DEPTH = 256
STDIN = "-"


class DiffTrouble(Exception):
    """Something made the comparison impossible (exit 2); the message is one stderr line."""


@dataclass(frozen=True)
class Target:
    """A resolved operand: a file (or stdin) or a directory, with its display name."""
    name: str
    is_dir: bool
    path: str | None = None  # None for stdin
    size: int = 0
    modified_ms: int = 0
    exists: bool = True  # False: a missing file -N reads as empty


@dataclass
class Outcome:
    """What a comparison printed and how it ended (the worst status wins)."""
    chunks: list[bytes] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    status: int = 0

    def add(self, text: bytes | str, status: int = 0) -> None:
        self.chunks.append(text.encode("utf-8", errors="surrogateescape") if isinstance(text, str) else text)
        self.status = max(self.status, status)

    def fail(self, message: str) -> None:
        self.errors.append(message)
        self.status = 2

    def result(self) -> CommandResult:
        body = b"".join(self.chunks)
        return CommandResult(stdout=body, stderr="\n".join(self.errors), exit_code=self.status,
                             content_type=content_type_for(body))


async def cmd_diff(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    gnu = ctx.grammar == "bash"
    options = parse_gnu_diff_args(args) if gnu else parse_diff_args(args)
    run = _DiffRun(ctx, options, stdin, gnu)
    try:
        if gnu:
            await run.load_gnu_patterns()
        await run.top_level(*options.operands)
    except DiffTrouble as trouble:
        run.outcome.fail(str(trouble))
    return run.outcome.result()


class _DiffRun:
    """One invocation: resolves the operands, walks directories, collects the outcome."""

    def __init__(self, ctx: CommandContext, options: DiffOptions, stdin: bytes, gnu: bool = False) -> None:
        self.ctx = ctx
        self.options = options
        self.stdin = stdin
        self.gnu = gnu
        self.outcome = Outcome()
        self.zone: tzinfo | None = ctx.timezone
        self.ignore_regexes: list = []
        self.exclude_patterns: list[str] = list(options.excludes)

    async def load_gnu_patterns(self) -> None:
        for pattern in self.options.ignore_patterns:
            try:
                self.ignore_regexes.append(compile_regex(pattern))
            except RegexError as error:
                raise gnu_trouble(f"diff: {error}") from None
        for path in self.options.exclude_files:
            try:
                data = await self.ctx.vfs.read_bytes(path)
            except VFSError as error:
                raise gnu_trouble(f"diff: {path}: {_vfs_reason(error)}") from None
            self.exclude_patterns.extend(line for line in data.decode("utf-8", "surrogateescape").split("\n") if line)

    # -- operands -------------------------------------------------------------------------

    async def top_level(self, left_arg: str, right_arg: str) -> None:
        if left_arg == STDIN and right_arg == STDIN:
            if self.gnu and self.options.report_identical:
                self.outcome.add("Files - and - are identical\n")
            return  # the same input on both sides
        if self.gnu:
            await self._gnu_top_level(left_arg, right_arg)
            return
        left = await self._resolve(left_arg)
        right = await self._resolve(right_arg)
        if (left.is_dir and right.path is None) or (right.is_dir and left.path is None):
            directory = left.name if left.is_dir else right.name
            raise DiffTrouble(f"diff: cannot compare '-' to a directory. Use a file inside {directory}")
        if left.is_dir and not right.is_dir:  # GNU: `diff /dir a.txt` means /dir/a.txt
            left = await self._resolve(_join(left.name, base_name(right.name)))
        elif right.is_dir and not left.is_dir:
            right = await self._resolve(_join(right.name, base_name(left.name)))
        if left.path is not None and left.path == right.path:
            return  # GNU: a file (or directory) is identical to itself
        if left.is_dir and right.is_dir:
            await self._directories(left, right, depth=0)
        elif left.is_dir != right.is_dir:
            self._kind_mismatch(left, right)
        else:
            await self._files(left, right, in_directory=False)

    async def _gnu_top_level(self, left_arg: str, right_arg: str) -> None:
        left = await self._gnu_resolve(left_arg)
        right = await self._gnu_resolve(right_arg)
        if not left.exists and not right.exists:
            raise DiffTrouble(f"diff: {left.name}: No such file or directory")
        for one, other in ((left, right), (right, left)):
            if not one.exists and not self.options.new_file:
                raise DiffTrouble(f"diff: {one.name}: No such file or directory")
        if (left.is_dir and right.path is None and right.exists) or (right.is_dir and left.path is None and left.exists):
            raise DiffTrouble("diff: cannot compare '-' to a directory")
        if not left.exists:
            left = _absent(left.name, right.is_dir)
        elif not right.exists:
            right = _absent(right.name, left.is_dir)
        if left.is_dir and not right.is_dir:
            left = await self._gnu_inside(left, right)
        elif right.is_dir and not left.is_dir:
            right = await self._gnu_inside(right, left)
        if left.path is not None and left.path == right.path:
            if self.options.report_identical:
                self.outcome.add(f"Files {left.name} and {right.name} are identical\n")
            return
        if left.is_dir and right.is_dir:
            await self._directories(left, right, depth=0)
        else:
            await self._files(left, right, in_directory=False)

    async def _gnu_inside(self, directory: Target, file: Target) -> Target:
        """GNU: `diff dir a.txt` compares dir/a.txt with a.txt."""
        if file.path is None and file.exists:
            raise DiffTrouble("diff: cannot compare '-' to a directory")
        inside = await self._gnu_resolve(_join(directory.name, base_name(file.name.rstrip("/") or "/")))
        if not inside.exists:
            if self.options.new_file and directory.exists:
                return _absent(inside.name, False)
            raise DiffTrouble(f"diff: {inside.name}: No such file or directory")
        return inside

    async def _gnu_resolve(self, arg: str) -> Target:
        """An operand named as written; a missing one is returned with exists=False."""
        if arg == STDIN:
            return Target(name=STDIN, is_dir=False, size=len(self.stdin), modified_ms=int(self.ctx.clock() * 1000))
        try:
            info = await self.ctx.vfs.stat(arg)
        except VFSError as error:
            if getattr(error, "code", "") in ("ENOENT", "ENOTDIR"):
                return _absent(arg, False)
            raise DiffTrouble(f"diff: {arg}: {_vfs_reason(error)}") from None
        if not info.exists:
            return _absent(arg, False)
        return Target(name=arg, is_dir=info.is_dir, path=info.path, size=info.size,
                      modified_ms=info.modified_epoch_ms)

    async def _resolve(self, arg: str) -> Target:
        if arg == STDIN:
            return Target(name=STDIN, is_dir=False, size=len(self.stdin), modified_ms=int(time.time() * 1000))
        normalized = self.ctx.vfs.normalize(arg)
        try:
            info = await self.ctx.vfs.stat(arg)
        except VFSError as error:
            raise DiffTrouble(f"diff: {normalized}: {_vfs_reason(error)}") from None
        if not info.exists:
            raise DiffTrouble(f"diff: {normalized}: No such file or directory. Use: ls {parent_of(normalized)}")
        return Target(name=info.path, is_dir=info.is_dir, path=info.path, size=info.size,
                      modified_ms=info.modified_epoch_ms)

    # -- directories ----------------------------------------------------------------------

    async def _directories(self, left: Target, right: Target, depth: int) -> None:
        if depth > _MAX_DEPTH:
            raise DiffTrouble(f"diff: {left.name}: directories nested too deeply to compare")
        left_entries = await self._entries(left)
        right_entries = await self._entries(right)
        names = sorted(set(left_entries) | set(right_entries), key=lambda n: n.encode("utf-8", "surrogateescape"))
        if self.gnu and self.exclude_patterns:
            names = [name for name in names if not self._excluded(name)]
        for name in names:
            if name not in right_entries and not (self.gnu and self.options.new_file):
                self.outcome.add(f"Only in {left.name}: {name}\n", 1)
            elif name not in left_entries and not (self.gnu and self.options.new_file):
                self.outcome.add(f"Only in {right.name}: {name}\n", 1)
            else:
                one = left_entries.get(name) or _absent(_join(left.name, name), right_entries[name].is_dir)
                other = right_entries.get(name) or _absent(_join(right.name, name), one.is_dir)
                await self._entry_pair(one, other, depth)

    def _excluded(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, pattern) for pattern in self.exclude_patterns)

    async def _entry_pair(self, left: Target, right: Target, depth: int) -> None:
        if left.is_dir and right.is_dir:
            if self.options.recursive:
                await self._directories(left, right, depth + 1)
            else:  # GNU reports these without counting them as a difference
                self.outcome.add(f"Common subdirectories: {left.name} and {right.name}\n")
        elif left.is_dir != right.is_dir:
            self._kind_mismatch(left, right)
        else:
            try:
                await self._files(left, right, in_directory=True)
            except DiffTrouble as trouble:  # GNU reports the pair and carries on
                self.outcome.fail(str(trouble))

    async def _entries(self, directory: Target) -> dict[str, Target]:
        if not directory.exists:
            return {}
        try:
            listing = await self.ctx.vfs.listdir(directory.path or "/")
        except VFSError as error:
            raise DiffTrouble(f"diff: {directory.name}: {_vfs_reason(error)}") from None
        entries = {}
        for entry in listing:
            name = entry.rstrip("/")
            if self.gnu:
                entries[name] = await self._gnu_resolve(_join(directory.name, name))
            else:
                entries[name] = await self._resolve(_join(directory.name, name))
        return entries

    def _kind_mismatch(self, left: Target, right: Target) -> None:
        self.outcome.add(f"File {left.name} is a {_kind(left)} while file {right.name} is a {_kind(right)}\n", 1)

    # -- files ----------------------------------------------------------------------------

    async def _files(self, left: Target, right: Target, in_directory: bool) -> None:
        if self.gnu:
            await self._gnu_files(left, right, in_directory)
            return
        left_data = await self._load(left)
        right_data = await self._load(right)
        if left_data == right_data:
            return
        if not self.options.text and (b"\0" in left_data or b"\0" in right_data):
            self.outcome.add(f"Binary files {left.name} and {right.name} differ\n", 1)
            return
        left_side = _side(left, left_data)
        right_side = _side(right, right_data)
        changes = edit_script(_raw_keys(left_side), _raw_keys(right_side),
                              self._keys(left_side), self._keys(right_side), horizon=self._horizon())
        if not changes:
            return  # equal once -b / -i are applied
        if in_directory:
            self.outcome.add(f"diff{self.options.switch_string()} {quote_name(left.name)} "
                             f"{quote_name(right.name)}\n")
        body = render(self.options.style, left_side, right_side, changes, self.options.context, self.zone)
        self.outcome.add(body, 1)

    async def _gnu_files(self, left: Target, right: Target, in_directory: bool) -> None:
        options = self.options
        left_data = await self._load(left)
        right_data = await self._load(right)
        if options.strip_cr:
            left_data, right_data = _strip_cr(left_data), _strip_cr(right_data)
        labels = (options.labels + [None, None])[:2]
        shown_left = labels[0] if labels[0] is not None else left.name
        shown_right = labels[1] if labels[1] is not None else right.name
        identical = f"Files {shown_left} and {shown_right} are identical\n"
        if left_data == right_data and (options.brief or options.style != "side"):
            if options.report_identical:
                self.outcome.add(identical)
            return
        if not options.text and (b"\0" in left_data[:65536] or b"\0" in right_data[:65536]):
            if options.brief:
                self.outcome.add(f"Files {shown_left} and {shown_right} differ\n", 1)
            else:
                self.outcome.add(f"Binary files {shown_left} and {shown_right} differ\n", 1)
            return
        left_side = _side(left, left_data)
        right_side = _side(right, right_data)
        horizon = options.context if options.style in ("unified", "context") else 0
        changes = edit_script(_raw_keys(left_side), _raw_keys(right_side),
                              self._gnu_keys(left_side), self._gnu_keys(right_side), horizon=horizon)
        ignored = self._ignorable(changes, left_side, right_side)
        if len(ignored) == len(changes) and (options.brief or options.style != "side"):
            if options.report_identical:
                self.outcome.add(identical)
            return
        if options.brief:
            self.outcome.add(f"Files {shown_left} and {shown_right} differ\n", 1)
            return
        if in_directory:
            self.outcome.add(f"diff{options.switch_string()} {quote_name(left.name)} {quote_name(right.name)}\n")
        if options.style == "side":
            body = render_side(_with_newlines(left_side), _with_newlines(right_side), changes,
                               width=options.width, expand_tabs=options.expand_tabs,
                               left_column=options.left_column, suppress_common=options.suppress_common,
                               ignored=ignored)
        else:
            layout = Layout(labels=(labels[0], labels[1]), nanoseconds=True, expand_tabs=options.expand_tabs,
                            ignored=ignored)
            body = render(options.style, left_side, right_side, changes, options.context, self.zone, layout)
        self.outcome.add(body, 1 if len(ignored) < len(changes) else 0)

    def _gnu_keys(self, side: DiffSide) -> list[bytes]:
        options = self.options
        keys = list(side.lines)
        if options.ignore_all_space:
            keys = [_SPACE_RUN.sub(b"", key) for key in keys]
        elif options.ignore_space:
            keys = [_SPACE_RUN.sub(b" ", key).rstrip(b" ") for key in keys]
        else:
            if options.ignore_tabs:
                keys = [_expand(key) for key in keys]
            if options.ignore_trailing:
                keys = [key.rstrip(_TRAILING) for key in keys]
        if options.ignore_case:
            keys = [key.lower() for key in keys]
        loose = options.ignore_all_space or options.ignore_space or options.ignore_trailing
        if side.missing_newline and not loose:
            keys[-1] += b"\n"
        return keys

    def _ignorable(self, changes, left: DiffSide, right: DiffSide) -> frozenset[int]:
        """The changes -B (blank lines only) or -I (every line matches) may hide."""
        options = self.options
        if not options.ignore_blank and not self.ignore_regexes:
            return frozenset()
        spaces = options.ignore_all_space or options.ignore_space or options.ignore_tabs or options.ignore_trailing

        def trivial(line: bytes) -> bool:
            if options.ignore_blank and (line == b"" or (spaces and not line.strip(_TRAILING))):
                return True
            return any(regex.search(line, groups=False) is not None for regex in self.ignore_regexes)

        hidden = set()
        for number, change in enumerate(changes):
            lines = [*left.lines[change.left:change.left + change.deleted],
                     *right.lines[change.right:change.right + change.inserted]]
            if all(trivial(line) for line in lines):
                hidden.add(number)
        return frozenset(hidden)

    async def _load(self, target: Target) -> bytes:
        if not target.exists:
            return b""
        try:
            if target.path is None:
                check_materialized(self.ctx, "diff", "stdin", len(self.stdin))
                return self.stdin
            check_materialized(self.ctx, "diff", target.path, target.size)
            return await self.ctx.vfs.read_bytes(target.path)
        except CommandFailed as failure:
            raise DiffTrouble(failure.result.stderr) from None
        except VFSError as error:
            raise DiffTrouble(f"diff: {target.name}: {_vfs_reason(error)}") from None

    def _horizon(self) -> int:
        """Common lines kept around the changes; GNU keeps as many as the context."""
        return self.options.context if self.options.style != "normal" else 0

    def _keys(self, side: DiffSide) -> list[bytes]:
        """Lines as -b / -i see them. An incomplete last line only equals an incomplete
        one, unless -b (which, in GNU, also ignores that missing newline)."""
        keys = list(side.lines)
        if self.options.ignore_space:
            keys = [_SPACE_RUN.sub(b" ", key).rstrip(b" ") for key in keys]
        if self.options.ignore_case:
            keys = [key.lower() for key in keys]  # bytes.lower() folds ASCII only, as GNU in C
        if side.missing_newline and not self.options.ignore_space:
            keys[-1] += b"\n"
        return keys


def _side(target: Target, data: bytes) -> DiffSide:
    lines = data.split(b"\n")
    missing_newline = lines[-1] != b""
    if not missing_newline:
        lines.pop()
    return DiffSide(name=target.name, modified_ms=target.modified_ms, lines=lines, missing_newline=missing_newline)


def _raw_keys(side: DiffSide) -> Sequence[bytes]:
    """Byte-exact line identities ("\\n" marks an incomplete last line)."""
    if not side.missing_newline:
        return side.lines
    return [*side.lines[:-1], side.lines[-1] + b"\n"]


def _join(directory: str, name: str) -> str:
    return f"{directory}{name}" if directory.endswith("/") else f"{directory}/{name}"


def _absent(name: str, is_dir: bool) -> Target:
    """A file or directory that is not there; -N compares it as empty."""
    return Target(name=name, is_dir=is_dir, path=None, exists=False)


def _strip_cr(data: bytes) -> bytes:
    data = data.replace(b"\r\n", b"\n")
    return data


def _expand(line: bytes) -> bytes:
    if b"\t" not in line:
        return line
    out = bytearray()
    for byte in line:
        if byte == 9:
            out += b" " * (8 - len(out) % 8)
        else:
            out.append(byte)
    return bytes(out)


def _with_newlines(side: DiffSide) -> list[bytes]:
    lines = [line + b"\n" for line in side.lines]
    if side.missing_newline and lines:
        lines[-1] = lines[-1][:-1]
    return lines


def _kind(target: Target) -> str:
    return "directory" if target.is_dir else "regular file"


def _vfs_reason(error: VFSError) -> str:
    reasons = {"ENOENT": "No such file or directory", "EISDIR": "Is a directory", "ENOTDIR": "Not a directory",
               "EESCAPE": "path escapes workspace root", "ERESOURCE_LIMIT": "resource limit exceeded"}
    return reasons.get(getattr(error, "code", ""), str(error))


DIFF = CommandSpec(
    name="diff",
    summary="Compare files or directories with normal, unified, or context output.",
    usage=USAGE,
    details=("Examples:\n  diff /drafts/a.txt /reports/a.txt\n  diff -u /drafts/a.txt /reports/a.txt\n"
             "  diff -r /left /right"),
    handler=cmd_diff,
    group="fs",
    accepts_stdin=True,
    min_args=2,
    max_args=None,
    conformance_args=("/", "/"),
    kind="read",
    requires_adapter=None,
    usage_exit_code=2,
)

COMMANDS = [DIFF]
