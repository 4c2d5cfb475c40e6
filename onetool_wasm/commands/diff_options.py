"""Parsing diff's command line the way GNU getopt does: bundled short flags (`-ru`),
attached or separate values (`-U5`, `-U 5`), long options and their unique prefixes
(`--unified=5`, `--rec`), options after operands, and `--`."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial

from .helpers import fail, usage_error
from .options import ArgReader, read_options, unknown_option, usage_failure
from .spec import CommandFailed

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
