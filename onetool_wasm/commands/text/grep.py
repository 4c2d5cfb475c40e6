"""grep: select lines by pattern, as GNU grep does in the C locale.

Basic regular expressions by default (docs/DIFFERENCES.md), `-E` extended, `-F` fixed;
`-e`/`-f` patterns, `-r` over directories, several paths, context, `-l/-L/-c/-q/-m`.
Exit status as GNU: 0 a line was selected, 1 none, 2 an error (a bad pattern, a missing
file). Usage errors keep upstream's recorded wording and exit 1.
"""
from __future__ import annotations

import fnmatch
from typing import Any

from ...result import TEXT, CommandResult, err, ok
from ...textutil import looks_binary
from ...vfs.errors import VFSError
from ...vfs.paths import base_name
from ._grep_options import GREP_USAGE, GrepOptions, parse_grep_args
from ._grep_pcre import compile_pcre
from ._grep_scan import SWAP_NUL, LineSearch, Printer, Scan, scan
from ..helpers import (binary_input_message, check_materialized, fail, format_vfs_error,
                      no_input_error, read_file_bytes)
from ..lines import line_blocks, with_stream
from ...regex import Regex, RegexError, compile_grep, split_patterns
from ..spec import CommandContext, CommandFailed, CommandIO, CommandSpec

STDIN_LABEL = "(standard input)"
SYSTEM_DIR = "/.system"  # the runtime's own files (spilled outputs): not searched by -r from above


class _Input:
    """One thing to search: a label (path or stdin) and its bytes (None: stdin as it
    arrives, for the streaming handler)."""

    def __init__(self, label: str, data: bytes | None) -> None:
        self.label = label
        self.data = data


class _Run:
    """State of one grep invocation across its inputs."""

    def __init__(self, ctx: CommandContext, options: GrepOptions, stdin: bytes) -> None:
        self.ctx = ctx
        self.options = options
        self.stdin = stdin
        self.errors: list[str] = []
        self.failed = False  # an error happened, even if -s keeps it quiet
        self.notes: list[str] = []
        self.any_selected = False
        self.saw_directory = False

    def error(self, message: str) -> None:
        self.failed = True
        if not self.options.no_messages:
            self.errors.append(message.rstrip("\n"))

    @property
    def stdin_label(self) -> str:
        return self.options.label if self.options.label is not None else STDIN_LABEL


VERSION = "grep (GNU grep) 3.8\n"


def _wants_help(args: list[str]) -> bool:
    return "--help" in args[:args.index("--") if "--" in args else len(args)]


def _no_arguments(ctx: CommandContext, name: str) -> None:
    """No word at all: GNU's usage lines (exit 2), or the arity message the strict grammar
    has always given."""
    if ctx.grammar != "bash":
        raise fail(f"{name}: usage: {GREP_USAGE if name == 'grep' else f'{name} [OPTION]... PATTERNS [FILE]...'}", 1)
    parse_grep_args([], "bash")


async def cmd_grep(ctx: CommandContext, args: list[str], stdin: bytes, mode: str | None = None) -> CommandResult:
    if not args:
        _no_arguments(ctx, {None: "grep", "extended": "egrep", "fixed": "fgrep"}[mode])
    if _wants_help(args):
        return ok(GREP.help_text() + "\n")
    options = parse_grep_args(args, ctx.grammar, mode)
    if options.version:
        return ok(VERSION)
    run = _Run(ctx, options, stdin)
    patterns = await _load_patterns(run)
    try:
        regex = _compile(options, patterns)
    except RegexError as error:
        return err(_regex_message(ctx, error), 2)
    if options.max_count == 0:
        return CommandResult(exit_code=1)
    try:
        return await _search_all(run, regex)
    except RegexError as error:  # too complex for this input (a back-reference bomb), or stopped
        return err(_regex_message(ctx, error), 2)


def _compile(options: GrepOptions, patterns: tuple[str, ...]):
    if options.mode == "perl":
        return compile_pcre(patterns, options.ignore_case, options.word, options.line)
    return compile_grep(patterns, options.mode, options.ignore_case, options.word, options.line) \
        if patterns else None


def _regex_message(ctx: CommandContext, error: RegexError) -> str:
    return f"grep: {error}\n" if ctx.grammar == "bash" else f"grep: invalid regex: {error}"


async def _load_patterns(run: _Run) -> tuple[str, ...]:
    patterns = list(run.options.patterns)
    for path in run.options.pattern_files:
        if path == "-" and run.options.gnu:
            data, run.stdin = run.stdin, b""
        else:
            data = await _read_file(run, path, "pattern file not found", strict=True)
        text = (data or b"").decode("utf-8", "surrogateescape")
        lines = text.split("\n") if text else []
        patterns.extend(lines[:-1] if text.endswith("\n") else lines)
    return split_patterns(patterns)


# -- inputs, read one at a time ------------------------------------------------------------
def _operands(run: _Run) -> list[str]:
    operands = run.options.operands
    if operands:
        return operands
    if run.stdin or not run.options.recursive:
        if not run.stdin:
            raise CommandFailed(no_input_error("grep"))
        return ["-"]
    return _default_tree(run)


def _default_tree(run: _Run) -> list[str]:
    """-r without a path: GNU searches the working directory and shows names relative to it
    (IMPLICIT_CWD); the strict grammar searches the root."""
    return [IMPLICIT_CWD] if run.ctx.grammar == "bash" else ["/"]


# The operand `grep -r` searches when none is given (shown without a `./` prefix).
IMPLICIT_CWD = ""


async def _inputs(run: _Run, operands: list[str]):
    for operand in operands:
        if operand == "-":
            check_materialized(run.ctx, "grep", "stdin", len(run.stdin))
            yield _Input(run.stdin_label, run.stdin)
        else:
            async for item in _inputs_for_path(run, operand):
                yield item


async def _inputs_for_path(run: _Run, operand: str):
    """The file, or the files below a directory. Names are shown as the operand was
    written in the bash language (`grep -r x .` prints `./a.txt:...`), else normalized."""
    ctx = run.ctx
    path = ctx.vfs.normalize(operand or ".")
    label = operand if ctx.grammar == "bash" else path
    try:
        info = await ctx.vfs.stat(path)
        if not info.exists:
            raise VFSError("ENOENT", path)
    except VFSError as error:
        run.error((await format_vfs_error(ctx, "grep", operand, error, not_found_label="file not found")).stderr)
        return
    if info.is_dir:
        if run.options.gnu and run.options.directories == "skip":
            return
        if run.options.gnu and not run.options.recursive:
            run.error(f"grep: {operand}: Is a directory")
            return
        if not run.options.recursive:
            run.error(f"grep: path is a directory: {path}. Use: grep -r PATTERN {path}")
            return
        if run.options.gnu and operand != IMPLICIT_CWD and _excluded(run.options.exclude_dir, operand):
            return
        run.saw_directory = True
        async for item in _walk(run, path, label):
            yield item
    elif run.options.gnu and not _wanted_operand(run.options, operand):
        return
    elif (item := await _file_input(run, path, label, checked=run.options.gnu)) is not None:
        yield item


def _excluded(globs: list[str], name: str) -> bool:
    """GNU's test for a command-line name: the glob matches the whole name as written or
    the part after any slash."""
    tails = [name] + [name[i + 1:] for i, char in enumerate(name) if char == "/" and name[i + 1:i + 2] != "/"]
    return any(fnmatch.fnmatchcase(tail, glob) for glob in globs for tail in tails if tail)


def _wanted_operand(options: GrepOptions, operand: str) -> bool:
    if options.include and not _excluded(options.include, operand):
        return False
    return not _excluded(options.exclude, operand)


async def _walk(run: _Run, directory: str, label: str):
    """Files below a directory, depth first, each directory's entries in byte order."""
    try:
        names = await run.ctx.vfs.listdir(directory)
    except VFSError as error:
        run.error((await format_vfs_error(run.ctx, "grep", directory, error)).stderr)
        return
    for name in sorted(names, key=lambda entry: entry.rstrip("/").encode("utf-8")):
        path = (directory.rstrip("/") + "/" + name.rstrip("/"))
        shown = _below(label, name.rstrip("/"))
        if name.endswith("/"):
            if path == SYSTEM_DIR or any(fnmatch.fnmatchcase(base_name(path), glob)
                                         for glob in run.options.exclude_dir):
                continue
            async for item in _walk(run, path, shown):
                yield item
        elif (item := await _file_input(run, path, shown)) is not None:
            yield item


def _below(label: str, name: str) -> str:
    if label == IMPLICIT_CWD:
        return name
    return label + name if label.endswith("/") else f"{label}/{name}"


async def _file_input(run: _Run, path: str, label: str, checked: bool = False) -> _Input | None:
    """A file to search, unless --include/--exclude leave it out or it cannot be read."""
    if not checked and not _wanted_file(run.options, path):
        return None
    data = await _read_file(run, path, "file not found")
    return None if data is None else _Input(label, data)


def _wanted_file(options: GrepOptions, path: str) -> bool:
    name = base_name(path)
    if options.include and not any(fnmatch.fnmatchcase(name, glob) for glob in options.include):
        return False
    return not any(fnmatch.fnmatchcase(name, glob) for glob in options.exclude)


async def _read_file(run: _Run, path: str, not_found_label: str, strict: bool = False) -> bytes | None:
    ctx = run.ctx
    try:
        return await read_file_bytes(ctx, "grep", path)
    except VFSError as error:
        failure = await format_vfs_error(ctx, "grep", path, error, not_found_label=not_found_label)
    except CommandFailed as error:
        failure = error.result
    if strict:
        raise fail(failure.stderr, 2)
    run.error(failure.stderr)
    return None


# -- searching ---------------------------------------------------------------------------
async def _search_all(run: _Run, regex: Regex | None) -> CommandResult:
    options = run.options
    operands = _operands(run)
    printer = Printer(options, regex, cancelled=run.ctx.cancelled if isinstance(regex, Regex) else None)
    async for item in _inputs(run, operands):
        single = len(operands) == 1 and not run.saw_directory
        show_names = options.with_filename if options.with_filename is not None else not single
        binary = options.binary != "text" and _is_binary(options, item.data)
        if binary and single and options.binary == "match" and not options.gnu:
            return _binary_refusal(item)
        if binary and options.binary == "skip":
            continue
        data = item.data.translate(SWAP_NUL) if options.null_data else item.data
        printer.width = _number_width(run, item)
        result = scan(regex, data, printer.cancelled)
        run.any_selected = run.any_selected or result.selected_count(options) > 0
        if options.quiet and run.any_selected:
            return CommandResult(exit_code=0)
        _report(run, printer, item.label.encode("utf-8", "surrogateescape"), show_names, result, binary)
    return _finish(run, printer)


def _report(run: _Run, printer: Printer, name: bytes, show_name: bool, result: Scan, binary: bool) -> None:
    options = run.options
    label = name if show_name else None
    count = result.selected_count(options)
    if options.quiet:
        return
    if options.files_with_matches or options.files_without_match:
        if bool(count) == options.files_with_matches:
            printer.chunks.append(name + (b"\0" if options.null else b"\n"))
    elif options.count:
        printer.chunks.append((label + _name_end(options) if label is not None else b"")
                              + str(count).encode("ascii") + b"\n")
    elif binary:
        if count:
            run.notes.append(f"grep: {name.decode('utf-8', 'replace')}: binary file matches")
    else:
        printer.add(label, result)


def _is_binary(options: GrepOptions, data: bytes) -> bool:
    """GNU in the C locale: a NUL byte (none is binary with -z); upstream's sniffing else."""
    if options.gnu:
        return not options.null_data and b"\0" in data
    return looks_binary(data)


def _name_end(options: GrepOptions) -> bytes:
    return b"\0" if options.null else b":"


def _number_width(run: _Run, item: _Input) -> int:
    """-T aligns numbers to the width of the largest offset possible: the file's size, or
    the largest off_t for stdin."""
    if not run.options.initial_tab:
        return 0
    if item.data is None or item.label == run.stdin_label and item.data is run.stdin:
        return 19
    return len(str(len(item.data)))


def _finish(run: _Run, printer: Printer) -> CommandResult:
    stderr = "\n".join(run.errors + run.notes)
    stdout = b"" if run.options.quiet else b"".join(printer.chunks)
    return CommandResult(stdout=stdout, stderr=stderr, exit_code=_exit_code(run), content_type=TEXT)


def _exit_code(run: _Run) -> int:
    if run.failed and not (run.options.quiet and run.any_selected):
        return 2
    return 0 if run.any_selected else 1


def _binary_refusal(item: _Input) -> CommandResult:
    source = None if item.label == STDIN_LABEL else item.label
    return err(binary_input_message("grep", source, len(item.data)), 2)


# -- streaming ---------------------------------------------------------------------------
# The same search with stdin read in blocks of lines as it arrives: output is written block
# by block, -q/-l/-L stop at the first selected line and -m after its lines (and their
# trailing context), so the stage before sees a closed pipe. Files are read whole.

async def stream_grep(ctx: CommandContext, args: list[str], io: CommandIO, mode: str | None = None) -> int:
    if not args:
        _no_arguments(ctx, {None: "grep", "extended": "egrep", "fixed": "fgrep"}[mode])
    if _wants_help(args):
        await io.stdout.write((GREP.help_text() + "\n").encode("utf-8"))
        return 0
    options = parse_grep_args(args, ctx.grammar, mode)
    if options.version:
        await io.stdout.write(VERSION.encode("ascii"))
        return 0
    if options.gnu and (options.null_data or options.byte_offset or "-" in options.pattern_files):
        return await _whole(ctx, args, io, mode)
    run = _Run(ctx, options, b"")
    patterns = await _load_patterns(run)
    try:
        regex = _compile(options, patterns)
    except RegexError as error:
        await io.error(_regex_message(ctx, error).rstrip("\n"))
        return 2
    if options.max_count == 0:
        return 1
    try:
        return await _stream_search(run, io, options, regex)
    except RegexError as error:  # too complex for this input (a back-reference bomb), or stopped
        await io.error(_regex_message(ctx, error).rstrip("\n"))
        return 2


async def _stream_search(run: _Run, io: CommandIO, options: GrepOptions, regex: Any) -> int:
    operands = _stream_operands(run, io)
    printer = Printer(options, regex, cancelled=run.ctx.cancelled if isinstance(regex, Regex) else None)
    async for item in _stream_inputs(run, operands):
        await _say(run, io)
        single = len(operands) == 1 and not run.saw_directory
        show_names = options.with_filename if options.with_filename is not None else not single
        if await _search_stream(run, io, printer, item, single, show_names) and options.quiet:
            return 0
    await _say(run, io)
    return _exit_code(run)


def _stream_operands(run: _Run, io: CommandIO) -> list[str]:
    if run.options.operands:
        return run.options.operands
    if io.stdin_is_pipe:
        return ["-"]
    if not run.options.recursive:
        raise CommandFailed(no_input_error("grep"))
    return _default_tree(run)


async def _whole(ctx: CommandContext, args: list[str], io: CommandIO, mode: str | None) -> int:
    """The whole-input search over all of stdin (for -z, -b and -f -)."""
    stdin = b""
    if io.stdin_is_pipe:
        chunks = []
        while chunk := await io.stdin.read():
            chunks.append(chunk)
        stdin = b"".join(chunks)
    try:
        result = await cmd_grep(ctx, args, stdin, mode)
    except CommandFailed as failure:
        result = failure.result
    if result.stdout:
        data = result.stdout if isinstance(result.stdout, bytes) else result.stdout.encode("utf-8")
        await io.stdout.write(data)
    for line in result.stderr.rstrip("\n").split("\n") if result.stderr else ():
        await io.error(line)
    return result.exit_code


async def _stream_inputs(run: _Run, operands: list[str]):
    for operand in operands:
        if operand == "-":
            yield _Input(run.stdin_label, None)
        else:
            async for item in _inputs_for_path(run, operand):
                yield item


async def _say(run: _Run, io: CommandIO) -> None:
    """Errors and notes so far, on stderr as they happen."""
    for message in run.errors + run.notes:
        await io.error(message)
    run.errors.clear()
    run.notes.clear()


async def _blocks(item: _Input, io: CommandIO):
    if item.data is None:
        async for block in line_blocks(io.stdin):
            yield block
    elif item.data:
        yield item.data


async def _search_stream(run: _Run, io: CommandIO, printer: Printer, item: _Input, single: bool,
                         show_names: bool) -> bool:
    """Search one input, writing as it goes; True when a line was selected."""
    options = run.options
    name = item.label.encode("utf-8", "surrogateescape")
    listing = options.files_with_matches or options.files_without_match
    search = LineSearch(printer, name if show_names else None, options.quiet or listing or options.count)
    printer.width = _number_width(run, item)
    binary_from: int | None = None  # lines selected before the input turned out binary
    async for block in _blocks(item, io):
        if binary_from is None and options.binary != "text" and _is_binary(options, block):
            if single and options.binary == "match" and not options.gnu:
                source = None if item.label == STDIN_LABEL else item.label
                raise fail(binary_input_message("grep", source, len(block)), 2)
            if options.binary == "skip":
                return False
            binary_from, search.counting = search.selected, True
        search.feed(block)
        if printer.chunks:
            await io.stdout.write(b"".join(printer.chunks))
            printer.chunks.clear()
        if search.selected and (options.quiet or listing) or search.done():
            break
    count = search.selected
    run.any_selected = run.any_selected or count > 0
    if options.quiet:
        pass
    elif listing:
        if bool(count) == options.files_with_matches:
            await io.stdout.write(name + (b"\0" if options.null else b"\n"))
    elif options.count:
        await io.stdout.write((name + _name_end(options) if show_names else b"") + str(count).encode("ascii") + b"\n")
    elif binary_from is not None and count > binary_from:
        await io.error(f"grep: {name.decode('utf-8', 'replace')}: binary file matches")
    return count > 0


GREP_DETAILS = (
    "Basic regular expressions by default (\\| \\( \\) \\{n\\} work as in GNU grep), -E extended, "
    "-F fixed strings; C locale (bytes, ASCII-only -i).\n"
    "Also: -e PATTERN (repeatable), -f FILE, -r DIR (recursive, lines prefixed with paths), -l, -L, "
    "-h, -H, -m N, -A/-B/-C N (context, groups separated by --), -s, --include/--exclude GLOB, "
    "-- to end options; several paths may be given. Exit 0 if a line is selected, 1 if none, 2 on error.\n"
    "Examples:\n  grep ERROR /logs/app.log\n  cat /logs/app.log | grep -i timeout\n"
    "  grep -F -o \"timeout\" /logs/app.log\n  grep -c \"payment failed\" /logs/app.log\n"
    "  grep -rn -e TODO -e FIXME /src\n  grep -E -C 2 \"error|warn\" /logs/app.log"
)

GREP = with_stream(CommandSpec(
    name="grep",
    summary="Filter lines by pattern. Supports a common GNU grep subset.",
    usage=GREP_USAGE,
    details=GREP_DETAILS,
    handler=cmd_grep,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("pattern",),
    kind="read", group="text", requires_adapter=None,
), stream_grep)



def _variant(name: str, mode: str, flag: str) -> CommandSpec:
    """egrep/fgrep: Debian's scripts run `grep -E`/`grep -F` (no obsolescence warning)."""
    async def handler(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
        return await cmd_grep(ctx, args, stdin, mode)

    async def stream(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
        return await stream_grep(ctx, args, io, mode)

    example = "'error|warn'" if mode == "extended" else "'a.b'"
    return with_stream(CommandSpec(
        name=name,
        summary=f"grep {flag}: {'extended regular expressions' if mode == 'extended' else 'fixed strings'}.",
        usage=f"{name} [OPTION]... PATTERNS [FILE]...",
        details=f"The same as grep {flag} (all of grep's options work).\nExamples:\n  {name} {example} /logs/app.log",
        handler=handler,
        accepts_stdin=True, min_args=0, max_args=None, conformance_args=("pattern",),
        kind="read", group="text", requires_adapter=None,
    ), stream)


EGREP = _variant("egrep", "extended", "-E")
FGREP = _variant("fgrep", "fixed", "-F")

COMMANDS = [GREP, EGREP, FGREP]
