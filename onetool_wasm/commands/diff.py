"""diff: compare two files, or two directories (-r), in GNU diff's output formats.

The edit script comes from diff_algorithm (GNU's choices among minimal scripts), the
text from diff_format, the command line from diff_options. This module finds what to
compare: files, directories, a file against a directory (`diff a.txt /dir` compares
with /dir/a.txt, as GNU does) and stdin (`-`). Exit codes are GNU's: 0 same,
1 different, 2 trouble.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from datetime import tzinfo
from typing import Sequence

from ..result import CommandResult
from ..vfs.errors import VFSError
from ..vfs.paths import base_name, parent_of
from .diff_algorithm import edit_script
from .diff_format import DiffSide, quote_name, render
from .diff_options import USAGE, DiffOptions, parse_diff_args
from .helpers import check_materialized, content_type_for
from .spec import CommandContext, CommandFailed, CommandSpec

# C isspace() minus the newline: what -b treats as white space.
_SPACE_RUN = re.compile(rb"[ \t\v\f\r]+")
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
    options = parse_diff_args(args)
    run = _DiffRun(ctx, options, stdin)
    try:
        await run.top_level(*options.operands)
    except DiffTrouble as trouble:
        run.outcome.fail(str(trouble))
    return run.outcome.result()


class _DiffRun:
    """One invocation: resolves the operands, walks directories, collects the outcome."""

    def __init__(self, ctx: CommandContext, options: DiffOptions, stdin: bytes) -> None:
        self.ctx = ctx
        self.options = options
        self.stdin = stdin
        self.outcome = Outcome()
        self.zone: tzinfo | None = ctx.timezone

    # -- operands -------------------------------------------------------------------------

    async def top_level(self, left_arg: str, right_arg: str) -> None:
        if left_arg == STDIN and right_arg == STDIN:
            return  # the same input on both sides
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
        for name in names:
            if name not in right_entries:
                self.outcome.add(f"Only in {left.name}: {name}\n", 1)
            elif name not in left_entries:
                self.outcome.add(f"Only in {right.name}: {name}\n", 1)
            else:
                await self._entry_pair(left_entries[name], right_entries[name], depth)

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
        try:
            listing = await self.ctx.vfs.listdir(directory.path or "/")
        except VFSError as error:
            raise DiffTrouble(f"diff: {directory.name}: {_vfs_reason(error)}") from None
        entries = {}
        for entry in listing:
            name = entry.rstrip("/")
            entries[name] = await self._resolve(_join(directory.name, name))
        return entries

    def _kind_mismatch(self, left: Target, right: Target) -> None:
        self.outcome.add(f"File {left.name} is a {_kind(left)} while file {right.name} is a {_kind(right)}\n", 1)

    # -- files ----------------------------------------------------------------------------

    async def _files(self, left: Target, right: Target, in_directory: bool) -> None:
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

    async def _load(self, target: Target) -> bytes:
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
    return f"/{name}" if directory == "/" else f"{directory}/{name}"


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
