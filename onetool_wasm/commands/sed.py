"""sed: the stream editor, GNU-compatible over bytes, with in-place editing through the VFS.

Options as GNU sed reads them (`-n -e -f -E/-r -i[SUFFIX] -s`, long forms, clusters such
as `-ne` and `-nEf<file>`, options after operands, `--`). The script language lives in
sed_script, the cycle in sed_exec. Messages that upstream records are kept word for word.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Sequence

from ..result import CommandResult, err, ok
from ..vfs.errors import VFSError
from ..vfs.paths import base_name, parent_of
from .helpers import check_materialized, content_type_for, fail, format_vfs_error, read_file_bytes
from .options import ArgReader, read_options, unknown_option
from .sed_exec import Output, SedMachine, SedRuntimeError, split_input
from .sed_script import ScriptError, parse_script
from .spec import CommandContext, CommandFailed, CommandSpec

SED_USAGE = "sed [OPTION]... [SCRIPT] [INPUTFILE...]"
STDIN = "-"
_LONG_FLAGS = {"quiet": "n", "silent": "n", "regexp-extended": "E", "separate": "s", "unbuffered": "u",
               "posix": "u", "sandbox": "u", "follow-symlinks": "u"}


@dataclass
class SedOptions:
    quiet: bool = False
    extended: bool = False
    separate: bool = False
    in_place: str | None = None  # the backup suffix ("" for none) when -i is given
    scripts: list[tuple[str, str]] = field(default_factory=list)  # ("e", text) | ("f", path)
    operands: list[str] = field(default_factory=list)


def _fail(message: str) -> CommandFailed:
    return fail(f"sed: {message}")


def parse_sed_args(args: Sequence[str]) -> SedOptions:
    options = SedOptions()
    options.operands = read_options(args, partial(_long, options), partial(_cluster, options)).operands
    return options


def _missing_script(letter: str) -> CommandFailed:
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
        elif letter == "i":  # -i[SUFFIX]: the rest of the word is the suffix
            options.in_place = rest
            return
        elif letter in "ef":
            options.scripts.append((letter, reader.value(rest or None, _missing_script(letter))))
            return
        else:
            raise unknown_option("sed", f"-{letter}", SED_USAGE)


def _long(options: SedOptions, arg: str, reader: ArgReader) -> None:
    name, has_value, value = arg[2:].partition("=")
    if name == "in-place":
        options.in_place = value if has_value else ""
    elif name in _LONG_FLAGS and not has_value:
        _cluster(options, "-" + _LONG_FLAGS[name], reader)
    elif name in ("expression", "file"):
        options.scripts.append((name[0], reader.value(value if has_value else None, _missing_script(name[0]))))
    else:
        raise unknown_option("sed", arg, SED_USAGE)


def sed_kind(args: Sequence[str]) -> str:
    """"write" when -i / --in-place is present (clusters like -ni.bak included)."""
    for arg in args:
        if arg == "--":
            break
        if arg.startswith("--in-place"):
            return "write"
        if arg.startswith("-") and not arg.startswith("--"):
            for letter in arg[1:]:
                if letter == "i":
                    return "write"
                if letter in "ef" or letter not in "nErsu":
                    break
    return "read"


async def cmd_sed(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if "--help" in args[:args.index("--") if "--" in args else len(args)]:
        return ok(SED.help_text() + "\n")
    options = parse_sed_args(args)
    if not options.scripts:
        if not options.operands:
            return err(f"sed: missing script. Usage: {SED_USAGE}")
        options.scripts.append(("e", options.operands.pop(0)))
    script = await _script_text(ctx, options)
    try:
        program = parse_script(script.encode("utf-8", "surrogateescape"), options.extended)
    except ScriptError as error:
        return err(f"sed: {error}")
    if options.in_place is not None and not options.operands:
        return err("sed: -i requires at least one input file")
    if options.in_place is not None and STDIN in options.operands:
        return err("sed: cannot use -i with stdin")
    files = {name: await _read_optional(ctx, name) for name in program.read_files}
    machine = SedMachine(program, options.quiet, files, ctx.cancelled)
    try:
        if options.in_place is not None:
            return await _edit_in_place(ctx, options, machine)
        return await _stream(ctx, options, machine, stdin)
    except SedRuntimeError as error:
        return err(f"sed: {error}")


async def _script_text(ctx: CommandContext, options: SedOptions) -> str:
    pieces: list[str] = []
    for kind, value in options.scripts:
        if kind == "e":
            pieces.append(value)
        else:
            text = (await _read_script_file(ctx, value)).decode("utf-8", "surrogateescape")
            pieces.append(text[:-1] if text.endswith("\n") else text)
    return "\n".join(pieces)


async def _read_script_file(ctx: CommandContext, path: str) -> bytes:
    data, failure = await _load(ctx, path, "script file not found", "script path is a directory")
    if failure is not None:
        raise CommandFailed(failure)
    return data


async def _read_optional(ctx: CommandContext, path: str) -> bytes:
    """`r FILE`: a file that cannot be read is silently skipped (GNU)."""
    data, failure = await _load(ctx, path, "file not found", "path is a directory")
    return data if failure is None else b""


async def _load(ctx: CommandContext, path: str, not_found: str, is_dir: str) -> tuple[bytes, CommandResult | None]:
    try:
        return await read_file_bytes(ctx, "sed", path), None
    except VFSError as error:
        return b"", await format_vfs_error(ctx, "sed", path, error, not_found_label=not_found,
                                           directory_label=is_dir)
    except CommandFailed as failure:
        return b"", failure.result


async def _stream(ctx: CommandContext, options: SedOptions, machine: SedMachine, stdin: bytes) -> CommandResult:
    """Without -i: every input in one stream (or one per file with -s) to stdout."""
    errors: list[str] = []
    inputs: list[tuple[str, bytes]] = []
    for operand in options.operands or [STDIN]:
        if operand == STDIN:
            check_materialized(ctx, "sed", "stdin", len(stdin))
            inputs.append((STDIN, stdin))
            continue
        data, failure = await _load(ctx, operand, "file not found", "path is a directory")
        if failure is not None:
            errors.append(failure.stderr)
        else:
            inputs.append((ctx.vfs.normalize(operand), data))
    out = Output()
    if options.separate:
        for name, data in inputs:
            if machine.quit:
                break
            machine.run(split_input(data), name, out)
    else:
        lines = [line for _, data in inputs for line in split_input(data)]
        machine.run(lines, inputs[0][0] if len(inputs) == 1 else STDIN, out)
    stdout = out.value()
    code = machine.exit_code or (2 if errors else 0)
    return CommandResult(stdout=stdout, stderr="\n".join(errors), exit_code=code, content_type=content_type_for(stdout))


async def _edit_in_place(ctx: CommandContext, options: SedOptions, machine: SedMachine) -> CommandResult:
    """-i: each file is its own stream; its output replaces it, after an optional backup."""
    suffix = options.in_place or ""
    errors: list[str] = []
    for operand in options.operands:
        if machine.quit:
            break
        data, failure = await _load(ctx, operand, "file not found", "path is a directory")
        if failure is not None:
            errors.append(failure.stderr)
            continue
        path = ctx.vfs.normalize(operand)
        out = Output()
        machine.run(split_input(data), path, out)
        try:
            if suffix:
                await ctx.vfs.write_bytes(_backup_path(ctx, path, suffix), data)
            await ctx.vfs.write_bytes(path, out.value(), False)
        except VFSError as error:
            return await format_vfs_error(ctx, "sed", path, error, not_found_label="file not found")
    return CommandResult(stderr="\n".join(errors), exit_code=machine.exit_code or (2 if errors else 0))


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
    "Examples:\n  sed \"s/ERROR/WARN/\" /logs/app.log\n  sed -n \"1,5p\" /logs/app.log\n"
    "  sed -i.bak \"s/us-east-1/us-west-2/\" /config/app.env"
)

SED = CommandSpec(
    name="sed",
    summary="Stream editor with in-place editing, addresses, and substitutions.",
    usage=SED_USAGE,
    details=SED_DETAILS,
    handler=cmd_sed,
    accepts_stdin=True, min_args=1, max_args=None, conformance_args=("s/a/A/",),
    kind=sed_kind, group="text", requires_adapter=None,
    arity_message=f"missing script. Usage: {SED_USAGE}",
)

COMMANDS = [SED]
