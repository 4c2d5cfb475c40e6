"""Builtins of control and status: true, false, :, exit, return, break, continue, let,
test/[, sleep, wait, trap."""
from __future__ import annotations

import asyncio
import re
import time
from typing import TYPE_CHECKING

from ...commands.spec import CommandIO
from .. import arithmetic
from ..limits import LimitExceeded
from ..state import ShellError
from .test import TestSyntaxError, run_test

if TYPE_CHECKING:
    from ..interpreter import Interpreter


async def _fail(shell: "Interpreter", io: CommandIO, message: str, status: int = 1) -> int:
    await io.error(f"bash: line {shell.line}: {message}")
    return status


async def builtin_true(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    return 0


async def builtin_false(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    return 1


def _status_argument(args: list[str], default: int) -> int | None:
    if not args:
        return default
    if re.fullmatch(r"[+-]?\d+", args[0]):
        return int(args[0]) & 0xFF
    return None


async def builtin_exit(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    from ..interpreter import ShellExit
    status = _status_argument(args, shell.state.last_status)
    if status is None:
        await _fail(shell, io, f"exit: {args[0]}: numeric argument required")
        raise ShellExit(2)
    if len(args) > 1:
        return await _fail(shell, io, "exit: too many arguments")
    raise ShellExit(status)


async def builtin_return(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    from ..interpreter import FunctionReturn
    if shell.state.function_depth == 0 and shell.source_depth == 0:
        return await _fail(shell, io, "return: can only `return' from a function or sourced script", 2)
    status = _status_argument(args, shell.state.last_status)
    if status is None:
        await _fail(shell, io, f"return: {args[0]}: numeric argument required")
        status = 2
    raise FunctionReturn(status)


async def _loop_control(kind: str, shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    from ..interpreter import LoopControl
    levels = 1
    if args:
        if not re.fullmatch(r"-?\d+", args[0]):
            await _fail(shell, io, f"{kind}: {args[0]}: numeric argument required")
            raise LoopControl(kind, 10 ** 9)
        levels = int(args[0])
        if levels < 1:
            return await _fail(shell, io, f"{kind}: {args[0]}: loop count out of range")
    if shell.loop_depth == 0:
        return 0  # bash: "only meaningful in a loop", status 0, nothing happens
    raise LoopControl(kind, min(levels, shell.loop_depth))


async def builtin_break(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    return await _loop_control("break", shell, args, io)


async def builtin_continue(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    return await _loop_control("continue", shell, args, io)


async def builtin_let(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    if not args:
        return await _fail(shell, io, "let: expression expected")
    value = 0
    try:
        for expression in args:
            value = arithmetic.evaluate(expression, shell.state)
    except ShellError as error:
        return await _fail(shell, io, f"let: {error.message}")
    return 0 if value != 0 else 1


async def builtin_test(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    return await _test("test", shell, args, io)


async def builtin_bracket(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    return await _test("[", shell, args, io)


async def _test(name: str, shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    try:
        return await run_test(name, args, shell.file_info, shell.is_set)
    except TestSyntaxError as error:
        return await _fail(shell, io, error.message, 2)


_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)([smhd]?)")
_SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


async def builtin_sleep(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    """GNU sleep's operands (`1`, `0.5`, `2m`, summed), bounded by the run's deadline."""
    if not args:
        return await _fail(shell, io, "sleep: missing operand")
    total = 0.0
    for arg in args:
        match = _DURATION.fullmatch(arg)
        if not match:
            await io.error(f"sleep: invalid time interval '{arg}'")
            return 1
        total += float(match.group(1)) * _SECONDS[match.group(2)]
    remaining = shell.budget.seconds_to_next_stop()
    if total > remaining:
        await _sleep(shell, remaining + 0.001)
        shell.budget.check_time()  # a `timeout` around it ran out, or the run's deadline
        raise LimitExceeded(f"sleep {' '.join(args)} would pass the run's deadline")
    await _sleep(shell, total)
    return 0


# How often a sleep looks at the host's cancel flag: interrupt() sets it while Python waits
# (no signal reaches a sleeping interpreter), so this is how long a sleep takes to stop.
_CANCEL_POLL_SECONDS = 0.05


async def _sleep(shell: "Interpreter", seconds: float) -> None:
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        await asyncio.sleep(min(left, _CANCEL_POLL_SECONDS))
        if shell.budget.cancelled():
            shell.budget.check_time()


async def builtin_wait(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    return 0  # nothing runs in the background here


async def builtin_trap(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    """`trap 'cmd' EXIT` runs cmd when the run ends, `trap 'cmd' ERR` after a command that
    fails where `set -e` would stop (not inside functions or subshells); signal traps never
    fire here."""
    if not args or args[0] in ("-l", "-p"):
        return 0
    if len(args) == 1:
        return 0
    action, signals = args[0], args[1:]
    for signal in signals:
        if signal.upper() in ("EXIT", "0"):
            shell.state.exit_trap = action if action not in ("-", "") else None
        elif signal.upper() == "ERR":
            shell.state.err_trap = action if action not in ("-", "") else None
    return 0


BUILTINS = {"true": builtin_true, ":": builtin_true, "false": builtin_false, "exit": builtin_exit,
            "return": builtin_return, "break": builtin_break, "continue": builtin_continue,
            "let": builtin_let, "test": builtin_test, "[": builtin_bracket, "sleep": builtin_sleep,
            "wait": builtin_wait, "trap": builtin_trap}
