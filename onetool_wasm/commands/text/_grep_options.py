"""grep's command line, read as GNU grep reads it.

Options may be clustered (`-in`, `-A2`, `-C1`, `-5`), may follow operands, and `--`
ends them. The first operand is the pattern unless `-e`/`-f` gave patterns.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from ..options import ArgReader, read_options, unknown_option, usage_failure
from ..spec import CommandFailed

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
    byte_offset: bool = False  # -b
    null_data: bool = False  # -z: lines end in NUL
    null: bool = False  # -Z: a NUL after each file name
    initial_tab: bool = False  # -T
    label: str | None = None  # --label: stdin's name
    directories: str = "read"  # -d: read (an error), skip, recurse
    version: bool = False
    gnu: bool = False  # read as GNU grep reads it (the bash language)

    @property
    def context(self) -> bool:
        return self.after is not None or self.before is not None


def _fail(message: str) -> CommandFailed:
    return usage_failure("grep", message, GREP_USAGE)


def parse_grep_args(args: list[str], grammar: str = "strict", mode: str | None = None) -> GrepOptions:
    """The options of one command line: GNU's getopt and messages in the bash language
    (`mode`: the matcher egrep/fgrep imply), upstream's in the strict grammar."""
    if grammar == "bash":
        return parse_gnu_args(args, mode)
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



# -- GNU grep's command line (the bash language) -------------------------------------------------
GNU_USAGE = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information."

_GNU_FLAGS = dict(_FLAGS, **{
    "b": ("byte_offset", True), "z": ("null_data", True), "Z": ("null", True), "T": ("initial_tab", True),
    "U": ("binary_mode", None), "u": ("binary_mode", None), "V": ("version", True),
})
_GNU_MATCHERS = {"E": "extended", "F": "fixed", "G": "basic", "P": "perl"}
_GNU_VALUES = "efmABCdDX"
# GNU grep's long options, in its order (the order its ambiguity message lists them):
# name -> (short letter or own key, takes: 0 no value, 1 a value, 2 an optional value)
_GNU_LONG: dict[str, tuple[str, int]] = {
    "basic-regexp": ("G", 0), "extended-regexp": ("E", 0), "fixed-regexp": ("F", 0), "fixed-strings": ("F", 0),
    "perl-regexp": ("P", 0), "after-context": ("A", 1), "before-context": ("B", 1),
    "binary-files": ("binary-files", 1), "byte-offset": ("b", 0), "context": ("C", 1), "color": ("color", 2),
    "colour": ("color", 2), "count": ("c", 0), "devices": ("D", 1), "directories": ("d", 1),
    "exclude": ("exclude", 1), "exclude-from": ("exclude-from", 1), "exclude-dir": ("exclude-dir", 1),
    "file": ("f", 1), "files-with-matches": ("l", 0), "files-without-match": ("L", 0),
    "group-separator": ("group-separator", 1), "help": ("help", 0), "include": ("include", 1),
    "ignore-case": ("i", 0), "no-ignore-case": ("no-ignore-case", 0), "initial-tab": ("T", 0),
    "label": ("label", 1), "line-buffered": ("line-buffered", 0), "line-number": ("n", 0),
    "line-regexp": ("x", 0), "max-count": ("m", 1), "no-filename": ("h", 0),
    "no-group-separator": ("no-group-separator", 0), "no-messages": ("s", 0), "null": ("Z", 0),
    "null-data": ("z", 0), "only-matching": ("o", 0), "quiet": ("q", 0), "recursive": ("r", 0),
    "dereference-recursive": ("R", 0), "regexp": ("e", 1), "invert-match": ("v", 0), "silent": ("q", 0),
    "text": ("a", 0), "binary": ("U", 0), "unix-byte-offsets": ("u", 0), "version": ("V", 0),
    "with-filename": ("H", 0), "word-regexp": ("w", 0),
}


def gnu_usage(message: str | None = None) -> CommandFailed:
    """getopt's complaint (if any), then GNU's two usage lines; exit 2."""
    text = (f"grep: {message}\n" if message else "") + GNU_USAGE
    return CommandFailed(_result(text))


def gnu_error(message: str) -> CommandFailed:
    return CommandFailed(_result(f"grep: {message}"))


def _result(text: str):
    from ...result import err
    return err(text + "\n", 2)


def parse_gnu_args(args: list[str], mode: str | None = None) -> GrepOptions:
    options = GrepOptions(gnu=True)
    matchers: set[str] = {mode} if mode else set()
    words = list(args)
    index = 0
    while index < len(words):
        arg = words[index]
        index += 1
        if arg == "--":
            options.operands.extend(words[index:])
            break
        if not arg.startswith("-") or arg == "-":
            options.operands.append(arg)
            continue
        if arg.startswith("--"):
            index = _gnu_long(options, matchers, arg, words, index)
            continue
        position = 1
        while position < len(arg):
            letter = arg[position]
            position += 1
            if letter.isdigit():
                end = position
                while end < len(arg) and arg[end].isdigit():
                    end += 1
                options.after = options.before = _context(arg[position - 1:end])
                position = end
            elif letter in _GNU_VALUES:
                if position < len(arg):
                    value = arg[position:]
                elif index < len(words):
                    value, index = words[index], index + 1
                else:
                    raise gnu_usage(f"option requires an argument -- '{letter}'")
                _gnu_value(options, letter, value)
                break
            elif letter in _GNU_MATCHERS:
                matchers.add(_GNU_MATCHERS[letter])
            elif letter in _GNU_FLAGS:
                name, value = _GNU_FLAGS[letter]
                if name != "binary_mode":
                    setattr(options, name, value)
            else:
                raise gnu_usage(f"invalid option -- '{letter}'")
    if len(matchers) > 1:
        raise gnu_error("conflicting matchers specified")
    options.mode = matchers.pop() if matchers else "basic"
    if options.version:
        return options
    if not options.patterns and not options.pattern_files:
        if not options.operands:
            raise gnu_usage()
        options.patterns.append(options.operands.pop(0))
    if options.directories == "recurse":
        options.recursive = True
    return options


def _gnu_long(options: GrepOptions, matchers: set[str], arg: str, words: list[str], index: int) -> int:
    name, has_value, value = arg[2:].partition("=")
    if name in _GNU_LONG:
        found = name
    else:
        candidates = [long for long in _GNU_LONG if long.startswith(name)]
        if not candidates:
            raise gnu_usage(f"unrecognized option '--{name}'")
        if len({_GNU_LONG[long] for long in candidates}) > 1:
            listed = " ".join(f"'--{long}'" for long in candidates)
            raise gnu_usage(f"option '--{name}' is ambiguous; possibilities: {listed}")
        found = candidates[0]
    key, takes = _GNU_LONG[found]
    if takes == 0 and has_value:
        raise gnu_usage(f"option '--{found}' doesn't allow an argument")
    if takes == 1 and not has_value:
        if index >= len(words):
            raise gnu_usage(f"option '--{found}' requires an argument")
        value, index = words[index], index + 1
    if key in _GNU_MATCHERS:
        matchers.add(_GNU_MATCHERS[key])
    elif len(key) == 1 and key in _GNU_VALUES:
        _gnu_value(options, key, value)
    elif len(key) == 1:
        attribute, setting = _GNU_FLAGS[key]
        if attribute != "binary_mode":
            setattr(options, attribute, setting)
    elif key == "no-ignore-case":
        options.ignore_case = False
    elif key == "binary-files":
        kinds = {"binary": "match", "text": "text", "without-match": "skip"}
        if value not in kinds:
            raise gnu_error("unknown binary-files type")
        options.binary = kinds[value]
    elif key == "color":
        if has_value and value not in ("always", "yes", "force", "never", "no", "none", "auto", "tty", "if-tty"):
            raise gnu_usage()
    elif key in ("include", "exclude"):
        getattr(options, key).append(value)
    elif key == "exclude-dir":
        options.exclude_dir.append(value)
    elif key == "exclude-from":
        raise gnu_error("--exclude-from is not supported here; use --exclude=GLOB")
    elif key == "group-separator":
        options.group_separator = value
    elif key == "no-group-separator":
        options.group_separator = None
    elif key == "label":
        options.label = value
    elif key == "help":
        pass  # answered before parsing
    return index


def _gnu_value(options: GrepOptions, letter: str, value: str) -> None:
    if letter == "e":
        options.patterns.append(value)
    elif letter == "f":
        options.pattern_files.append(value)
    elif letter == "m":
        number = _integer(value)
        if number is None:
            raise gnu_error("invalid max count")
        options.max_count = None if number < 0 else number
    elif letter == "d":
        if value not in ("read", "skip", "recurse"):
            raise gnu_error(f"invalid argument '{value}' for '--directories'\nValid arguments are:\n"
                            "  - 'read'\n  - 'recurse'\n  - 'skip'\n" + GNU_USAGE)
        options.directories = value
    elif letter == "D":
        if value not in ("read", "skip"):
            raise gnu_error("unknown devices method")
    elif letter == "X":
        raise gnu_error("-X is not supported here; use -E, -F, -G or -P")
    else:
        number = _context(value)
        if letter in "AC":
            options.after = number
        if letter in "BC":
            options.before = number


def _integer(value: str) -> int | None:
    text = value.strip()
    sign = -1 if text.startswith("-") else 1
    digits = text[1:] if text[:1] in "+-" else text
    if not (digits.isascii() and digits.isdigit()):
        return None
    return sign * int(digits)


def _context(value: str) -> int:
    number = _integer(value)
    if number is None or number < 0:
        raise gnu_error(f"{value}: invalid context length argument")
    return number
