"""bc: the arbitrary-precision calculator language, as GNU bc 1.07.1 behaves.

`bc [-l] [-q] [FILE...]` reads the FILEs, then stdin, as one program and prints what GNU bc
prints, byte for byte: numbers with bc's scale rules, lines wrapped at 70 columns with a
backslash (BC_LINE_LENGTH), errors as `(standard_in) 1: syntax error` and `Runtime error
(func=(main), adr=3): Divide by zero`. The language lives in `onetool_wasm.bc`.
"""
from __future__ import annotations

from ...bc import run_bc
from ...result import CommandResult
from ...vfs.errors import VFSError
from ..helpers import check_materialized
from ..spec import CommandContext, CommandSpec

USAGE = "bc [-l] [-q] [FILE...]"
USAGE_TEXT = ("usage: bc [options] [file ...]\n"
              "  -h  --help         print this usage and exit\n"
              "  -i  --interactive  force interactive mode\n"
              "  -l  --mathlib      use the predefined math routines\n"
              "  -q  --quiet        don't print initial banner\n"
              "  -s  --standard     non-standard bc constructs are errors\n"
              "  -w  --warn         warn about non-standard bc constructs\n"
              "  -v  --version      print version information and exit\n")
VERSION_TEXT = ("bc 1.07.1\n"
                "Copyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 "
                "Free Software Foundation, Inc.\n")
_SHORT = {"h": "help", "i": "interactive", "l": "mathlib", "q": "quiet", "s": "standard",
          "w": "warn", "v": "version"}
_LONG = {"help", "interactive", "mathlib", "quiet", "standard", "warn", "version"}


def _parse(args: list[str]) -> tuple[set[str], list[str]] | CommandResult:
    flags: set[str] = set()
    files: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            files.extend(args[index:])
            break
        if arg.startswith("--"):
            name = arg[2:]
            matches = [option for option in _LONG if option.startswith(name)] if name else []
            if name in _LONG:
                matches = [name]
            if len(matches) != 1:
                word = "unrecognized" if not matches else "ambiguous"
                return CommandResult(stdout=USAGE_TEXT.encode(), stderr=f"bc: {word} option '{arg}'\n", exit_code=1)
            flags.add(matches[0])
        elif arg.startswith("-") and len(arg) > 1:
            for letter in arg[1:]:
                if letter not in _SHORT:
                    return CommandResult(stdout=USAGE_TEXT.encode(), stderr=f"bc: invalid option -- '{letter}'\n",
                                         exit_code=1)
                flags.add(_SHORT[letter])
        else:
            files.append(arg)
    return flags, files


async def _read(ctx: CommandContext, path: str) -> str | None:
    try:
        info = await ctx.vfs.stat(path)
        if not info.exists or info.is_dir:
            return None
        check_materialized(ctx, "bc", ctx.vfs.normalize(path), info.size)
        return (await ctx.vfs.read_bytes(path)).decode("latin-1")
    except VFSError:
        return None


def _line_length(ctx: CommandContext) -> int:
    text = ctx.environment.get("BC_LINE_LENGTH")
    if text is None:
        return 70
    digits = text.strip()
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("+-")
    number = 0
    for ch in digits:
        if not ch.isdigit() or number > 10**9:
            break
        number = number * 10 + int(ch)
    number *= sign
    return 70 if (number < 3 and number != 0) else number


async def cmd_bc(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    parsed = _parse(args)
    if isinstance(parsed, CommandResult):
        return parsed
    flags, files = parsed
    if "help" in flags:
        return CommandResult(stdout=USAGE_TEXT.encode(), exit_code=0)
    if "version" in flags:
        return CommandResult(stdout=VERSION_TEXT.encode(), exit_code=0)
    sources: list[tuple[str, str | None]] = []
    for path in files:
        text = await _read(ctx, path)
        sources.append((path, text))
        if text is None:
            break
    else:
        if stdin:
            check_materialized(ctx, "bc", "stdin", len(stdin))
        sources.append(("(standard_in)", stdin.decode("latin-1")))
    result = run_bc(sources, "mathlib" in flags, ctx.cancelled, _line_length(ctx))
    return CommandResult(stdout=result.stdout.encode("latin-1"),
                         stderr=result.stderr.encode("latin-1").decode("utf-8", "replace"),
                         exit_code=result.status)


BC = CommandSpec(
    name="bc",
    summary="arbitrary-precision calculator language (GNU bc 1.07.1)",
    usage=USAGE,
    details=("Runs a bc program read from the FILEs, then stdin: arithmetic on decimals of any "
             "size (`scale` digits after the point for /, sqrt and the math library), variables, "
             "arrays, if/while/for, define with auto and return, print, ibase and obase.\n"
             "Options: -l the math library (s c a l e j, scale=20), -q quiet (the default here).\n"
             "Examples:\n  echo \"scale=2; 10/3\" | bc\n  bc -l <<< \"s(1)\"\n"
             "  echo \"obase=16; 255\" | bc\n  x=$(echo \"sqrt(2)\" | bc -l)"),
    handler=cmd_bc,
    accepts_stdin=True,
    min_args=0,
    max_args=None,
    conformance_args=("-q",),
    kind="read",
    group="data",
)

COMMANDS = [BC]
