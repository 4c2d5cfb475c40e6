"""yes: a line (`y` or the operands) repeated until the reader stops, in growing batches."""
from __future__ import annotations

from ...result import CommandResult, encode_text, err
from ...streams import yield_now
from ..lines import BATCH, with_stream
from ..options import usage_failure
from ..spec import CommandContext, CommandIO, CommandSpec
from ._generators import CANCELLED_STATUS, FIRST_BATCH


YES_USAGE = "yes [STRING...]"


def yes_line(args: list[str]) -> bytes:
    """The line yes repeats: its operands joined by spaces, or `y`. GNU reads options
    anywhere before `--`; only --help exists."""
    words: list[str] = []
    ended = False
    for arg in args:
        if not ended and arg == "--":
            ended = True
        elif not ended and arg.startswith("--"):
            raise usage_failure("yes", f"unrecognized option '{arg}'", YES_USAGE)
        elif not ended and arg.startswith("-") and arg != "-":
            raise usage_failure("yes", f"invalid option -- '{arg[1]}'", YES_USAGE)
        else:
            words.append(arg)
    return encode_text(" ".join(words) if words else "y") + b"\n"


def cmd_yes(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    yes_line(args)  # bad options are reported as such
    return err("yes: its output never ends: pipe it into a command that stops reading, "
               "e.g. yes | head -n 3")


async def stream_yes(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    line = yes_line(args)
    size = FIRST_BATCH
    while not ctx.cancelled():
        await io.stdout.write(line * max(1, size // len(line)))  # BrokenPipe ends it once the reader is gone
        await yield_now()
        size = min(2 * size, BATCH)
    return CANCELLED_STATUS


YES = with_stream(CommandSpec(
    name="yes",
    summary="Repeat a line (default `y`) until the reader stops reading.",
    usage=YES_USAGE,
    details=("Prints its arguments joined by spaces, or `y`, on line after line, as GNU yes; the "
             "output never ends, so pipe it into a command that stops (head) to answer prompts or "
             "make test input.\n"
             "Examples:\n  yes | head -n 3\n  yes no | head -n 2\n  yes 'a,b' | head -n 1000 | write /tmp/rows.csv"),
    group="text", handler=cmd_yes,
    accepts_stdin=False, min_args=0, max_args=None, conformance_args=("x",), kind="read",
), stream_yes)


COMMANDS = [YES]
