"""sed: the stream editor, GNU-compatible over bytes, with in-place editing through the VFS.

Options as GNU sed reads them (`-n -e -f -E/-r -i[SUFFIX] -s -z -l N -u --posix`, long
forms, clusters such as `-ne` and `-nEf<file>`, options after operands, `--`). The engine
is the package onetool_wasm.sed (script language and cycle); this module reads options,
inputs and script files, and writes what `-i`, `w` and `W` produce into the VFS. In the
bash language it speaks GNU sed 4.9 (texts, exit codes 1/2/4, `w`/`W`/`R`); the strict
grammar keeps upstream's subset and texts.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from typing import Sequence

from ...result import CommandResult, err, ok
from ...sed import Output, ScriptError, SedMachine, SedRuntimeError, parse_script, split_input
from ...vfs.errors import VFSError
from ...vfs.paths import base_name, parent_of
from ..helpers import GNU_ERRORS, check_materialized, content_type_for, fail, format_vfs_error, read_file_bytes
from ..options import ArgReader, read_options, unknown_option
from ..getopt import plain_operands
from ..spec import CommandContext, CommandFailed, CommandSpec

SED_USAGE = "sed [OPTION]... [SCRIPT] [INPUTFILE...]"
STDIN = "-"
_LONG_FLAGS = {"quiet": "n", "silent": "n", "regexp-extended": "E", "separate": "s", "unbuffered": "u",
               "sandbox": "u", "follow-symlinks": "u", "null-data": "z", "zero-terminated": "z"}
_WRITING_COMMANDS = ("w", "W")

GNU_USAGE = """Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
      --debug
                 annotate program execution
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  --follow-symlinks
                 follow symlinks when processing in place
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the `l' command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
      --sandbox
                 operate in sandbox mode (disable e/r/w commands).
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.

GNU sed home page: <https://www.gnu.org/software/sed/>.
General help using GNU software: <https://www.gnu.org/gethelp/>.
"""


@dataclass
class SedOptions:
    quiet: bool = False
    extended: bool = False
    separate: bool = False
    null_data: bool = False
    posix: bool = False
    line_wrap: int = 70
    in_place: str | None = None  # the backup suffix ("" for none) when -i is given
    scripts: list[tuple[str, str]] = field(default_factory=list)  # ("e", text) | ("f", path)
    operands: list[str] = field(default_factory=list)
    gnu: bool = False  # the bash language: GNU's option errors


def _fail(message: str) -> CommandFailed:
    return fail(f"sed: {message}")


def parse_sed_args(args: Sequence[str], gnu: bool = False) -> SedOptions:
    options = SedOptions(gnu=gnu)
    options.operands = read_options(args, partial(_long, options), partial(_cluster, options)).operands
    return options


def _usage_failure(first_line: str) -> CommandFailed:
    return fail(f"sed: {first_line}\n{GNU_USAGE}")


def _missing_value(options: SedOptions, letter: str) -> CommandFailed:
    if options.gnu:
        return _usage_failure(f"option requires an argument -- '{letter}'")
    return _fail("missing script for -e" if letter == "e" else "missing script file for -f")


def _cluster(options: SedOptions, arg: str, reader: ArgReader) -> None:
    for position in range(1, len(arg)):
        letter, rest = arg[position], arg[position + 1:]
        if letter == "n":
            options.quiet = True
        elif letter in "Er":
            options.extended = True
        elif letter == "s":
            options.separate = True
        elif letter == "u":
            pass
        elif letter == "z" and options.gnu:
            options.null_data = True
        elif letter == "l" and options.gnu:
            options.line_wrap = _number(reader.value(rest or None, _missing_value(options, letter)))
            return
        elif letter == "i":  # -i[SUFFIX]: the rest of the word is the suffix
            options.in_place = rest
            return
        elif letter in "ef":
            options.scripts.append((letter, reader.value(rest or None, _missing_value(options, letter))))
            return
        elif options.gnu:
            raise _usage_failure(f"invalid option -- '{letter}'")
        else:
            raise unknown_option("sed", f"-{letter}", SED_USAGE)


def _number(text: str) -> int:
    """GNU reads -l with atoi: leading digits, else 0."""
    digits = ""
    for char in text.strip():
        if not char.isdigit():
            break
        digits += char
    return int(digits) if digits else 0


def _long(options: SedOptions, arg: str, reader: ArgReader) -> None:
    name, has_value, value = arg[2:].partition("=")
    if name == "in-place":
        options.in_place = value if has_value else ""
    elif name == "posix" and not has_value:
        options.posix = True
    elif name in _LONG_FLAGS and not has_value and (options.gnu or _LONG_FLAGS[name] != "z"):
        _cluster(options, "-" + _LONG_FLAGS[name], reader)
    elif name in ("expression", "file"):
        missing = _missing_value(options, name[0])
        options.scripts.append((name[0], reader.value(value if has_value else None, missing)))
    elif name == "line-length" and options.gnu:
        options.line_wrap = _number(reader.value(value if has_value else None, _missing_value(options, "l")))
    elif options.gnu:
        raise _usage_failure(f"unrecognized option '{arg}'")
    else:
        raise unknown_option("sed", arg, SED_USAGE)


def sed_kind(args: Sequence[str]) -> str:
    """"write" when -i / --in-place is present (clusters like -ni.bak included), when the
    script writes files (`w`, `W`, the `w` flag of `s`), or when it comes from -f (unknown
    until read, so judged as writing)."""
    scripts: list[str] = []
    operands: list[str] = []
    words = iter(args)
    for arg in words:
        if arg == "--":
            operands.extend(words)
            break
        if arg.startswith("--in-place") or arg.startswith("--file"):
            return "write"
        if arg.startswith("--expression"):
            scripts.append(arg.partition("=")[2] if "=" in arg else next(words, ""))
            continue
        if arg.startswith("-") and not arg.startswith("--") and arg != "-":
            for position, letter in enumerate(arg[1:], 1):
                if letter in "if":
                    return "write"
                if letter == "e":
                    scripts.append(arg[position + 1:] or next(words, ""))
                    break
                if letter == "l":
                    if not arg[position + 1:]:
                        next(words, "")
                    break
                if letter not in "nErsuz":
                    break
            continue
        operands.append(arg)
    if not scripts and operands:
        scripts.append(operands[0])
    return "write" if any(_script_writes(script) for script in scripts) else "read"


def _script_writes(script: str) -> bool:
    """Whether the script may write a file: parsed as GNU reads it, else judged by its words."""
    try:
        program = parse_script(script.encode("utf-8", "surrogateescape"), False, gnu=True)
    except ScriptError:
        return any(letter in script for letter in _WRITING_COMMANDS)
    except Exception:  # noqa: BLE001 - a kind check must not fail; any doubt is a write
        return True
    return bool(program.write_files)


async def cmd_sed(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.grammar != "bash":
        return await _run_sed(ctx, args, stdin)
    try:
        result = await _run_sed(ctx, args, stdin)
    except CommandFailed as failure:
        result = failure.result
    if result.stderr.endswith("\n"):  # the shell ends a command's message with its own newline
        result = replace(result, stderr=result.stderr[:-1])
    return result


async def _run_sed(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if "--help" in args[:args.index("--") if "--" in args else len(args)]:
        return ok(SED.help_text() + "\n")
    gnu = ctx.grammar == "bash"
    options = parse_sed_args(args, gnu)
    if not options.scripts:
        if not options.operands:
            return err(GNU_USAGE) if gnu else err(f"sed: missing script. Usage: {SED_USAGE}")
        options.scripts.append(("e", options.operands.pop(0)))
    session = _Session(ctx, options, stdin)
    script, chunks = await session.script_text()
    try:
        program = parse_script(script, options.extended, gnu=gnu)
    except ScriptError as error:
        error.script = script
        return err(f"sed: {_locate(error, chunks) if gnu else error}", error.exit_code)
    if options.in_place is not None and not options.operands:
        return err("sed: no input files", 4) if gnu else err("sed: -i requires at least one input file")
    if options.in_place is not None and STDIN in options.operands and not gnu:
        return err("sed: cannot use -i with stdin")
    files = {name: await session.read_optional(name) for name in program.read_files}
    delimiter = b"\0" if options.null_data else b"\n"
    machine = SedMachine(program, options.quiet, files, ctx.cancelled, delimiter=delimiter,
                         line_wrap=options.line_wrap, posix=options.posix, gnu=gnu)
    failure = await session.open_written(machine)
    if failure is not None:
        return failure
    try:
        if options.in_place is not None:
            result = await session.edit_in_place(machine)
        else:
            result = await session.stream(machine)
    except SedRuntimeError as error:
        message = str(error)
        if gnu and message == "no previous regular expression":
            message = f"-e expression #1, char 0: {message}"
        return err(f"sed: {message}")
    failure = await session.save_written(machine)
    if failure is not None:
        return failure
    if machine.errors.chunks:
        result = replace(result, stderr=machine.errors.value().decode("utf-8", "replace") + result.stderr)
    return result


def _locate(error: ScriptError, chunks: list[tuple[str, int, int]]) -> str:
    """GNU's `-e expression #N, char C: ` or `file F line L: ` before the message."""
    if not error.located or not chunks:
        return str(error)
    position = error.position
    label, start, end = chunks[-1]
    if position is not None:
        for label, start, end in chunks:
            if position <= end + 1:
                break
    if label.startswith("file "):
        return f"{label} line {_line_of(error, start, end)}: {error}"
    char = 0 if position is None else min(position, end) - start
    return f"{label}, char {char}: {error}"


def _line_of(error: ScriptError, start: int, end: int) -> int:
    text = getattr(error, "script", b"")
    position = end if error.position is None else min(error.position, end)
    return text[start:position].count(b"\n") + 1 if text else 1


class _Session:
    """One sed run's inputs and outputs over the VFS."""

    def __init__(self, ctx: CommandContext, options: SedOptions, stdin: bytes) -> None:
        self.ctx = ctx
        self.options = options
        self.stdin = stdin
        self.gnu = options.gnu
        self.stdin_used = False  # `-f -` took it

    # -- the script -----------------------------------------------------------------------
    async def script_text(self) -> tuple[bytes, list[tuple[str, int, int]]]:
        """The script's pieces joined by newlines, and where each piece lies in it."""
        pieces: list[bytes] = []
        chunks: list[tuple[str, int, int]] = []
        start = expressions = 0
        for kind, value in self.options.scripts:
            if kind == "e":
                expressions += 1
                text = value.encode("utf-8", "surrogateescape")
                label = f"-e expression #{expressions}"
            else:
                text = await self._read_script_file(value)
                text = text[:-1] if text.endswith(b"\n") else text
                label = f"file {value}"
            pieces.append(text)
            chunks.append((label, start, start + len(text)))
            start += len(text) + 1
        return b"\n".join(pieces), chunks

    async def _read_script_file(self, path: str) -> bytes:
        if self.gnu and path in (STDIN, "/dev/stdin"):
            self.stdin_used = True
            return self.stdin
        data, failure = await self._load(path, "script file not found", "script path is a directory")
        if failure is not None:
            if self.gnu:
                raise CommandFailed(err(f"sed: couldn't open file {path}: {self._gnu_reason}", 4))
            raise CommandFailed(failure)
        return data

    async def read_optional(self, path: str) -> bytes:
        """`r FILE`, `R FILE`: a file that cannot be read is silently skipped (GNU)."""
        if self.gnu and path in ("/dev/stdin", STDIN):
            self.stdin_used = True
            return self.stdin
        data, failure = await self._load(path, "file not found", "path is a directory")
        return data if failure is None else b""

    async def _load(self, path: str, not_found: str, is_dir: str) -> tuple[bytes, CommandResult | None]:
        self._gnu_reason = ""
        try:
            return await read_file_bytes(self.ctx, "sed", path), None
        except VFSError as error:
            self._gnu_reason = GNU_ERRORS.get(error.code, error.code)
            self._gnu_code = error.code
            return b"", await format_vfs_error(self.ctx, "sed", path, error, not_found_label=not_found,
                                               directory_label=is_dir)
        except CommandFailed as failure:
            self._gnu_code = ""
            return b"", failure.result

    # -- w and W ---------------------------------------------------------------------------
    async def open_written(self, machine: SedMachine) -> CommandResult | None:
        """GNU opens (empties) every `w` file before reading any input."""
        for name in machine.written:
            try:
                parent = await self.ctx.vfs.stat(parent_of(self.ctx.vfs.normalize(name)))
                if not parent.exists or not parent.is_dir:
                    raise VFSError("ENOENT" if not parent.exists else "ENOTDIR", name)
                await self.ctx.vfs.write_bytes(name, b"")
            except VFSError as error:
                return err(f"sed: couldn't open file {name}: {GNU_ERRORS.get(error.code, error.code)}", 4)
        return None

    async def save_written(self, machine: SedMachine) -> CommandResult | None:
        for name, output in machine.written.items():
            try:
                await self.ctx.vfs.write_bytes(name, output.value())
            except VFSError as error:
                return err(f"sed: couldn't write {name}: {GNU_ERRORS.get(error.code, error.code)}", 4)
        return None

    # -- the inputs ------------------------------------------------------------------------
    def _split(self, data: bytes):
        return split_input(data, b"\0" if self.options.null_data else b"\n")

    async def stream(self, machine: SedMachine) -> CommandResult:
        """Without -i: every input in one stream (or one per file with -s) to stdout."""
        ctx, options = self.ctx, self.options
        errors: list[str] = []
        inputs: list[tuple[str, bytes]] = []
        code = 0
        for operand in options.operands or [STDIN]:
            if operand == STDIN:
                data = b"" if self.stdin_used else self.stdin
                check_materialized(ctx, "sed", "stdin", len(data))
                inputs.append((STDIN, data))
                continue
            data, failure = await self._load(operand, "file not found", "path is a directory")
            if failure is None:
                inputs.append((operand if self.gnu else ctx.vfs.normalize(operand), data))
            elif not self.gnu:
                errors.append(failure.stderr)
            elif self._gnu_code == "EISDIR":  # GNU stops at a directory
                errors.append(f"sed: read error on {operand}: Is a directory")
                code = 4
                break
            elif self._gnu_code:
                errors.append(f"sed: can't read {operand}: {self._gnu_reason}")
            else:
                errors.append(failure.stderr)
        out = Output(delimiter=machine.delimiter)
        if options.separate:
            for name, data in inputs:
                if machine.quit:
                    break
                machine.run(self._split(data), name, out)
        elif inputs:
            split = [(name, self._split(data)) for name, data in inputs]
            lines = [line for _, part in split for line in part]
            names = [name for name, part in split for _ in part] if self.gnu else None
            machine.run(lines, inputs[0][0] if len({name for name, _ in inputs}) == 1 else STDIN, out, names)
        stdout = out.value()
        code = code or machine.exit_code or (2 if errors else 0)
        return CommandResult(stdout=stdout, stderr=self._joined(errors), exit_code=code,
                             content_type=content_type_for(stdout))

    def _joined(self, errors: list[str]) -> str:
        if self.gnu:
            return "".join(error if error.endswith("\n") else error + "\n" for error in errors)[:-1]
        return "\n".join(errors)

    async def edit_in_place(self, machine: SedMachine) -> CommandResult:
        """-i: each file is its own stream; its output replaces it, after an optional backup."""
        ctx, options = self.ctx, self.options
        suffix = options.in_place or ""
        errors: list[str] = []
        stdout = Output(delimiter=machine.delimiter)
        code = 0
        for operand in options.operands:
            if machine.quit:
                break
            data, failure = await self._load(operand, "file not found", "path is a directory")
            if failure is not None:
                if not self.gnu:
                    errors.append(failure.stderr)
                elif self._gnu_code == "EISDIR":
                    errors.append(f"sed: couldn't edit {operand}: not a regular file")
                    code = 4
                    break
                else:
                    errors.append(f"sed: can't read {operand}: {self._gnu_reason or 'No such file or directory'}")
                continue
            path = ctx.vfs.normalize(operand)
            out = Output(delimiter=machine.delimiter)
            machine.stdout = stdout
            machine.run(self._split(data), operand if self.gnu else path, out)
            try:
                if suffix:
                    await ctx.vfs.write_bytes(_backup_path(ctx, path, suffix), data)
                await ctx.vfs.write_bytes(path, out.value(), False)
            except VFSError as error:
                return await format_vfs_error(ctx, "sed", path, error, not_found_label="file not found")
        value = stdout.value()
        return CommandResult(stdout=value, stderr=self._joined(errors),
                             exit_code=code or machine.exit_code or (2 if errors else 0),
                             content_type=content_type_for(value))


def _backup_path(ctx: CommandContext, path: str, suffix: str) -> str:
    """GNU: a `*` in the suffix stands for the file's name; else the suffix is appended."""
    if "*" not in suffix:
        return path + suffix
    name = suffix.replace("*", base_name(path))
    return ctx.vfs.normalize(name if name.startswith("/") else f"{parent_of(path)}/{name}")


SED_DETAILS = (
    "Supports a GNU-compatible subset: addresses (line, $, /regex/, range), commands p/d/q/n/s/a/i/c, "
    "and options -n, -e, -f, -E, -i[SUFFIX]. Common clustered short options like -ne and -nEf<file> "
    "also work.\n"
    "Also: basic regular expressions by default (\\( \\) \\{n\\} \\|), -E/-r extended; addresses "
    "first~step, addr,+N, addr,~N, 0,/re/, /re/I, !; commands y = l r F z Q, hold space h H g G x, "
    "N D P, { } blocks, b t T :label; s flags g N p i m, replacement & \\1-\\9 \\n \\L \\U \\E; -s.\n"
    "In the bash language (GNU sed 4.9): also -z, -l N, --posix, -f - (script from stdin), commands "
    "R w W v and the s///w flag (files written into the VFS; /dev/stdout and /dev/stderr too); "
    "`e` is refused (no process execution).\n"
    "Examples:\n  sed \"s/ERROR/WARN/\" /logs/app.log\n  sed -n \"1,5p\" /logs/app.log\n"
    "  sed -i.bak \"s/us-east-1/us-west-2/\" /config/app.env"
)

def sed_targets(args: list[str]) -> list[str]:
    """The files `sed -i` rewrites: the operands after the script (all of them when the
    script comes from -e/-f)."""
    def cluster_has_i(arg: str) -> bool:  # `-i`, `-i.bak`, `-ni`; not the `i` of an -e/-f value
        return arg.startswith("-") and not arg.startswith("--") and "i" in arg[1:].split("e")[0].split("f")[0]
    in_place = any(arg.startswith("--in-place") or cluster_has_i(arg) for arg in args)
    if not in_place:
        return []
    operands = plain_operands(args, "efl", ("expression", "file", "line-length"))
    scripted = any(arg in ("-e", "-f") or arg.startswith(("--expression", "--file")) for arg in args)
    return operands if scripted else operands[1:]


SED = CommandSpec(
    targets=sed_targets,
    name="sed",
    summary="Stream editor with in-place editing, addresses, and substitutions.",
    usage=SED_USAGE,
    details=SED_DETAILS,
    handler=cmd_sed,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("s/a/A/",),
    kind=sed_kind, group="text", requires_adapter=None,
    arity_message=f"missing script. Usage: {SED_USAGE}",
)

COMMANDS = [SED]
