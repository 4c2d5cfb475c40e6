"""md5sum, sha1sum, sha256sum and sha512sum: print or check message digests, as GNU
coreutils does.

`HASH  NAME` per file (`-` or none: stdin), `--tag` for BSD lines, `-z` to end them with
NUL. -c reads such lines from the FILEs (or stdin) and says `NAME: OK` or `NAME: FAILED`
for each, with GNU's warnings; --quiet drops the OKs, --status all output, --strict fails
on malformed lines, --ignore-missing skips files that do not exist.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from ...result import CommandResult
from ..spec import CommandContext, CommandFailed, CommandSpec
from ..getopt import NONE, OperandError, gnu_getopt, read_operand, result_of

_LONG = {"binary": ("b", NONE), "check": ("c", NONE), "tag": ("tag", NONE), "text": ("t", NONE),
         "zero": ("z", NONE), "ignore-missing": ("ignore-missing", NONE), "quiet": ("quiet", NONE),
         "status": ("status", NONE), "strict": ("strict", NONE), "warn": ("w", NONE)}
ALGORITHMS = {"md5sum": ("md5", "MD5", 32), "sha1sum": ("sha1", "SHA1", 40),
              "sha256sum": ("sha256", "SHA256", 64), "sha512sum": ("sha512", "SHA512", 128)}


@dataclass
class SumOptions:
    check: bool = False
    binary: bool = False
    tag: bool = False
    zero: bool = False
    quiet: bool = False
    status: bool = False
    strict: bool = False
    warn: bool = False
    ignore_missing: bool = False


def usage_of(command: str) -> str:
    return f"{command} [-c] [--tag] [-z] [--quiet] [--status] [--strict] [FILE...]"


def parse_sum(command: str, args: list[str]) -> tuple[SumOptions, list[str]]:
    raw, paths = gnu_getopt(command, usage_of(command), args, "bctwz", _LONG)
    options = SumOptions()
    for key, _ in raw:
        if key == "b":
            options.binary = True
        elif key == "t":
            options.binary = False
        elif key == "c":
            options.check = True
        elif key == "w":
            options.warn = True
        elif key == "z":
            options.zero = True
        else:
            setattr(options, key.replace("-", "_"), True)
    return options, paths


def digest(command: str, data: bytes) -> str:
    return hashlib.new(ALGORITHMS[command][0], data).hexdigest()


def _escaped(name: str) -> tuple[str, str]:
    """GNU's escaping of a name holding a backslash or newline: (prefix, name)."""
    if "\\" in name or "\n" in name or "\r" in name:
        return "\\", name.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
    return "", name


def sum_line(command: str, name: str, value: str, options: SumOptions) -> str:
    prefix, shown = _escaped(name) if not options.zero else ("", name)
    if options.tag:
        return f"{prefix}{ALGORITHMS[command][1]} ({shown}) = {value}"
    return f"{prefix}{value} {'*' if options.binary else ' '}{shown}"


async def cmd_sum(ctx: CommandContext, command: str, args: list[str], stdin: bytes) -> CommandResult:
    options, paths = parse_sum(command, args)
    if options.check:
        return await check(ctx, command, paths, stdin, options)
    end = "\0" if options.zero else "\n"
    out: list[str] = []
    errors: list[str] = []
    for path in paths or ["-"]:
        try:
            data = await read_operand(ctx, command, path, stdin)
        except OperandError as error:
            errors.append(str(error))
            continue
        out.append(sum_line(command, path, digest(command, data), options) + end)
    return result_of("".join(out).encode("utf-8", "surrogateescape"), errors)


_PLAIN = re.compile(r"(\\?)([0-9a-fA-F]+) [ *](.*)", re.DOTALL)
_TAGGED = re.compile(r"(\\?)([A-Z0-9-]+) \((.*)\) = ([0-9a-fA-F]+)", re.DOTALL)


def parse_check_line(command: str, line: str) -> tuple[str, str] | None:
    """(expected digest, file name) of a checksum line, None when it is not one."""
    algorithm, tag, size = ALGORITHMS[command]
    match = _TAGGED.fullmatch(line)
    if match and match.group(2) == tag:
        escaped, name, value = match.group(1), match.group(3), match.group(4)
    else:
        match = _PLAIN.fullmatch(line)
        if not match:
            return None
        escaped, value, name = match.group(1), match.group(2), match.group(3)
    if len(value) != size or not name:
        return None
    if escaped:
        name = re.sub(r"\\(.)", lambda m: {"n": "\n", "r": "\r", "\\": "\\"}.get(m.group(1), m.group(0)), name)
    return value.lower(), name


@dataclass
class CheckCounts:
    malformed: int = 0
    unreadable: int = 0
    mismatched: int = 0
    matched: int = 0


async def check(ctx: CommandContext, command: str, paths: list[str], stdin: bytes,
                options: SumOptions) -> CommandResult:
    out: list[str] = []
    errors: list[str] = []
    failed = False
    for path in paths or ["-"]:
        try:
            listing = await read_operand(ctx, command, path, stdin)
        except OperandError as error:
            errors.append(str(error))
            failed = True
            continue
        counts = CheckCounts()
        lines = listing.decode("utf-8", "surrogateescape").split("\n")
        if lines[-1] == "":
            lines.pop()
        for number, line in enumerate(lines, 1):
            await _check_line(ctx, command, path, number, line, options, counts, out, errors)
        failed |= _summary(command, path, counts, options, errors)
    if options.status:  # the status only: no OK/FAILED lines, no closing warnings
        out = []
        errors = [line for line in errors if ": WARNING: " not in line]
    return result_of("".join(out).encode("utf-8", "surrogateescape"), errors, 1 if failed else 0)


async def _check_line(ctx: CommandContext, command: str, listing: str, number: int, line: str,
                      options: SumOptions, counts: CheckCounts, out: list[str], errors: list[str]) -> None:
    parsed = parse_check_line(command, line.rstrip("\r"))
    if parsed is None:
        counts.malformed += 1
        if options.warn:
            errors.append(f"{command}: {listing}: {number}: improperly formatted "
                          f"{ALGORITHMS[command][1]} checksum line")
        return
    expected, name = parsed
    try:
        data = await read_operand(ctx, command, name, b"")
    except (OperandError, CommandFailed) as error:  # a listed file that cannot be read
        message = str(error) if isinstance(error, OperandError) else error.result.stderr
        if options.ignore_missing and "No such file" in message:
            return
        counts.unreadable += 1
        errors.append(message)
        out.append(f"{name}: FAILED open or read\n")
        return
    counts.matched += 1
    if digest(command, data) == expected:
        if not options.quiet:
            out.append(f"{name}: OK\n")
    else:
        counts.mismatched += 1
        out.append(f"{name}: FAILED\n")


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _summary(command: str, listing: str, counts: CheckCounts, options: SumOptions, errors: list[str]) -> bool:
    """GNU's closing warnings; True when the check failed."""
    if counts.matched == 0 and counts.unreadable == 0:
        errors.append(f"{command}: {'standard input' if listing == '-' else listing}: "
                      "no properly formatted checksum lines found")
        return True
    if counts.malformed:
        errors.append(f"{command}: WARNING: "
                      + _plural(counts.malformed, "line is improperly formatted", "lines are improperly formatted"))
    if counts.unreadable:
        errors.append(f"{command}: WARNING: "
                      + _plural(counts.unreadable, "listed file could not be read", "listed files could not be read"))
    if counts.mismatched:
        errors.append(f"{command}: WARNING: "
                      + _plural(counts.mismatched, "computed checksum did NOT match", "computed checksums did NOT match"))
    return bool(counts.unreadable or counts.mismatched or (options.strict and counts.malformed))


def _spec(command: str) -> CommandSpec:
    label = ALGORITHMS[command][1]

    async def handler(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
        return await cmd_sum(ctx, command, args, stdin)

    return CommandSpec(
        name=command,
        summary=f"Print or check {label} digests of files, as GNU {command}.",
        usage=usage_of(command),
        details=(f"Prints `DIGEST  NAME` for every FILE (`-` or none: stdin). -c FILE: read such lines and "
                 f"check each file (`NAME: OK` / `NAME: FAILED`, exit 1 if any failed); --quiet: no OK lines; "
                 f"--status: no output; --strict: malformed lines fail; --tag: BSD-style lines.\n"
                 f"Examples:\n  {command} /data/report.csv\n  {command} *.txt > sums\n  {command} -c sums\n"
                 f"  printf 'abc' | {command}"),
        group="text", handler=handler,
        accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-",), kind="read",
    )


COMMANDS = [_spec(name) for name in ALGORITHMS]
