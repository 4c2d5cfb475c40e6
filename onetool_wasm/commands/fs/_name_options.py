"""What basename and dirname share: their GNU option reading (-a -s -z) and output lines."""
from __future__ import annotations

from dataclasses import dataclass, field
from ...result import encode_text
from ..options import usage_failure


@dataclass
class _Options:
    multiple: bool = False
    suffix: str = ""
    zero: bool = False
    names: list[str] = field(default_factory=list)


def parse_names(command: str, usage: str, args: list[str], letters: str) -> _Options:
    """GNU getopt: options anywhere before `--`; basename also has -a and -s SUFFIX."""
    options = _Options()
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            options.names.extend(args[index:])
            break
        if arg.startswith("--"):
            index = _long(command, usage, options, arg, args, index, letters)
        elif arg.startswith("-") and arg != "-":
            index = _cluster(command, usage, options, arg, args, index, letters)
        else:
            options.names.append(arg)
    return options


def _long(command: str, usage: str, options: _Options, arg: str, args: list[str], index: int,
          letters: str) -> int:
    name, has_value, value = arg[2:].partition("=")
    known = {"zero": "z", "multiple": "a", "suffix": "s"}
    letter = known.get(name)
    if letter is None or letter not in letters or (has_value and letter != "s"):
        raise usage_failure(command, f"unrecognized option '{arg}'", usage)
    if letter == "s" and not has_value:
        if index >= len(args):
            raise usage_failure(command, f"option '--{name}' requires an argument", usage)
        value, index = args[index], index + 1
    _set(options, letter, value)
    return index


def _cluster(command: str, usage: str, options: _Options, arg: str, args: list[str], index: int,
             letters: str) -> int:
    for position, letter in enumerate(arg[1:], start=2):
        if letter not in letters:
            raise usage_failure(command, f"invalid option -- '{letter}'", usage)
        if letter != "s":
            _set(options, letter, "")
            continue
        value = arg[position:]
        if not value:
            if index >= len(args):
                raise usage_failure(command, "option requires an argument -- 's'", usage)
            value, index = args[index], index + 1
        _set(options, "s", value)
        break
    return index


def _set(options: _Options, letter: str, value: str) -> None:
    if letter == "z":
        options.zero = True
    elif letter == "a":
        options.multiple = True
    else:
        options.multiple, options.suffix = True, value  # -s implies -a, as in GNU


def name_lines(names: list[str], zero: bool) -> bytes:
    end = "\0" if zero else "\n"
    return encode_text("".join(name + end for name in names))

