"""What comm, join and cmp share: two FILE operands (one may be `-`), read whole, cut into records."""
from __future__ import annotations

from dataclasses import dataclass, field
from ..options import usage_failure
from ..spec import CommandContext, CommandFailed
from ..getopt import OperandError, read_operand, result_of


ASCII_FOLD = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def records_of(data: bytes, end: bytes) -> list[bytes]:
    records = data.split(end)
    if records[-1] == b"":
        records.pop()
    return records


def two_operands(command: str, usage: str, paths: list[str]) -> None:
    if not paths:
        raise usage_failure(command, "missing operand", usage)
    if len(paths) == 1:
        raise usage_failure(command, f"missing operand after '{paths[0]}'", usage)
    if len(paths) > 2:
        raise usage_failure(command, f"extra operand '{paths[2]}'", usage)


async def read_two(ctx: CommandContext, command: str, paths: list[str], stdin: bytes,
                   status: int = 1) -> tuple[bytes, bytes]:
    """Both operands' bytes; the first that cannot be read ends the command."""
    try:
        first = await read_operand(ctx, command, paths[0], stdin)
        second = await read_operand(ctx, command, paths[1], b"" if paths[0] == "-" else stdin)
    except OperandError as error:
        raise CommandFailed(result_of(b"", [str(error)], status)) from None
    return first, second


@dataclass
class Order:
    """GNU's order check: off, on (fatal), or by default only once lines went unpaired."""
    mode: str = "default"
    seen_unpairable: bool = False
    warned: list[bool] = field(default_factory=lambda: [False, False])
    errors: list[str] = field(default_factory=list)

    def active(self) -> bool:
        return self.mode == "on" or (self.mode == "default" and self.seen_unpairable)

