"""grep's command line, read as GNU grep reads it.

Options may be clustered (`-in`, `-A2`, `-C1`, `-5`), may follow operands, and `--`
ends them. The first operand is the pattern unless `-e`/`-f` gave patterns.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from .options import ArgReader, read_options, unknown_option, usage_failure
from .spec import CommandFailed

GREP_USAGE = "grep [-i] [-v] [-c] [-n] [-F] [-E] [-o] [-w] [-x] [-q] <pattern> [path]"

# short flag -> (attribute, value)
_FLAGS = {
    "i": ("ignore_case", True), "y": ("ignore_case", True), "v": ("invert", True),
    "c": ("count", True), "n": ("line_numbers", True), "o": ("only_matching", True),
    "w": ("word", True), "x": ("line", True), "q": ("quiet", True), "s": ("no_messages", True),
    "r": ("recursive", True), "R": ("recursive", True), "l": ("files_with_matches", True),
    "L": ("files_without_match", True), "h": ("with_filename", False), "H": ("with_filename", True),
    "a": ("binary", "text"), "I": ("binary", "skip"),
    "F": ("mode", "fixed"), "E": ("mode", "extended"), "G": ("mode", "basic"),
}
_VALUES = "efmABC"
_LONG_FLAGS = {
    "ignore-case": "i", "invert-match": "v", "count": "c", "line-number": "n", "only-matching": "o",
    "word-regexp": "w", "line-regexp": "x", "quiet": "q", "silent": "q", "no-messages": "s",
    "recursive": "r", "dereference-recursive": "R", "files-with-matches": "l",
    "files-without-match": "L", "no-filename": "h", "with-filename": "H", "text": "a",
    "fixed-strings": "F", "extended-regexp": "E", "basic-regexp": "G",
}
_LONG_VALUES = {"regexp": "e", "file": "f", "max-count": "m", "after-context": "A",
                "before-context": "B", "context": "C"}
_LONG_LISTS = {"include": "include", "exclude": "exclude", "exclude-dir": "exclude_dir"}
_IGNORED = {"color", "colour", "line-buffered", "no-group-separator"}


@dataclass
class GrepOptions:
    patterns: list[str] = field(default_factory=list)
    pattern_files: list[str] = field(default_factory=list)
    mode: str = "basic"
    ignore_case: bool = False
    invert: bool = False
    count: bool = False
    line_numbers: bool = False
    only_matching: bool = False
    word: bool = False
    line: bool = False
    quiet: bool = False
    no_messages: bool = False
    recursive: bool = False
    files_with_matches: bool = False
    files_without_match: bool = False
    with_filename: bool | None = None
    binary: str = "match"  # "match" (GNU's note), "text" (-a), "skip" (-I)
    max_count: int | None = None
    after: int | None = None  # set (even to 0) by -A/-C/-NUM: context mode, `--` separators
    before: int | None = None
    group_separator: str | None = "--"
    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    exclude_dir: list[str] = field(default_factory=list)
    operands: list[str] = field(default_factory=list)

    @property
    def context(self) -> bool:
        return self.after is not None or self.before is not None


def _fail(message: str) -> CommandFailed:
    return usage_failure("grep", message, GREP_USAGE)


def parse_grep_args(args: list[str]) -> GrepOptions:
    options = GrepOptions()
    options.operands = read_options(args, partial(_long, options), partial(_cluster, options)).operands
    if not options.patterns and not options.pattern_files:
        if not options.operands:
            raise _fail("missing pattern")
        options.patterns.append(options.operands.pop(0))
    return options


def _cluster(options: GrepOptions, arg: str, reader: ArgReader) -> None:
    position = 1
    while position < len(arg):
        letter = arg[position]
        position += 1
        if letter.isdigit():  # -NUM is -C NUM
            end = position
            while end < len(arg) and arg[end].isdigit():
                end += 1
            options.after = options.before = int(arg[position - 1:end])
            position = end
        elif letter in _VALUES:
            value = reader.value(arg[position:] or None, _fail(f"missing value for -{letter}"))
            _set_value(options, letter, value, f"-{letter}")
            return
        elif letter in _FLAGS:
            name, value = _FLAGS[letter]
            setattr(options, name, value)
        elif letter == "P":
            raise _fail("-P (Perl regex) is not supported; use -E (write [0-9] for \\d)")
        else:
            raise unknown_option("grep", f"-{letter}", GREP_USAGE)


def _long(options: GrepOptions, arg: str, reader: ArgReader) -> None:
    name, has_value, value = arg[2:].partition("=")
    if name in _IGNORED:
        if name == "no-group-separator":
            options.group_separator = None
    elif name in _LONG_FLAGS and not has_value:
        attribute, setting = _FLAGS[_LONG_FLAGS[name]]
        setattr(options, attribute, setting)
    elif name in _LONG_VALUES or name in _LONG_LISTS or name == "group-separator":
        value = reader.value(value if has_value else None, _fail(f"missing value for --{name}"))
        if name in _LONG_LISTS:
            getattr(options, _LONG_LISTS[name]).append(value)
        elif name == "group-separator":
            options.group_separator = value
        else:
            _set_value(options, _LONG_VALUES[name], value, f"--{name}")
    else:
        raise unknown_option("grep", arg, GREP_USAGE)


def _set_value(options: GrepOptions, letter: str, value: str, flag: str) -> None:
    if letter == "e":
        options.patterns.append(value)
    elif letter == "f":
        options.pattern_files.append(value)
    else:
        number = _count(value, flag)
        if letter == "m":
            options.max_count = number
        elif letter in "AC":
            options.after = number
        if letter in "BC":
            options.before = number


def _count(value: str, flag: str) -> int:
    text = value.strip()
    if not (text.isascii() and text.isdigit()):
        raise _fail(f"invalid number for {flag}: {value}")
    return int(text)
