"""jq: the JSON processor, as jq 1.6 behaves (options, output format, errors, exit codes).

The language lives in `onetool_wasm.jq`; this module reads options and inputs, runs the
filter on each input, and prints results. Exit codes as jq: 2 usage or input errors, 3 a
compile error, 5 a runtime error, 1 or 4 with -e.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ...jq import Halt, JqError, JqLimit, JqSyntaxError, compile_filter, dump, to_jq
from ...jsonparse import MAX_JSON_DEPTH, json_depth
from ...result import CommandResult, encode_text
from ...vfs.errors import VFSError
from ..helpers import FS_ERRORS, check_materialized
from ..spec import CommandContext, CommandSpec

USAGE = "jq [OPTIONS] FILTER [FILES...]"
MAX_OUTPUT = 64 * 1024 * 1024
_SHORT = {"r": "raw", "j": "join", "c": "compact", "s": "slurp", "n": "null_input", "e": "exit_status",
          "S": "sort_keys", "a": "ascii", "R": "raw_input", "C": None, "M": None}
_LONG = {"raw-output": "raw", "join-output": "join", "compact-output": "compact", "slurp": "slurp",
         "null-input": "null_input", "exit-status": "exit_status", "sort-keys": "sort_keys",
         "ascii-output": "ascii", "raw-input": "raw_input", "tab": "tab", "color-output": None,
         "monochrome-output": None, "unbuffered": None, "seq": None}


class UsageError(Exception):
    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Options:
    raw: bool = False
    join: bool = False
    compact: bool = False
    slurp: bool = False
    null_input: bool = False
    exit_status: bool = False
    sort_keys: bool = False
    ascii: bool = False
    raw_input: bool = False
    tab: bool = False
    indent: int = 2
    filter: str | None = None
    files: list[str] = field(default_factory=list)
    named: dict[str, Any] = field(default_factory=dict)
    pending_files: list[tuple[str, str, bool]] = field(default_factory=list)  # (name, path, raw)


def parse_args(args: list[str]) -> Options:
    options = Options()
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg.startswith("--") and len(arg) > 2:
            index = _long(options, arg[2:], args, index)
        elif arg.startswith("-") and len(arg) > 1:
            if not (arg[1] == "-" or arg[1].isalpha()):
                _operand(options, arg)
                continue
            for letter in arg[1:]:
                if letter == "h":
                    raise UsageError(f"Usage: {USAGE}", 2)
                if letter not in _SHORT:
                    raise UsageError(f"jq: Unknown option: {arg}\nUse jq --help for help with command-line options,\n"
                                     "or see the jq manpage, or online docs  at https://stedolan.github.io/jq")
                if _SHORT[letter]:
                    setattr(options, _SHORT[letter], True)
        else:
            _operand(options, arg)
    if options.filter is None:
        options.filter = "."  # jq 1.6 with no filter and stdin not a terminal
    return options


def _operand(options: Options, arg: str) -> None:
    if options.filter is None:
        options.filter = arg
    else:
        options.files.append(arg)


def _long(options: Options, name: str, args: list[str], index: int) -> int:
    if name in _LONG:
        if _LONG[name]:
            setattr(options, _LONG[name], True)
        return index
    wanted = {"arg": 2, "argjson": 2, "slurpfile": 2, "rawfile": 2, "indent": 1}
    if name not in wanted:
        raise UsageError(f"jq: Unknown option: --{name}\nUse jq --help for help with command-line options,\n"
                         "or see the jq manpage, or online docs  at https://stedolan.github.io/jq")
    values = args[index:index + wanted[name]]
    if len(values) < wanted[name]:
        raise UsageError(f"jq: --{name} takes {'one parameter' if wanted[name] == 1 else 'two parameters'} "
                         f"(e.g. --{name} varname value)")
    if name == "indent":
        try:
            indent = int(values[0])
        except ValueError:
            raise UsageError("jq: --indent takes a number") from None
        if indent > 7:
            raise UsageError("jq: Cannot indent more than 7 characters")
        options.indent = max(indent, 0) if indent >= 0 else 0
        if indent < 0:
            raise UsageError("jq: Cannot indent less than -1 characters")
        return index + 1
    var, value = values
    if name == "arg":
        options.named[var] = value
    elif name == "argjson":
        try:
            options.named[var] = _parse_one(value)
        except ValueError:
            raise UsageError(f"jq: Invalid JSON text passed to --argjson") from None
    else:
        options.pending_files.append((var, value, name == "rawfile"))
    return index + 2


def _parse_one(text: str) -> Any:
    values = parse_stream(text)
    if len(values) != 1:
        raise ValueError("expected one JSON value")
    return values[0]


_DECODER = json.JSONDecoder(parse_int=float, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
_WHITESPACE = " \t\n\r"


def parse_stream(text: str) -> list[Any]:
    """Every JSON value in `text` (jq reads a stream of values separated by whitespace)."""
    values, _ = parse_stream_prefix(text)
    return values


def parse_stream_prefix(text: str) -> tuple[list[Any], str | None]:
    """The values before the first bad one, and the error text (None when all were good)."""
    text = text.removeprefix("\ufeff")
    if json_depth(text) > MAX_JSON_DEPTH:
        return [], f"Exceeds depth limit for parsing"
    values, index = [], 0
    while True:
        while index < len(text) and text[index] in _WHITESPACE:
            index += 1
        if index >= len(text):
            return values, None
        try:
            value, index = _DECODER.raw_decode(text, index)
        except (ValueError, RecursionError) as error:
            line = text.count("\n", 0, index) + 1
            return values, f"Invalid JSON text at line {line}: {error}"
        values.append(to_jq(value))


# ---------------------------------------------------------------- running

@dataclass
class Output:
    options: Options
    chunks: list[bytes] = field(default_factory=list)
    size: int = 0
    last: Any = None
    any_output: bool = False

    def emit(self, value: Any) -> None:
        options = self.options
        if (options.raw or options.join) and isinstance(value, str):
            text = value
        else:
            indent = "" if options.compact else ("\t" if options.tab else " " * options.indent)
            text = dump(value, indent, options.sort_keys, options.ascii)
        data = encode_text(text) + (b"" if options.join else b"\n")
        self.size += len(data)
        if self.size > MAX_OUTPUT:
            raise JqLimit("the output is larger than 64 MiB; narrow the filter")
        self.chunks.append(data)
        self.last, self.any_output = value, True


async def _read_source(ctx: CommandContext, path: str) -> bytes:
    info = await ctx.vfs.stat(path)
    if not info.exists:
        raise VFSError("ENOENT", ctx.vfs.normalize(path))
    if info.is_dir:
        raise VFSError("EISDIR", ctx.vfs.normalize(path))
    check_materialized(ctx, "jq", ctx.vfs.normalize(path), info.size)
    return await ctx.vfs.read_bytes(path)


async def cmd_jq(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    try:
        options = parse_args(args)
    except UsageError as error:
        return CommandResult(stderr=str(error) + "\n", exit_code=error.status)
    errors: list[str] = []
    variables: dict[str, Any] = {"ENV": dict(ctx.environment), "__input_filename": None}
    for name, path, raw in options.pending_files:
        try:
            text = (await _read_source(ctx, path)).decode("utf-8", errors="replace")
        except FS_ERRORS as error:
            return CommandResult(stderr=f"jq: error: Could not open {path}: {_reason(error)}\n", exit_code=2)
        if raw:
            options.named[name] = text
        else:
            values, problem = parse_stream_prefix(text)
            if problem:
                return CommandResult(stderr=f"jq: Bad JSON in --slurpfile {name} {path}: {problem}\n", exit_code=2)
            options.named[name] = values
    variables.update(options.named)
    variables["ARGS"] = {"positional": [], "named": dict(options.named)}
    try:
        program = compile_filter(options.filter, variables, ctx.cancelled)
    except JqSyntaxError as error:
        return CommandResult(stderr=f"jq: error: {error}\njq: 1 compile error\n", exit_code=3)
    text, read_status = await _gather_input(ctx, options, stdin, errors)
    return _run(program, options, text, errors, read_status)


def _reason(error: BaseException) -> str:
    code = getattr(error, "code", "")
    return {"ENOENT": "No such file or directory", "EISDIR": "Is a directory"}.get(code, str(error))


async def _gather_input(ctx, options: Options, stdin: bytes, errors: list[str]) -> tuple[str, int]:
    status = 0
    if not options.files:
        return stdin.decode("utf-8", errors="replace"), status
    parts = []
    for path in options.files:
        try:
            parts.append((await _read_source(ctx, path)).decode("utf-8", errors="replace"))
        except FS_ERRORS as error:
            errors.append(f"jq: error: Could not open {path}: {_reason(error)}")
            status = 2
    return "".join(parts), status


def _inputs(options: Options, text: str) -> tuple[list[Any], str | None]:
    if options.raw_input:
        if options.slurp:
            return [text], None
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return lines, None
    values, problem = parse_stream_prefix(text)
    if options.slurp:
        return ([values] if problem is None else []), problem
    return values, problem


def _run(program, options: Options, text: str, errors: list[str], status: int) -> CommandResult:
    inputs, problem = _inputs(options, text)
    out = Output(options)
    queue = list(inputs)
    position = [0]

    def next_input() -> Any:
        from ...jq.builtins import _NO_INPUT
        if position[0] >= len(queue):
            return _NO_INPUT
        position[0] += 1
        return queue[position[0] - 1]

    program.interpreter.next_input = next_input
    program.interpreter.environment = program.env.vars.get("ENV", {})
    failed = False
    try:
        if options.null_input:
            failed = _run_one(program, None, out, errors) or failed
        else:
            while position[0] < len(queue):
                position[0] += 1
                failed = _run_one(program, queue[position[0] - 1], out, errors) or failed
    except Halt as halt:
        if halt.message:
            errors.append(halt.message.rstrip("\n") if halt.message.endswith("\n") else halt.message)
        return _result(out, errors, halt.status, program)
    except JqLimit as limit:
        errors.append(f"jq: error: {limit}")
        return _result(out, errors, 5, program)
    if problem is not None:
        errors.append(f"jq: error (at <stdin>:0): {problem}")
        return _result(out, errors, 4 if problem.startswith("Invalid") else 2, program)
    if status:
        return _result(out, errors, status, program)
    if failed:
        return _result(out, errors, 5, program)
    if options.exit_status:
        if not out.any_output:
            return _result(out, errors, 4, program)
        return _result(out, errors, 1 if out.last is None or out.last is False else 0, program)
    return _result(out, errors, 0, program)


def _run_one(program, value: Any, out: Output, errors: list[str]) -> bool:
    """Runs the filter on one input; True when it ended with a runtime error."""
    try:
        for result in program.run(value):
            out.emit(result)
    except JqError as error:
        if error.value is None:
            return False  # jq 1.6 ignores `error(null)`
        errors.append(f"jq: error (at <stdin>:0): {error.message()}")
        return True
    return False


def _result(out: Output, errors: list[str], status: int, program) -> CommandResult:
    messages = program.interpreter.messages + errors
    stderr = "".join(message + "\n" for message in messages)
    return CommandResult(stdout=b"".join(out.chunks), stderr=stderr, exit_code=status)


JQ = CommandSpec(
    name="jq",
    summary="filter and transform JSON with the jq language (jq 1.6)",
    usage=USAGE,
    details=("Runs FILTER on each JSON value read from FILES or stdin and prints the results, "
             "pretty-printed with 2 spaces unless -c.\n"
             "Options: -r raw strings, -j raw without newlines, -c compact, -s slurp into one array, "
             "-n null input, -e exit status from the last output, -S sort keys, -a ASCII output, "
             "-R raw input lines, --tab, --indent N, --arg NAME VALUE, --argjson NAME JSON, "
             "--slurpfile NAME FILE, --rawfile NAME FILE.\n"
             "Exit codes: 2 usage or bad input, 3 compile error, 5 runtime error.\n"
             "Examples:\n  jq '.items[] | .name' /data/items.json\n"
             "  cat /data/users.json | jq -r '.[] | select(.active) | .email'\n"
             "  jq -n --arg x 1 '{value: $x}'\n  jq -s 'map(.size) | add' /data/a.json /data/b.json"),
    handler=cmd_jq,
    accepts_stdin=True,
    min_args=0,
    max_args=None,
    conformance_args=("-n", "1"),
    kind="read",
    group="data",
    usage_exit_code=2,
)

COMMANDS = [JQ]
