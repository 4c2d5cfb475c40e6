"""awk: the POSIX pattern-scanning language (onetool_wasm.awk) as a command.

The command reads its options (-F, -v, -f, --), loads -f program files from the VFS, and
gives the interpreter a host: stdin as it arrives, VFS files for operands, getline and
redirections, `sh -c` through ctx.run_argv for `system`, `cmd | getline` and `print | cmd`.
It streams: records are processed as they arrive and output leaves in pieces of 64 KB
(or at fflush), so `yes | awk 'NR==3{exit}'` ends and `seq 1 1e9 | awk 'NR<=3' | head` too.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Sequence

from ...awk import AwkError, AwkSyntaxError, compile_program
from ...awk.interpreter import OutputClosed
from ...result import CommandResult
from ...streams import BrokenPipe, BufferWriter, BytesReader, EmptyReader, StreamLimit
from ...vfs.errors import VFSError
from ..helpers import GNU_ERRORS
from ..spec import CommandContext, CommandIO, CommandSpec

USAGE = "awk [-F fs] [-v var=value] ['program' | -f progfile ...] [file ...]"
_WRITES = re.compile(r"system\s*\(|\|\s*[\"A-Za-z_(]|>")


class Usage(Exception):
    """A bad command line; the message is one line."""


def parse_args(args: Sequence[str]) -> tuple[str | None, list[str], list[str], list[str], str | None]:
    """(program text or None, -f files, -v assignments, operands, -F value)."""
    files: list[str] = []
    assigns: list[str] = []
    fs: str | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        flag, rest = arg[:2], arg[2:]
        if flag not in ("-F", "-v", "-f"):
            raise Usage(f"awk: invalid option -- '{arg[1:2]}'")
        if not rest:
            i += 1
            if i >= len(args):
                raise Usage(f"awk: option requires an argument -- '{flag[1]}'")
            rest = args[i]
        if flag == "-F":
            fs = rest
        elif flag == "-v":
            if "=" not in rest:
                raise Usage(f"awk: `{rest}' argument to `-v' not in `var=value' form")
            assigns.append(rest)
        else:
            files.append(rest)
        i += 1
    program = None
    if not files:
        if i >= len(args):
            raise Usage(f"awk: no program given. Usage: {USAGE}")
        program = args[i]
        i += 1
    return program, files, assigns, list(args[i:]), fs


def program_kind(args: Sequence[str]) -> str:
    """"write" when the program may write files or run commands (conservative: any `>`,
    `|` into a command, or system())."""
    try:
        program, files, _, _, _ = parse_args(args)
    except Usage:
        return "read"
    if files:
        return "write"
    return "write" if program and _WRITES.search(program) else "read"


def fs_assignment(value: str) -> str:
    """-F's value as an assignment to FS (escapes such as \\t are read as in strings)."""
    return "FS=" + value


class Host:
    """What the interpreter reaches through the command: stdin, the VFS, commands, output."""

    def __init__(self, ctx: CommandContext, io: CommandIO) -> None:
        self.ctx = ctx
        self.io = io
        self.environ = dict(ctx.environment)
        self.cancelled = ctx.cancelled

    async def read_stdin(self) -> bytes:
        if not self.io.stdin_is_pipe:
            return b""
        return await self.io.stdin.read()

    async def read_file(self, path: str) -> bytes | str:
        try:
            return await self.ctx.vfs.read_bytes(path)
        except VFSError as error:
            return GNU_ERRORS.get(getattr(error, "code", ""), str(error))
        except (OSError, ValueError) as error:
            return str(error)

    async def write_file(self, path: str, data: bytes, append: bool) -> str | None:
        try:
            if append:
                await self.ctx.vfs.append_bytes(path, data)
            else:
                await self.ctx.vfs.write_bytes(path, data)
        except VFSError as error:
            return GNU_ERRORS.get(getattr(error, "code", ""), str(error))
        except (OSError, ValueError) as error:
            return str(error)
        return None

    async def run(self, command: str, stdin: bytes) -> tuple[int, bytes, bytes]:
        if self.ctx.run_argv is None:
            return 127, b"", b"awk: commands cannot run here (no shell)\n"
        result: CommandResult = await self.ctx.run_argv(["sh", "-c", command], stdin)
        errors = result.stderr.encode("utf-8", "replace")
        if errors and not errors.endswith(b"\n"):
            errors += b"\n"
        return result.exit_code, result.stdout, errors

    def output_gone(self) -> bool:
        """True when stdout is a pipe whose reader has stopped reading (`| head`)."""
        return self.io.stdout.reader_gone

    async def stdout(self, data: bytes) -> None:
        await self.io.stdout.write(data)

    async def stderr(self, data: bytes) -> None:
        await self.io.stderr.write(data)


async def load_program(ctx: CommandContext, program: str | None, files: list[str]) -> str:
    if program is not None:
        return program
    parts = []
    for path in files:
        try:
            data = await ctx.vfs.read_bytes(path)
        except VFSError as error:
            reason = GNU_ERRORS.get(getattr(error, "code", ""), str(error))
            raise AwkError(f"awk: fatal: cannot open source file `{path}' for reading: {reason}") from None
        parts.append(data.decode("utf-8", "surrogateescape"))
    return "\n".join(parts)


async def stream_awk(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    try:
        program, files, assigns, operands, fs = parse_args(args)
    except Usage as problem:
        await io.error(str(problem))
        return 1
    try:
        text = await load_program(ctx, program, files)
        compiled = compile_program(text)
    except (AwkSyntaxError, AwkError) as problem:
        await io.error(str(problem))  # found before running: gawk's status 1 (2 for its fatals)
        return getattr(problem, "status", 1)
    try:
        if fs is not None:
            assigns.insert(0, fs_assignment(fs))
        return await compiled.run(Host(ctx, io), operands, assigns)
    except (AwkSyntaxError, AwkError) as problem:
        await io.error(str(problem))
        return getattr(problem, "status", 2)
    except OutputClosed:
        raise BrokenPipe() from None
    except RecursionError:
        await io.error("awk: fatal: the program nests too deeply for the stack: simplify it")
        return 2


async def cmd_awk(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    stdout = BufferWriter(None)
    stderr = BufferWriter(1 << 20)
    reader = BytesReader(stdin) if stdin or ctx.stdin_is_pipe else EmptyReader()
    io = CommandIO(reader, stdout, stderr, stdin_is_pipe=bool(stdin) or ctx.stdin_is_pipe)
    try:
        status = await stream_awk(ctx, args, io)
    except BrokenPipe:
        status = 141
    except StreamLimit as limit:
        stderr.data += f"awk: {limit}\n".encode()
        status = 2
    return CommandResult(stdout=bytes(stdout.data), stderr=stderr.data.decode("utf-8", "replace").rstrip("\n"),
                         exit_code=status)


DETAILS = """Runs an awk program over the named files (or stdin), record by record, as POSIX awk
(gawk --posix is the reference). Patterns and actions, BEGIN/END, ranges (p1, p2), fields ($1,
$NF, assigning $3 or NF rebuilds $0 with OFS), the variables NF NR FNR FS OFS ORS RS (one
character, or "" for paragraphs) FILENAME SUBSEP RSTART RLENGTH CONVFMT OFMT ENVIRON ARGC ARGV,
arrays with `in`, `(i,j) in a` and delete, user functions, printf/sprintf, POSIX regular
expressions (~ !~ match sub gsub split), length substr index tolower toupper int sqrt exp log
sin cos atan2 rand srand (deterministic: srand(seed) gives the same numbers each run, not
gawk's), getline in all its forms, print > file and >> file (VFS), print | "cmd",
"cmd" | getline, system() and close() (commands run by the shell), fflush, next, nextfile, exit.
-F fs sets FS (-F '\\t' for tab), -v var=value assigns before BEGIN, -f progfile reads
the program from a file; var=value operands assign between files. Input streams: records are
handled as they arrive. Limits: 100 million loop steps, function calls 200 deep.
Examples:
  awk '{print $1}' notes.txt
  awk -F, 'NR > 1 {sum += $3} END {print sum}' data.csv
  awk -F: -v OFS=' | ' '{print $1, $NF}' /etc/passwd
  awk 'length($0) > 72' file.txt
  awk '{count[$1]++} END {for (k in count) print k, count[k]}' log.txt | sort
  seq 1 100 | awk 'NR % 10 == 0 {printf "%d: %s\\n", NR, $0}'"""

AWK = CommandSpec(
    name="awk",
    summary="Scan and process text with awk programs (POSIX awk).",
    usage=USAGE,
    details=DETAILS,
    handler=cmd_awk,
    accepts_stdin=True,
    min_args=1,
    max_args=None,
    conformance_args=("{print $1}",),
    kind=program_kind,
    group="text",
    arity_message=f"usage: {USAGE}",
    usage_exit_code=1,
)


async def _stream_entry(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    if not args:
        await io.error(f"awk: usage: {USAGE}")
        return 1
    return await stream_awk(ctx, args, io)


COMMANDS = [dataclasses.replace(AWK, stream=_stream_entry)]
