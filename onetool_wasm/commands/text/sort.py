"""sort: GNU sort in the C locale: byte order, keys (`-k POS1[,POS2]` with per-key modifiers),
`-t SEP`, numeric/human/general/month/version orders, `-u`, `-s`, `-c`, `-o`.

Order is built as GNU defines it: keys compared in turn (each possibly reversed), then,
unless -s or -u, the whole line in byte order as the last resort. Python's sort is stable,
so sorting by the last resort first and then by each key from last to first gives exactly
that lexicographic order, each pass with its own direction.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Callable, Sequence

from ...result import TEXT, CommandResult, ok_bytes
from ...vfs.errors import VFSError
from ..helpers import fail, format_vfs_error
from ..lines import ASCII_UPPER, join_records, read_inputs, split_records
from ..options import OptionSpec, getopt
from ..spec import CommandContext, CommandFailed, CommandSpec
from ..versionsort import VersionKey

USAGE = "sort [-r] [-n] [-u] [-f] [-V] [path]"
_ORDERINGS = "bdfghiMnRrV"
_OPTIONS = OptionSpec(
    "sort", USAGE, flags="bcCdfghiMmnrsuVRz", values="ktoST",
    long={"reverse": "r", "numeric-sort": "n", "unique": "u", "ignore-case": "f", "version-sort": "V",
          "human-numeric-sort": "h", "general-numeric-sort": "g", "month-sort": "M", "stable": "s",
          "ignore-leading-blanks": "b", "dictionary-order": "d", "ignore-nonprinting": "i",
          "key": "k", "field-separator": "t", "output": "o", "buffer-size": "S", "temporary-directory": "T",
          "check": "c", "merge": "m", "zero-terminated": "z", "random-sort": "R"})
_BLANKS = b" \t"
_NOT_DICTIONARY = bytes(b for b in range(256) if not (chr(b).isascii() and chr(b).isalnum()) and b not in _BLANKS)
_NOT_PRINTING = bytes(b for b in range(256) if not 0x20 <= b <= 0x7E)
_MONTHS = {name: index for index, name in enumerate(
    (b"JAN", b"FEB", b"MAR", b"APR", b"MAY", b"JUN", b"JUL", b"AUG", b"SEP", b"OCT", b"NOV", b"DEC"), 1)}
_UNITS = {ord(u): i for i, u in enumerate("KMGTPEZYRQ", 1)} | {ord("k"): 1}


@dataclass
class Key:
    """One sort key. Fields and characters are 0-based; None means the line's start/end."""
    sword: int | None = None
    schar: int = 0
    eword: int | None = None
    echar: int = 0
    skip_start: bool = False
    skip_end: bool = False
    ignore: bytes | None = None
    fold: bool = False
    modes: str = ""  # letters of n g h M V given (GNU refuses most mixes; see check_compatible)
    reverse: bool = False

    def has_ordering(self) -> bool:
        return bool(self.skip_start or self.skip_end or self.ignore or self.fold or self.modes)

    @property
    def mode(self) -> str:
        """The comparison GNU applies, in its precedence order ("" is plain bytes)."""
        return next((letter for letter in "nghMVR" if letter in self.modes), "")


@dataclass
class SortOptions:
    glob: Key = field(default_factory=Key)
    keys: list[Key] = field(default_factory=list)
    tab: int | None = None
    unique: bool = False
    stable: bool = False
    check: str = ""  # "", "c" (report), "C" (quiet)
    output: str | None = None
    eol: bytes = b"\n"  # -z: NUL-ended records
    paths: list[str] = field(default_factory=list)


# ------------------------------------------------------------------ options

def apply_ordering(key: Key, letters: str, at_end: bool = False) -> None:
    """Apply GNU ordering letters (`-n`, or the `n` of `-k2,2n`) to a key."""
    for letter in letters:
        if letter == "b":
            if at_end:
                key.skip_end = True
            else:
                key.skip_start = True
        elif letter == "d":
            key.ignore = _NOT_DICTIONARY
        elif letter == "i":
            key.ignore = key.ignore or _NOT_PRINTING
        elif letter == "f":
            key.fold = True
        elif letter == "r":
            key.reverse = True
        elif letter in "nghMVR" and letter not in key.modes:
            key.modes += letter


def check_compatible(key: Key) -> None:
    """GNU: at most one of -n, -g, -h, -M and (-V or -d or -i) in one key."""
    clashes = sum(letter in key.modes for letter in "nghM") + bool("V" in key.modes or key.ignore)
    if clashes > 1:
        letters = "".join(letter for letter, present in (
            ("d", key.ignore == _NOT_DICTIONARY), ("f", key.fold), ("g", "g" in key.modes),
            ("h", "h" in key.modes), ("i", key.ignore == _NOT_PRINTING), ("M", "M" in key.modes),
            ("n", "n" in key.modes), ("V", "V" in key.modes)) if present)
        raise fail(f"sort: options '-{letters}' are incompatible. Usage: {USAGE}")


_POS = re.compile(r"([0-9]+)(?:\.([0-9]+))?([a-zA-Z]*)")


def parse_key(spec: str) -> Key:
    """`F[.C][OPTS][,F[.C][OPTS]]` as GNU reads it, with GNU's messages."""
    def bad(reason: str) -> CommandFailed:
        return fail(f"sort: {reason}: invalid field specification '{spec}'. Usage: {USAGE}")

    start, comma, end = spec.partition(",")
    match = _POS.fullmatch(start)
    if not match:
        raise fail(f"sort: invalid number at field start: invalid count at start of '{spec}'. Usage: {USAGE}")
    key = Key()
    field_no, char_no, letters = match.groups()
    if int(field_no) == 0:
        raise bad("field number is zero")
    if char_no is not None and int(char_no) == 0:
        raise bad("character offset is zero")
    if set(letters) - set(_ORDERINGS):
        raise bad("stray character in field spec")
    key.sword, key.schar = int(field_no) - 1, int(char_no or 1) - 1
    apply_ordering(key, letters)
    if comma:
        match = _POS.fullmatch(end)
        if not match:
            raise fail(f"sort: invalid number after ',': invalid count at start of '{end}'. Usage: {USAGE}")
        field_no, char_no, letters = match.groups()
        if int(field_no) == 0:
            raise bad("field number is zero")
        if set(letters) - set(_ORDERINGS):
            raise bad("stray character in field spec")
        key.eword, key.echar = int(field_no) - 1, int(char_no or 0)
        apply_ordering(key, letters, at_end=True)
    return key


def parse_tab(value: str) -> int:
    if value == "\\0":
        return 0
    data = value.encode("utf-8")
    if not data:
        raise fail(f"sort: empty tab. Usage: {USAGE}")
    if len(data) > 1:
        raise fail(f"sort: multi-character tab '{value}'. Usage: {USAGE}")
    return data[0]


def parse_options(args: Sequence[str]) -> SortOptions:
    parsed, paths = getopt(_OPTIONS, args)
    options = SortOptions(paths=paths)
    for name, value in parsed:
        if name == "k":
            options.keys.append(parse_key(value or ""))
        elif name == "t":
            options.tab = parse_tab(value or "")
        elif name == "o":
            options.output = value
        elif name in "cC":
            options.check = name
        elif name in "us":
            options.unique = options.unique or name == "u"
            options.stable = options.stable or name == "s"
        elif name == "z":
            options.eol = b"\0"
        elif name == "m":  # inputs already sorted: sorting them all gives the same merge
            pass
        elif name not in "ST":  # buffer size and temporary directory mean nothing here
            apply_ordering(options.glob, name)
            options.glob.skip_end = options.glob.skip_end or name == "b"  # global -b: both ends
    if options.check and len(paths) > 1:
        raise fail(f"sort: extra operand '{paths[1]}' not allowed with -c. Usage: {USAGE}")
    _inherit(options)
    return options


def _inherit(options: SortOptions) -> None:
    """GNU: a key without ordering options (and without r) takes the global ones."""
    for index, key in enumerate(options.keys):
        if not key.has_ordering() and not key.reverse:
            glob = options.glob
            options.keys[index] = replace(key, skip_start=glob.skip_start, skip_end=glob.skip_end,
                                          ignore=glob.ignore, fold=glob.fold, modes=glob.modes,
                                          reverse=glob.reverse)
    if not options.keys and options.glob.has_ordering():
        options.keys.append(replace(options.glob))
    for key in options.keys:
        check_compatible(key)


# ------------------------------------------------------------------ key extraction

def _skip_blanks(line: bytes, pos: int, limit: int) -> int:
    while pos < limit and line[pos] in _BLANKS:
        pos += 1
    return pos


def _skip_field(line: bytes, pos: int, limit: int) -> int:
    """Past one blank-separated field (its leading blanks included)."""
    pos = _skip_blanks(line, pos, limit)
    while pos < limit and line[pos] not in _BLANKS:
        pos += 1
    return pos


def key_start(line: bytes, key: Key, tab: int | None) -> int:
    limit = len(line)
    pos = 0
    for _ in range(key.sword or 0):
        if pos >= limit:
            break
        if tab is None:
            pos = _skip_field(line, pos, limit)
        else:
            found = line.find(tab, pos)
            pos = limit if found < 0 else found + 1
    if key.skip_start:
        pos = _skip_blanks(line, pos, limit)
    return min(limit, pos + key.schar)


def key_end(line: bytes, key: Key, tab: int | None) -> int:
    limit = len(line)
    if key.eword is None:
        return limit
    words = key.eword + (0 if key.echar else 1)
    pos = 0
    while pos < limit and words > 0:
        words -= 1
        if tab is None:
            pos = _skip_field(line, pos, limit)
        else:
            found = line.find(tab, pos)
            pos = limit if found < 0 else found
            if pos < limit and (words or key.echar):
                pos += 1
    if key.echar:
        if key.skip_end:
            pos = _skip_blanks(line, pos, limit)
        pos = min(limit, pos + key.echar)
    return pos


_NUMBER = re.compile(rb"[ \t]*(-?)([0-9]*)(?:\.([0-9]*))?")
_FLOAT = re.compile(rb"\s*([+-]?(?:0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan))",
                    re.IGNORECASE)


def numeric_value(text: bytes) -> Decimal:
    """GNU -n: optional blanks, '-', digits, '.', digits; anything else reads as 0."""
    sign, whole, fraction = _NUMBER.match(text).groups()
    return Decimal(f"{sign.decode()}{whole.decode() or '0'}.{(fraction or b'').decode() or '0'}")


def human_value(text: bytes) -> tuple[int, Decimal]:
    """GNU -h: the unit (K, M, G ...) orders first, then the number; zero has no unit."""
    match = _NUMBER.match(text)
    number = numeric_value(text)
    suffix = text[match.end():match.end() + 1]
    order = _UNITS.get(suffix[0], 0) if suffix and number != 0 else 0
    return (-order if match.group(1) else order), number


def general_value(text: bytes) -> tuple[Any, ...]:
    """GNU -g: unparsable first, then NaN, then numbers."""
    match = _FLOAT.match(text)
    if not match:
        return (0,)
    text = match.group(1).decode("ascii")
    number = float.fromhex(text) if "x" in text.lower() else float(text)
    return (1,) if number != number else (2, number)


def month_value(text: bytes) -> int:
    start = _skip_blanks(text, 0, len(text))
    return _MONTHS.get(text[start:start + 3].translate(ASCII_UPPER), 0)


_MODES: dict[str, Callable[[bytes], Any]] = {"n": numeric_value, "h": human_value, "g": general_value,
                                              "M": month_value, "V": VersionKey, "": bytes}


def key_function(key: Key, tab: int | None) -> Callable[[bytes], Any]:
    if key.mode == "R":  # GNU -R: a random hash of the key, equal keys stay together
        salt = random.getrandbits(64)
        convert: Callable[[bytes], Any] = lambda text: hash((salt, text))
    else:
        convert = _MODES[key.mode]
    whole_line = key.sword is None and key.eword is None and not key.skip_start

    def value(line: bytes) -> Any:
        if not whole_line:
            start = key_start(line, key, tab)
            line = line[start:max(start, key_end(line, key, tab))]
        if key.ignore:
            line = line.translate(None, key.ignore)
        if key.fold:
            line = line.translate(ASCII_UPPER)
        return convert(line)

    return value


# ------------------------------------------------------------------ sorting

class Sorter:
    def __init__(self, options: SortOptions, lines: list[bytes]) -> None:
        self.options = options
        self.lines = lines
        self.values = [list(map(key_function(key, options.tab), lines)) for key in options.keys]
        self.last_resort = not (options.unique or options.stable)

    def order(self) -> list[int]:
        indices = list(range(len(self.lines)))
        if self.last_resort:
            indices.sort(key=self.lines.__getitem__, reverse=self.options.glob.reverse)
        for key, values in zip(reversed(self.options.keys), reversed(self.values)):
            indices.sort(key=values.__getitem__, reverse=key.reverse)
        return indices

    def same_keys(self, i: int, j: int) -> bool:
        return all(values[i] == values[j] for values in self.values)

    def compare(self, i: int, j: int) -> int:
        for key, values in zip(self.options.keys, self.values):
            a, b = values[i], values[j]
            if a != b:
                return (1 if a > b else -1) * (-1 if key.reverse else 1)
        if not self.last_resort:
            return 0
        a, b = self.lines[i], self.lines[j]
        return ((a > b) - (a < b)) * (-1 if self.options.glob.reverse else 1)


def sorted_lines(options: SortOptions, lines: list[bytes]) -> list[bytes]:
    if not options.keys:  # plain byte order: the fast path
        if options.unique:
            return sorted(set(lines), reverse=options.glob.reverse)
        return sorted(lines, reverse=options.glob.reverse)
    sorter = Sorter(options, lines)
    out: list[bytes] = []
    previous = -1
    for index in sorter.order():
        if options.unique and previous >= 0 and sorter.same_keys(previous, index):
            continue
        out.append(lines[index])
        previous = index
    return out


_SAMPLE = 1000


def sorted_output(options: SortOptions, lines: list[bytes]) -> bytes:
    """join_records(sorted_lines(...)). Plain byte order over lines with many repeats (as a
    sample of the first ones shows) counts each distinct line and sorts those: equal lines
    are the same bytes, so that is the same output, without sorting or joining every line."""
    if (not options.keys and not options.unique and len(lines) > _SAMPLE
            and len(set(lines[:_SAMPLE])) <= _SAMPLE // 10):
        counts = Counter(lines)
        eol = options.eol
        return b"".join([(line + eol) * counts[line] for line in sorted(counts, reverse=options.glob.reverse)])
    return join_records(sorted_lines(options, lines), options.eol)


def check_order(options: SortOptions, label: str, lines: list[bytes]) -> CommandResult:
    """-c/-C: exit 1 at the first line out of order (GNU's `sort: -:N: disorder: LINE`)."""
    sorter = Sorter(options, lines) if options.keys else None
    for index in range(1, len(lines)):
        if sorter is not None:
            diff = sorter.compare(index - 1, index)
        else:
            a, b = lines[index - 1], lines[index]
            diff = ((a > b) - (a < b)) * (-1 if options.glob.reverse else 1)
        if diff > 0 or (options.unique and diff == 0):
            if options.check == "C":
                return CommandResult(exit_code=1)
            line = lines[index].decode("utf-8", errors="replace")
            return CommandResult(stderr=f"sort: {label}:{index + 1}: disorder: {line}", exit_code=1)
    return ok_bytes(b"", TEXT)


async def cmd_sort(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    try:
        return await _sort(ctx, args, stdin)
    except CommandFailed as failure:
        if ctx.grammar == "bash" and failure.result.exit_code == 1:  # GNU sort's trouble status is 2
            return replace(failure.result, exit_code=2)
        raise


async def _sort(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options = parse_options(args)
    bash = ctx.grammar == "bash"
    # The bash language sorts any bytes, as GNU does; the strict grammar refuses binary lines.
    inputs = await read_inputs(ctx, "sort", options.paths, stdin, text=not bash and options.eol == b"\n")
    lines = (split_records(inputs[0][1], options.eol) if len(inputs) == 1
             else [line for _, data in inputs for line in split_records(data, options.eol)])
    if options.check:
        return check_order(options, inputs[0][0], lines)
    output = sorted_output(options, lines)
    if options.output is None:
        return ok_bytes(output, TEXT)
    try:  # every input is read before the output is written: `-o` may name one of them
        await ctx.vfs.write_bytes(options.output, output, not bash)
    except VFSError as error:
        raise CommandFailed(await format_vfs_error(ctx, "sort", options.output, error)) from None
    return ok_bytes(b"", TEXT)


def sort_kind(args: Sequence[str]) -> str:
    """`sort -o FILE` writes; any other sort only reads."""
    try:
        return "write" if parse_options(args).output is not None else "read"
    except CommandFailed:
        return "read"


def sort_targets(args: list[str]) -> list[str]:
    """The file `sort -o FILE` replaces."""
    for index, arg in enumerate(args):
        if arg in ("-o", "--output") and index + 1 < len(args):
            return [args[index + 1]]
        if arg.startswith("--output="):
            return [arg.split("=", 1)[1]]
        if arg.startswith("-o") and len(arg) > 2:
            return [arg[2:]]
    return []


SORT = CommandSpec(
    targets=sort_targets,
    name="sort",
    summary="Sort lines from stdin or a file.",
    usage=USAGE,
    details=("Examples:\n  sort /notes/todo.txt\n  sort -f /tmp/names.txt\n  sort -V /tmp/releases.txt\n"
             "  find /config -type f | sort -r"),
    group="text", handler=cmd_sort,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind=sort_kind,
)

COMMANDS = [SORT]
