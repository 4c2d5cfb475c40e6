"""timeout: run a command, and stop it when a time limit passes, as GNU coreutils timeout.

COMMAND runs through the shell (`ctx.run_argv`, behind the same policy and limits as the
shell's own commands) with its own deadline: every shell loop and long command polls the
run's budget, which ends the command when DURATION passes (`sed ':a;ba'`, `while :; do :;
done`), and an `asyncio.wait_for` a moment later ends one that is waiting (`sleep`). What
it wrote so far is kept; timeout exits 124 (137 with -s KILL; with --preserve-status 128
plus the signal's number, as a killed command's status reads).

DURATION is a number with an optional unit s, m, h or d (`0.5`, `2m`); 0 means no limit.
Exit statuses are GNU's: 125 for timeout's own errors, 127 when COMMAND does not exist,
else COMMAND's status.
"""
from __future__ import annotations

import asyncio
import math
import re
from typing import Callable, Sequence

from ...result import TEXT, CommandResult
from ..getopt import NONE, REQUIRED, gnu_getopt
from ..spec import CommandContext, CommandFailed, CommandSpec

USAGE = "timeout [-s SIGNAL] [-k DURATION] [--preserve-status] [--foreground] [-v] DURATION COMMAND [ARG]..."
TRY = "Try 'timeout --help' for more information."
TIMED_OUT, FAILURE, CANNOT_RUN, NOT_FOUND = 124, 125, 126, 127
_SHORT = "k:s:v"
_LONG = {"kill-after": ("k", REQUIRED), "signal": ("s", REQUIRED), "preserve-status": ("preserve-status", NONE),
         "foreground": ("foreground", NONE), "verbose": ("v", NONE), "help": ("help", NONE),
         "version": ("version", NONE)}
SIGNALS = {"HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6, "IOT": 6, "BUS": 7, "FPE": 8,
           "KILL": 9, "USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15, "STKFLT": 16,
           "CHLD": 17, "CLD": 17, "CONT": 18, "STOP": 19, "TSTP": 20, "TTIN": 21, "TTOU": 22, "URG": 23,
           "XCPU": 24, "XFSZ": 25, "VTALRM": 26, "PROF": 27, "WINCH": 28, "IO": 29, "POLL": 29, "PWR": 30,
           "SYS": 31, "RTMIN": 34, "RTMAX": 64}
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
_NUMBER = re.compile(r"[ \t\n\v\f\r]*([+-]?(?:0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?"
                     r"|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|(?i:inf(?:inity)?|nan)))([smhd]?)")


def _failure(*lines: str, status: int = FAILURE) -> CommandFailed:
    return CommandFailed(CommandResult(b"", "\n".join(lines), status, TEXT))


def parse_duration(text: str) -> float:
    """GNU's: a C floating-point number (leading blanks, exponent, hex, `inf`), then at most
    one unit letter; negative or not a number is invalid. Seconds."""
    match = _NUMBER.fullmatch(text)
    if match is None:
        raise _failure(f"timeout: invalid time interval '{text}'", TRY)
    number, unit = match.groups()
    body = number.lstrip("+-")
    value = float.fromhex(number) if body[:2].lower() == "0x" else float(number)
    if math.isnan(value) or value < 0:
        raise _failure(f"timeout: invalid time interval '{text}'", TRY)
    return value * _UNITS[unit]


def parse_signal(text: str) -> tuple[str, int]:
    """(name, number) of -s SIGNAL: a name with or without SIG (any case), or a number."""
    if re.fullmatch(r"\d+", text):
        number = int(text)
        if number > 64:
            raise _failure(f"timeout: '{text}': invalid signal", TRY)
        name = next((name for name, value in SIGNALS.items() if value == number), str(number))
        return name, number
    name = text.upper()
    name = name[3:] if name.startswith("SIG") else name
    rt = re.fullmatch(r"RTM(IN|AX)([+-]\d+)?", name)
    if rt:
        base = SIGNALS["RTMIN" if rt.group(1) == "IN" else "RTMAX"]
        number = base + int(rt.group(2) or 0)
        if SIGNALS["RTMIN"] <= number <= SIGNALS["RTMAX"]:
            return name, number
    if name in SIGNALS:
        return name, SIGNALS[name]
    raise _failure(f"timeout: '{text}': invalid signal", TRY)


class _Request:
    def __init__(self) -> None:
        self.signal = ("TERM", 15)
        self.kill_after = 0.0
        self.preserve = False
        self.verbose = False
        self.help = False
        self.duration = 0.0
        self.command: list[str] = []


def parse_args(args: Sequence[str]) -> _Request:
    try:
        options, operands = gnu_getopt("timeout", USAGE, list(args), _SHORT, _LONG, permute=False)
    except CommandFailed as failure:
        raise _failure(failure.result.stderr) from None
    request = _Request()
    for key, value in options:
        if key == "s":
            request.signal = parse_signal(value or "")
        elif key == "k":
            request.kill_after = parse_duration(value or "")
        elif key == "preserve-status":
            request.preserve = True
        elif key == "v":
            request.verbose = True
        elif key == "help":
            request.help = True
        elif key == "version":
            raise _failure("timeout: --version is not supported. Usage: " + USAGE)
        # --foreground: there are no process groups or terminals here; nothing changes
    if request.help:
        return request
    if len(operands) < 2:
        raise _failure("timeout: missing operand", TRY)
    request.duration = parse_duration(operands[0])
    request.command = list(operands[1:])
    return request


def _timed_out(request: _Request) -> int:
    name, number = request.signal
    if request.preserve:
        return 128 + number
    return 128 + 9 if number == 9 else TIMED_OUT


# How long after DURATION a command that waits (rather than computes) is cancelled.
_GRACE_SECONDS = 0.05


async def cmd_timeout(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    request = parse_args(args)
    if request.help:
        return CommandResult((TIMEOUT.help_text() + "\n").encode("utf-8"), "", 0, TEXT)
    if ctx.run_argv is None:
        raise _failure("timeout: runs commands only inside the shell: use it in a command line, "
                       "e.g. timeout 5 grep -r TODO .")
    limit = request.duration
    if limit <= 0 or math.isinf(limit):
        result = await ctx.run_argv(request.command, stdin)
    else:
        try:
            # The shell stops the command when `limit` passes (its loops poll the budget);
            # wait_for, a little later, also ends one that is waiting (`sleep`, a pipe).
            result = await asyncio.wait_for(ctx.run_argv(request.command, stdin, timeout_seconds=limit),
                                            limit + _GRACE_SECONDS)
        except asyncio.TimeoutError:
            result = CommandResult(b"", "", TIMED_OUT)
        if result.exit_code == TIMED_OUT:
            message = f"timeout: sending signal {request.signal[0]} to command '{request.command[0]}'" \
                if request.verbose else ""
            # A stopped command says nothing of its own end (a killed program cannot): drop
            # the "interrupted" line our commands print when the budget stops them.
            said = [line for line in result.stderr.split("\n") if line and not line.endswith(": interrupted")]
            if request.signal[1] == 9 and not request.preserve:
                # timeout dies of the KILL it sent, and the shell reports the kill (bash:
                # "line 1: PID Killed  timeout ..."; there is no PID here).
                message = "\n".join(filter(None, [message, "Killed"]))
            return CommandResult(result.stdout, "\n".join([*said, message] if message else said),
                                 _timed_out(request), TEXT)
    if result.exit_code == NOT_FOUND and "command not found" in result.stderr:
        return CommandResult(result.stdout, f"timeout: failed to run command '{request.command[0]}': "
                             "No such file or directory", NOT_FOUND, TEXT)
    return CommandResult(result.stdout, result.stderr, result.exit_code, TEXT)


_READ_ONLY_BUILTINS = ("echo", "printf", "test", "[", "true", "false", "pwd", "sleep")
_SPECS: dict[str, CommandSpec | None] = {}


def timeout_kind(args: Sequence[str]) -> str:
    """The kind of the command timeout runs: read for the read-only builtins and commands,
    write when it cannot tell (a shell, an unknown name)."""
    try:
        request = parse_args(args)
    except CommandFailed:
        return "read"  # a bad command line runs nothing
    if request.help:
        return "read"
    name, rest = request.command[0], request.command[1:]
    if name in _READ_ONLY_BUILTINS:
        return "read"
    from ..selection import create_command_registry
    spec = _registry_spec(create_command_registry, name)
    if spec is None:
        return "write"
    try:
        return spec.kind_for(rest)
    except Exception:
        return "write"


def _registry_spec(factory: Callable[[], object], name: str) -> CommandSpec | None:
    if name not in _SPECS:
        _SPECS[name] = factory().get(name)  # type: ignore[attr-defined]
    return _SPECS[name]


TIMEOUT = CommandSpec(
    name="timeout",
    summary="Run a command with a time limit, as GNU timeout.",
    usage=USAGE,
    details=("Runs COMMAND with its arguments; if it is still running after DURATION (seconds, or with "
             "a unit: 0.5s, 2m, 1h, 1d; 0 means no limit) it is stopped and timeout exits 124 (137 "
             "with -s KILL; --preserve-status: 128 + the signal's number). The output of a stopped "
             "command is lost. -s SIGNAL names the signal (TERM by default) for that status; -k and "
             "--foreground are accepted; -v says on stderr when the limit was reached. A command that "
             "computes without waiting (a tight sed or awk loop) is stopped only by the run's own time "
             "limit. Exit 125: timeout's own error; 127: no such command; else COMMAND's status.\n"
             "Examples:\n  timeout 5 grep -r TODO /src\n  timeout 0.5s sh -c 'while :; do :; done'; echo $?\n"
             "  timeout 2m find / -name '*.log'\n  timeout --preserve-status 1 sleep 5; echo $?"),
    group="system", handler=cmd_timeout,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind=timeout_kind,
    usage_exit_code=FAILURE,
)

COMMANDS = [TIMEOUT]
