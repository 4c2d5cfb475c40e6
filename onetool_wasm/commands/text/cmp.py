"""cmp: the first differing byte of two files (`-l -b -s -i -n`), GNU's texts and exit codes."""
from __future__ import annotations

from ...result import CommandResult
from ..helpers import FS_ERRORS
from ..options import usage_failure
from ..spec import CommandContext, CommandFailed, CommandSpec
from ..getopt import NONE, OPTIONAL, REQUIRED, gnu_getopt, result_of
from ._two_files import read_two


CMP_USAGE = "cmp [-b] [-l] [-s] [-i SKIP] [-n LIMIT] FILE1 [FILE2 [SKIP1 [SKIP2]]]"


_CMP_LONG = {"print-bytes": ("b", NONE), "verbose": ("l", NONE), "quiet": ("s", NONE), "silent": ("s", NONE),
             "ignore-initial": ("i", REQUIRED), "bytes": ("n", REQUIRED), "help": ("help", NONE),
             "version": ("version", OPTIONAL)}


TROUBLE = 2


_SUFFIXES = {"": 1, "kB": 1000, "K": 1024, "KiB": 1024, "MB": 10**6, "M": 1 << 20, "MiB": 1 << 20,
             "GB": 10**9, "G": 1 << 30, "GiB": 1 << 30}


def _cmp_number(text: str, what: str) -> int:
    digits = text.rstrip("kKMGiB")
    suffix = text[len(digits):]
    if not (digits.isdigit() and digits.isascii()) or suffix not in _SUFFIXES:
        raise usage_failure("cmp", f"invalid {what} '{text}'", CMP_USAGE, TROUBLE)
    return min(int(digits) * _SUFFIXES[suffix], 1 << 62)


def shown_byte(byte: int) -> str:
    """How cmp -b shows a byte: printable as is, control as ^X, high bytes as M-x."""
    prefix = ""
    if byte >= 128:
        prefix, byte = "M-", byte - 128
    if byte < 32:
        return f"{prefix}^{chr(byte + 64)}"
    if byte == 127:
        return f"{prefix}^?"
    return prefix + chr(byte)


async def cmd_cmp(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    try:
        raw, paths = gnu_getopt("cmp", CMP_USAGE, args, "bli:n:s", _CMP_LONG)
    except CommandFailed as failure:
        raise CommandFailed(result_of(b"", [failure.result.stderr], TROUBLE)) from None
    verbose = print_bytes = silent = False
    skips, limit = [0, 0], None
    for key, value in raw:
        if key == "b":
            print_bytes = True
        elif key == "l":
            verbose = True
        elif key == "s":
            silent = True
        elif key == "i":
            first, _, second = (value or "").partition(":")
            skips = [_cmp_number(first, "--ignore-initial value"), _cmp_number(second or first, "--ignore-initial value")]
        elif key == "n":
            limit = _cmp_number(value or "", "--bytes value")
        else:
            raise usage_failure("cmp", f"--{key} is not supported", CMP_USAGE, TROUBLE)
    if not paths:
        raise usage_failure("cmp", "missing operand after 'cmp'", CMP_USAGE, TROUBLE)
    if len(paths) > 4:
        raise usage_failure("cmp", f"extra operand '{paths[4]}'", CMP_USAGE, TROUBLE)
    for index, extra in enumerate(paths[2:4]):
        skips[index] = _cmp_number(extra, "--ignore-initial value")
    names = [paths[0], paths[1] if len(paths) > 1 else "-"]
    try:
        left, right = await read_two(ctx, "cmp", names, stdin, TROUBLE)
    except FS_ERRORS as error:  # pragma: no cover - read_operand words these
        raise CommandFailed(result_of(b"", [f"cmp: {error}"], TROUBLE)) from None
    left, right = left[skips[0]:], right[skips[1]:]
    if limit is not None:
        left, right = left[:limit], right[:limit]
    return compare(names, left, right, verbose, print_bytes, silent)


def compare(names: list[str], left: bytes, right: bytes, verbose: bool, print_bytes: bool,
            silent: bool) -> CommandResult:
    common = min(len(left), len(right))
    first = next((index for index in range(common) if left[index] != right[index]), None)
    if first is None and len(left) == len(right):
        return result_of(b"", [], 0)
    if silent:
        return result_of(b"", [], 1)
    if verbose:
        return _verbose(names, left, right, print_bytes)
    if first is not None:
        line = left[:first].count(b"\n") + 1
        text = f"{names[0]} {names[1]} differ: {'byte' if print_bytes else 'char'} {first + 1}, line {line}"
        if print_bytes:
            text += (f" is {left[first]:3o} {shown_byte(left[first])} "
                     f"{right[first]:3o} {shown_byte(right[first])}")
        return result_of((text + "\n").encode("utf-8"), [], 1)
    return result_of(b"", [_eof_message(names, left, right, with_line=True)], 1)


def _eof_message(names: list[str], left: bytes, right: bytes, with_line: bool) -> str:
    shorter = 0 if len(left) < len(right) else 1
    data = (left, right)[shorter]
    if not data:
        return f"cmp: EOF on {names[shorter]} which is empty"
    where = f"after byte {len(data)}"
    if with_line:
        line = data[:-1].count(b"\n") + 1
        where += f", line {line}"
    return f"cmp: EOF on {names[shorter]} {where}"


def _verbose(names: list[str], left: bytes, right: bytes, print_bytes: bool) -> CommandResult:
    common = min(len(left), len(right))
    width = len(str(common)) if common else 1
    lines = []
    for index in range(common):
        a, b = left[index], right[index]
        if a == b:
            continue
        if print_bytes:
            lines.append(f"{index + 1:>{width}} {a:3o} {shown_byte(a):<4} {b:3o} {shown_byte(b)}")
        else:
            lines.append(f"{index + 1:>{width}} {a:3o} {b:3o}")
    out = "".join(line + "\n" for line in lines).encode("utf-8")
    errors = [_eof_message(names, left, right, with_line=False)] if len(left) != len(right) else []
    return result_of(out, errors, 1)


CMP = CommandSpec(
    name="cmp",
    summary="Compare two files byte by byte, as GNU cmp.",
    usage=CMP_USAGE,
    details=("Says where FILE1 and FILE2 (default stdin) first differ, or on which one EOF came first. "
             "-l: every differing byte (offset, octal values); -b: show the bytes too; -s: no output, "
             "only the status; -i SKIP[:SKIP2]: skip leading bytes; -n N: compare at most N bytes. Exit "
             "status 0: same, 1: different, 2: trouble.\n"
             "Examples:\n  cmp a.bin b.bin\n  cmp -s a.txt b.txt && echo same\n  cmp -l old.dat new.dat | head"),
    group="text", handler=cmd_cmp,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-", "/dev/null"), kind="read",
    usage_exit_code=2,
)


COMMANDS = [CMP]
