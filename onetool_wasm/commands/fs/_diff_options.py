"""Parsing diff's command line the way GNU getopt does: bundled short flags (`-ru`),
attached or separate values (`-U5`, `-U 5`), long options and their unique prefixes
(`--unified=5`, `--rec`), options after operands, and `--`.

`parse_diff_args` reads the upstream (strict) grammar's few options; `parse_gnu_diff_args`
reads GNU diffutils 3.8's for the bash language, with its error texts and exit status 2."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial

from ...result import err
from ..getopt import NONE, OPTIONAL, REQUIRED, gnu_getopt
from ..helpers import fail, usage_error
from ..options import ArgReader, read_options, unknown_option, usage_failure
from ..spec import CommandFailed

USAGE = "diff [-u|-U N|-c|-C N] [-r] [-a] [-b] [-i] <left> <right>"

_FLAGS = {"r": "recursive", "a": "text", "b": "ignore_space", "i": "ignore_case"}
_LONG_FLAGS = {"recursive": "recursive", "text": "text", "ignore-space-change": "ignore_space",
               "ignore-case": "ignore_case"}
_LONG_STYLES = {"unified": "unified", "context": "context"}
_SHELL_SAFE = re.compile(r"[A-Za-z0-9%+,\-./:@_\]#~{}]+")


@dataclass
class DiffOptions:
    style: str = "normal"
    context: int = 0
    recursive: bool = False
    text: bool = False
    ignore_space: bool = False
    ignore_case: bool = False
    operands: list[str] = field(default_factory=list)
    # The options as typed, for the `diff <switches> a/f b/f` lines of directory diffs.
    switches: list[str] = field(default_factory=list)
    # GNU's options (the bash language only).
    brief: bool = False
    report_identical: bool = False
    new_file: bool = False
    ignore_blank: bool = False
    ignore_all_space: bool = False
    ignore_tabs: bool = False
    ignore_trailing: bool = False
    ignore_patterns: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    width: int = 130
    suppress_common: bool = False
    left_column: bool = False
    expand_tabs: bool = False
    excludes: list[str] = field(default_factory=list)
    exclude_files: list[str] = field(default_factory=list)
    strip_cr: bool = False

    def switch_string(self) -> str:
        return "".join(" " + shell_quote(switch) for switch in self.switches)


def parse_diff_args(args: list[str]) -> DiffOptions:
    options = DiffOptions()
    reader = read_options(args, partial(_long_option, options), partial(_short_cluster, options))
    if reader.ended:
        options.switches.append("--")
    options.operands = reader.operands
    if len(options.operands) != 2:
        raise CommandFailed(usage_error("diff", USAGE, 2))
    return options


def _short_cluster(options: DiffOptions, arg: str, reader: ArgReader) -> None:
    """One `-xyz` argument, with the value it takes (`-U5`, `-U 5`)."""
    taken = [arg]
    for position in range(1, len(arg)):
        letter = arg[position]
        if letter in _FLAGS:
            setattr(options, _FLAGS[letter], True)
        elif letter in "uc":
            _set_style(options, "unified" if letter == "u" else "context", 3)
        elif letter in "UC":
            attached = arg[position + 1:]
            value = reader.value(attached or None, usage_failure("diff", f"missing value for -{letter}", USAGE, 2))
            if not attached:
                taken.append(value)
            _set_style(options, "unified" if letter == "U" else "context", _context_count(value))
            break
        else:
            raise unknown_option("diff", f"-{letter}", USAGE, 2)
    options.switches.extend(taken)


def _long_option(options: DiffOptions, arg: str, reader: ArgReader) -> None:
    """One `--name[=N]`; diff's long options take no separate value."""
    name, has_value, value = arg[2:].partition("=")
    full = _complete_long_name(name, arg)
    if full in _LONG_FLAGS:
        if has_value:
            raise usage_failure("diff", f"option '--{full}' doesn't allow an argument", USAGE, 2)
        setattr(options, _LONG_FLAGS[full], True)
    else:
        _set_style(options, _LONG_STYLES[full], _context_count(value) if has_value else 3)
    options.switches.append(arg)


def _complete_long_name(name: str, arg: str) -> str:
    known = [*_LONG_FLAGS, *_LONG_STYLES]
    if name in known:
        return name
    matches = [candidate for candidate in known if name and candidate.startswith(name)]
    if len(matches) != 1:
        raise unknown_option("diff", arg, USAGE, 2)
    return matches[0]


def _set_style(options: DiffOptions, style: str, context: int) -> None:
    if options.style not in ("normal", style):
        raise usage_failure("diff", "conflicting output style options: use one of -u, -U N, -c, -C N", USAGE, 2)
    options.style = style
    options.context = max(options.context, context)  # GNU keeps the largest count given


def _context_count(value: str) -> int:
    if not value.isascii() or not value.isdigit():
        raise fail(f"diff: invalid context line count: {value}", 2)  # exit 2: GNU's trouble
    return int(value)


def shell_quote(word: str) -> str:
    """Quote an option as GNU diff does in its `diff <switches> a b` lines."""
    if _SHELL_SAFE.fullmatch(word) and not _special_alone(word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def _special_alone(word: str) -> bool:
    """`#` and `~` matter to a shell only at the start; `{`, `}` only on their own."""
    return word[0] in "#~" or word in ("{", "}")


# -- GNU diffutils 3.8 (the bash language) ------------------------------------------------------

GNU_USAGE = "diff [OPTION]... FILES"
_GNU_SHORT = "abBcC:eEiI:L:NqrstuU:wW:x:X:yZ"
_GNU_LONG = {
    "brief": ("q", NONE), "report-identical-files": ("s", NONE), "new-file": ("N", NONE),
    "ignore-blank-lines": ("B", NONE), "ignore-all-space": ("w", NONE), "ignore-space-change": ("b", NONE),
    "ignore-tab-expansion": ("E", NONE), "ignore-trailing-space": ("Z", NONE),
    "ignore-matching-lines": ("I", REQUIRED), "ignore-case": ("i", NONE), "label": ("L", REQUIRED),
    "side-by-side": ("y", NONE), "width": ("W", REQUIRED), "suppress-common-lines": ("suppress", NONE),
    "left-column": ("left-column", NONE), "expand-tabs": ("t", NONE), "ed": ("e", NONE),
    "normal": ("normal", NONE), "recursive": ("r", NONE), "exclude": ("x", REQUIRED),
    "exclude-from": ("X", REQUIRED), "color": ("color", OPTIONAL), "strip-trailing-cr": ("strip-cr", NONE),
    "text": ("a", NONE), "unified": ("U", OPTIONAL), "context": ("C", OPTIONAL),
}
_GNU_FLAGS = {"q": "brief", "s": "report_identical", "N": "new_file", "B": "ignore_blank",
              "w": "ignore_all_space", "b": "ignore_space", "E": "ignore_tabs", "Z": "ignore_trailing",
              "i": "ignore_case", "suppress": "suppress_common", "left-column": "left_column",
              "t": "expand_tabs", "r": "recursive", "strip-cr": "strip_cr", "a": "text"}
_STYLE_LETTERS = {"u": "unified", "U": "unified", "c": "context", "C": "context", "e": "ed", "y": "side",
                  "normal": "normal"}
_TRY = "diff: Try 'diff --help' for more information."


def gnu_trouble(message: str, hint: bool = False) -> CommandFailed:
    """GNU's trouble: the message (and the --help hint for usage errors), exit status 2."""
    return CommandFailed(err(message + (f"\n{_TRY}" if hint else ""), 2))


def parse_gnu_diff_args(args: list[str]) -> DiffOptions:
    try:
        parsed, operands = gnu_getopt("diff", GNU_USAGE, args, _GNU_SHORT, _GNU_LONG)
    except CommandFailed as failure:
        text = failure.result.stderr.split(". Usage:")[0]
        raise gnu_trouble(text, hint=True) from None
    options = DiffOptions()
    style = None
    for key, value in parsed:
        if key in _GNU_FLAGS:
            setattr(options, _GNU_FLAGS[key], True)
        elif key in _STYLE_LETTERS:
            wanted = _STYLE_LETTERS[key]
            if style not in (None, wanted):
                raise gnu_trouble("diff: conflicting output style options", hint=True)
            style = wanted
            if key in "UC" and value is not None:
                options.context = max(options.context, _gnu_count(value, "context length"))
            elif key in "uUcC":
                options.context = max(options.context, 3)
        elif key == "I":
            options.ignore_patterns.append(value or "")
        elif key == "L":
            if len(options.labels) == 2:
                raise gnu_trouble("diff: too many file label options")
            options.labels.append(value or "")
        elif key == "W":
            options.width = _gnu_count(value or "", "width", positive=True)
        elif key == "x":
            options.excludes.append(value or "")
        elif key == "X":
            options.exclude_files.append(value or "")
        elif key == "color":
            if value not in (None, "never", "auto", "always"):
                raise gnu_trouble(f"diff: invalid color '{value}'", hint=True)
    options.style = style or "normal"
    if len(operands) < 2:
        after = operands[-1] if operands else "diff"
        raise gnu_trouble(f"diff: missing operand after '{after}'", hint=True)
    if len(operands) > 2:
        raise gnu_trouble(f"diff: extra operand '{operands[2]}'", hint=True)
    options.operands = operands
    options.switches = _typed_options(args)
    return options


def _gnu_count(value: str, what: str, positive: bool = False) -> int:
    if not value.isascii() or not value.isdigit() or (positive and int(value) == 0):
        raise gnu_trouble(f"diff: invalid {what} '{value}'", hint=True)
    return min(int(value), 10**9)


def _typed_options(args: list[str]) -> list[str]:
    """The option words as typed (values included), as GNU's `diff -r` pair lines show them."""
    words: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            words.append(arg)
            break
        if not arg.startswith("-") or arg == "-":
            continue
        words.append(arg)
        if arg.startswith("--"):
            name, has_value, _ = arg[2:].partition("=")
            matches = [long for long in _GNU_LONG if long.startswith(name)] if name else []
            full = name if name in _GNU_LONG else (matches[0] if matches else "")
            if full and _GNU_LONG[full][1] == REQUIRED and not has_value and index < len(args):
                words.append(args[index])
                index += 1
            continue
        for position in range(1, len(arg)):
            letter = arg[position]
            if letter + ":" in _GNU_SHORT:
                if position == len(arg) - 1 and index < len(args):
                    words.append(args[index])
                    index += 1
                break
    return words
