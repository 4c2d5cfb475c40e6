"""The limits every run of the shell lives within, and the error that ends a run past one.

Each limit has a default that an agent's real work never meets and a message that says
what to do instead. Hosts change them through `execution_policy` (snake_case or the
camelCase keys of the JS API).
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, fields
from typing import Any, Callable, Mapping


class LimitExceeded(Exception):
    """Ends the whole run: the message reaches the model as an [error] line."""

    def __init__(self, message: str, status: int = 124) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class ShellLimits:
    deadline_ms: int = 30_000            # wall time of one run
    max_commands: int = 1_000_000        # simple commands executed in one run
    max_loop_iterations: int = 1_000_000  # iterations of all loops in one run
    max_function_depth: int = 50         # nested function calls (Pyodide's stack is small)
    max_expansion_bytes: int = 16 << 20  # one word list, one $(...) output
    max_heredoc_bytes: int = 16 << 20    # one here-document or here-string
    max_output_bytes: int = 64 << 20     # what a run writes to its stdout or stderr
    max_source_depth: int = 32           # nested source / eval / bash script

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "ShellLimits":
        names = {f.name: f.name for f in fields(cls)}
        names.update({_camel(name): name for name in list(names)})
        values = {}
        for key, value in options.items():
            if key not in names:
                raise ValueError(f"unknown execution_policy option: {key}")
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"execution_policy.{key} must be a positive integer")
            values[names[key]] = value
        return cls(**values)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word.title() for word in rest)


class TimedOut(LimitExceeded):
    """A command's own time limit (`timeout 5 cmd`) passed: it unwinds to that `timeout`,
    which reports status 124, and the run goes on."""

    def __init__(self, deadline: float) -> None:
        super().__init__("the command's time limit passed", 124)
        self.deadline = deadline


class Budget:
    """The counters of one run, checked at every command and loop iteration."""

    def __init__(self, limits: ShellLimits, cancelled: Callable[[], bool] = lambda: False) -> None:
        self.limits = limits
        self.deadline = time.monotonic() + limits.deadline_ms / 1000
        self.commands = 0
        self.iterations = 0
        self.cancelled = cancelled
        self.depth = 0
        self.max_depth = _depth_allowance()
        self.time_limits: list[float] = []  # deadlines of the `timeout` commands running

    def remaining_seconds(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def seconds_to_next_stop(self) -> float:
        """Until the run's deadline or the nearest `timeout`'s, whichever comes first."""
        return max(0.0, min([self.deadline, *self.time_limits]) - time.monotonic())

    def stopped(self) -> bool:
        """What a command's long loop polls (`ctx.cancelled()`): the host cancelled, the
        run's deadline passed, or a `timeout` around the command ran out. The shell then
        unwinds with the reason (`check_time`)."""
        now = time.monotonic()
        return self.cancelled() or now > self.deadline or bool(self.time_limits and now > min(self.time_limits))

    def check_time(self) -> None:
        if self.cancelled():
            raise LimitExceeded("the run was cancelled", 130)
        now = time.monotonic()
        if self.time_limits and now > min(self.time_limits) and min(self.time_limits) < self.deadline:
            raise TimedOut(min(self.time_limits))
        if now > self.deadline:
            raise LimitExceeded(f"the run took longer than its {self.limits.deadline_ms / 1000:g} s limit "
                                "and was stopped. Make the command do less work (a smaller input, "
                                "`| head`), or split it into several runs.")

    def command(self) -> None:
        self.commands += 1
        if self.commands > self.limits.max_commands:
            raise LimitExceeded(f"more than {self.limits.max_commands} commands ran in one run; "
                                "a loop probably never ends. Bound the loop or split the work.")
        if self.commands % 64 == 0:
            self.check_time()

    def enter(self) -> None:
        """One level deeper in the tree of running commands (nested blocks, function calls,
        subshells). The interpreter recurses on the Python stack, so the allowance comes
        from the stack that is left, whatever the platform gives."""
        self.depth += 1
        if self.depth > self.max_depth:
            self.depth -= 1
            raise LimitExceeded("commands are nested too deeply (blocks within blocks, or functions "
                                "calling functions) for the interpreter's stack; flatten the script "
                                "or use a loop instead of recursion.")

    def leave(self) -> None:
        self.depth -= 1

    def iteration(self) -> None:
        self.iterations += 1
        if self.iterations > self.limits.max_loop_iterations:
            raise LimitExceeded(f"loops ran more than {self.limits.max_loop_iterations} iterations in one "
                                "run; check the loop's condition, or bound it.")
        if self.iterations % 64 == 0:
            self.check_time()


# Python frames one level of command nesting takes at most (a function call is the deepest).
FRAMES_PER_LEVEL = 11
# Python's default of 1000 frames allows only a few dozen levels of nesting. Measured: 8,000
# nested coroutines run on CPython 3.11 and in Pyodide 314 (Python 3.14) under Node; 4,000
# leaves room, and the e2e suite checks deep recursion in Chromium's worker too.
RECURSION_LIMIT = 4000


def _raise_recursion_limit() -> None:
    if sys.getrecursionlimit() < RECURSION_LIMIT:
        sys.setrecursionlimit(RECURSION_LIMIT)


_raise_recursion_limit()  # once, when the shell is first imported


def _depth_allowance() -> int:
    used = _stack_depth()
    return max(8, (sys.getrecursionlimit() - used - 150) // FRAMES_PER_LEVEL)


def _stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth
