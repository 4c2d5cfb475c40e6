"""tr: translate, delete and squeeze bytes from stdin, as GNU tr does in the C locale.

Operands are taken as their UTF-8 bytes, so `tr é e` maps both bytes of `é` (GNU's C
locale behaviour). Set syntax: escapes (`\\n`, `\\000`), ranges (`a-z`), classes
(`[:lower:]`), equivalence classes (`[=c=]`) and, in STRING2, repeats (`[c*]`, `[c*n]`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...result import CommandResult, err, ok_bytes
from ..helpers import content_type_for
from ..lines import with_stream
from ..spec import CommandContext, CommandFailed, CommandIO, CommandSpec

USAGE = "tr [OPTION]... STRING1 [STRING2]"
_TAIL = f"Usage: {USAGE}"


def _span(first: str, last: str) -> bytes:
    return bytes(range(ord(first), ord(last) + 1))


_PRINTABLE = _span(" ", "~")
CLASSES: dict[str, bytes] = {
    "alnum": _span("0", "9") + _span("A", "Z") + _span("a", "z"),
    "alpha": _span("A", "Z") + _span("a", "z"),
    "blank": b"\t ",
    "cntrl": bytes(range(32)) + b"\x7f",
    "digit": _span("0", "9"),
    "graph": _span("!", "~"),
    "lower": _span("a", "z"),
    "print": _PRINTABLE,
    "punct": bytes(c for c in _span("!", "~") if not chr(c).isalnum()),
    "space": b"\t\n\v\f\r ",
    "upper": _span("A", "Z"),
    "xdigit": _span("0", "9") + _span("A", "F") + _span("a", "f"),
}
_SIMPLE_ESCAPES = {ord(k): ord(v) for k, v in
                   {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}.items()}
_OCTAL = frozenset(b"01234567")
_LONG_FLAGS = {"--complement": "c", "--delete": "d", "--squeeze-repeats": "s", "--truncate-set1": "t"}


def fail(message: str) -> CommandFailed:
    return CommandFailed(err(f"tr: {message}"))


@dataclass
class Element:
    """One construct of a set: plain bytes, a class, or a `[c*n]` repeat (count None = fill)."""
    data: bytes
    cls: str | None = None
    repeat: bool = False
    count: int | None = None


@dataclass
class Options:
    complement: bool = False
    delete: bool = False
    squeeze: bool = False
    truncate: bool = False
    operands: list[str] = field(default_factory=list)


def parse_options(args: list[str]) -> Options:
    """Flags until the first operand (`--` ends them; a lone `-` is an operand)."""
    options = Options()
    parsing = True
    for arg in args:
        if parsing and arg == "--":
            parsing = False
        elif parsing and arg in _LONG_FLAGS:
            _set_flag(options, _LONG_FLAGS[arg])
        elif parsing and arg.startswith("-") and len(arg) > 1:
            for flag in arg[1:]:
                if flag not in "cCdst":
                    raise fail(f"unknown option: -{flag}. {_TAIL}")
                _set_flag(options, flag)
        else:
            options.operands.append(arg)
            parsing = False
    return options


def _set_flag(options: Options, flag: str) -> None:
    attribute = {"c": "complement", "C": "complement", "d": "delete", "s": "squeeze", "t": "truncate"}[flag]
    setattr(options, attribute, True)


def check_operands(options: Options) -> None:
    """GNU's operand rules: how many strings each mode takes."""
    count = len(options.operands)
    if count == 0:
        raise fail(f"missing operand. {_TAIL}")
    if count > 2:
        raise fail(f"extra operand '{options.operands[2]}'. {_TAIL}")
    if options.delete and not options.squeeze and count == 2:
        raise fail(f"extra operand '{options.operands[1]}'. Only one string may be given when deleting "
                   f"without squeezing repeats. {_TAIL}")
    if count == 1 and (options.delete and options.squeeze):
        raise fail(f"missing operand after '{options.operands[0]}'. Two strings must be given when both "
                   f"deleting and squeezing repeats. {_TAIL}")
    if count == 1 and not (options.delete or options.squeeze):
        raise fail(f"missing operand. {_TAIL}")


class _Reader:
    """Walks one operand's bytes, decoding escapes."""

    def __init__(self, text: bytes) -> None:
        self.text = text
        self.pos = 0

    def done(self) -> bool:
        return self.pos >= len(self.text)

    def peek(self, offset: int = 0) -> int | None:
        index = self.pos + offset
        return self.text[index] if index < len(self.text) else None

    def char(self) -> int:
        """The next byte, with `\\` escapes resolved (a trailing `\\` is itself)."""
        byte = self.text[self.pos]
        self.pos += 1
        if byte != ord("\\") or self.done():
            return byte
        nxt = self.text[self.pos]
        if nxt in _OCTAL:
            return self._octal()
        self.pos += 1
        return _SIMPLE_ESCAPES.get(nxt, nxt)

    def _octal(self) -> int:
        digits = b""
        while len(digits) < 3 and not self.done() and self.text[self.pos] in _OCTAL:
            digits += self.text[self.pos:self.pos + 1]
            self.pos += 1
        if int(digits, 8) > 0o377:  # `\400` is `\40` then `0`, as GNU reads it
            self.pos -= 1
            digits = digits[:2]
        return int(digits, 8)


def parse_set(operand: str, allow_repeat: bool) -> list[Element]:
    reader = _Reader(operand.encode("utf-8", errors="surrogateescape"))
    elements: list[Element] = []
    while not reader.done():
        special = _bracket(reader, allow_repeat)
        if special is not None:
            elements.append(special)
            continue
        first = reader.char()
        if reader.peek() == ord("-") and reader.peek(1) is not None:
            reader.pos += 1
            last = reader.char()
            if last < first:
                raise fail("invalid descending range")
            elements.append(Element(bytes(range(first, last + 1))))
        else:
            elements.append(Element(bytes([first])))
    return elements


_CLASS = re.compile(rb"\[:([a-z]*):\]")
_EQUIV = re.compile(rb"\[=(.)=\]", re.DOTALL)
_REPEAT = re.compile(rb"\[(\\[0-7]{1,3}|\\.|[^\\])\*([0-9]*)\]", re.DOTALL)


def _bracket(reader: _Reader, allow_repeat: bool) -> Element | None:
    """`[:class:]`, `[=c=]` or `[c*n]` at the reader's position, else None (a literal `[`)."""
    if reader.peek() != ord("["):
        return None
    match = _CLASS.match(reader.text, reader.pos)
    if match:
        name = match.group(1).decode("ascii")
        if name not in CLASSES:
            raise fail(f"invalid character class '{name}'. Valid classes: {', '.join(CLASSES)}")
        reader.pos = match.end()
        return Element(CLASSES[name], cls=name)
    match = _EQUIV.match(reader.text, reader.pos)
    if match:
        reader.pos = match.end()
        return Element(match.group(1))
    match = _REPEAT.match(reader.text, reader.pos) if allow_repeat else None
    if match:
        byte = _Reader(match.group(1)).char()
        digits = match.group(2)
        count = int(digits, 8 if digits.startswith(b"0") else 10) if digits else 0
        reader.pos = match.end()
        return Element(bytes([byte]), repeat=True, count=count or None)
    return None


def expand(elements: list[Element], target: int = 0) -> bytes:
    """The set's bytes; a `[c*]` repeat fills up to `target` bytes."""
    fills = [e for e in elements if e.repeat and e.count is None]
    if len(fills) > 1:
        raise fail("only one [c*] repeat construct may appear in string2")
    fixed = sum(len(e.data) * (e.count or 0) if e.repeat else len(e.data) for e in elements)
    out = bytearray()
    for element in elements:
        if element.repeat:
            out += element.data * (element.count if element.count is not None else max(target - fixed, 0))
        else:
            out += element.data
    return bytes(out)


def _offsets(elements: list[Element], target: int) -> dict[int, str | None]:
    """Offset of each class construct in the expanded set -> its class name."""
    fixed = sum(len(e.data) * (e.count or 0) if e.repeat else len(e.data) for e in elements)
    offsets: dict[int, str | None] = {}
    position = 0
    for element in elements:
        if element.cls:
            offsets[position] = element.cls
        size = len(element.data) * (element.count if element.count is not None else max(target - fixed, 0)) \
            if element.repeat else len(element.data)
        position += size
    return offsets


def check_string2_classes(set1: list[Element], set2: list[Element], complement: bool, target: int) -> None:
    """GNU: only [:upper:]/[:lower:] in STRING2, each facing a case class in STRING1."""
    left = {} if complement else _offsets(set1, target)
    for offset, name in _offsets(set2, target).items():
        if name not in ("upper", "lower"):
            raise fail("when translating, the only character classes that may appear in string2 are "
                       "'upper' and 'lower'")
        if left.get(offset) not in ("upper", "lower"):
            raise fail("misaligned [:upper:] and/or [:lower:] construct")


@dataclass
class Program:
    delete: bytes | None = None
    table: bytes | None = None
    squeeze: bytes = b""

    def run(self, data: bytes) -> bytes:
        if self.delete:
            data = data.translate(None, self.delete)
        if self.table is not None:
            data = data.translate(self.table)
        if self.squeeze:
            data = _squeezer(self.squeeze).sub(rb"\1", data)
        return data


def _squeezer(members: bytes) -> re.Pattern[bytes]:
    escaped = b"".join(b"\\x%02x" % byte for byte in sorted(set(members)))
    return re.compile(b"([" + escaped + b"])\\1+")


def complement_of(data: bytes) -> bytes:
    present = set(data)
    return bytes(byte for byte in range(256) if byte not in present)


def compile_program(options: Options) -> Program:
    check_operands(options)
    set1_elements = parse_set(options.operands[0], allow_repeat=True)
    if any(element.repeat and element.count is None for element in set1_elements):
        raise fail("the [c*] repeat construct may not appear in string1")
    set1 = expand(set1_elements)
    if options.complement:
        set1 = complement_of(set1)
    string2 = options.operands[1] if len(options.operands) > 1 else None
    if options.delete:
        return Program(delete=set1, squeeze=_squeeze_set(string2) if string2 is not None else b"")
    if string2 is None:
        return Program(squeeze=set1)
    set2_elements = parse_set(string2, allow_repeat=True)
    check_string2_classes(set1_elements, set2_elements, options.complement, len(set1))
    set2 = expand(set2_elements, len(set1))
    if options.complement and any(e.cls for e in set1_elements) and len(set(set2)) > 1:
        raise fail("when translating with complemented character classes, string2 must map all "
                   "characters in the domain to one")
    set1, set2 = _align(set1, set2, set2_elements, options.truncate)
    table = bytearray(range(256))
    for source, target in zip(set1, set2):
        table[source] = target
    return Program(table=bytes(table), squeeze=set2 if options.squeeze else b"")


def _squeeze_set(string2: str) -> bytes:
    elements = parse_set(string2, allow_repeat=True)
    if any(element.repeat for element in elements):
        raise fail("the [c*] construct may appear in string2 only when translating")
    return expand(elements)


def _align(set1: bytes, set2: bytes, set2_elements: list[Element], truncate: bool) -> tuple[bytes, bytes]:
    """GNU: -t cuts STRING1 to STRING2's length, else STRING2 repeats its last byte."""
    if len(set2) >= len(set1):
        return set1, set2
    if truncate:
        return set1[:len(set2)], set2
    if not set2:
        raise fail("when not truncating set1, string2 must be non-empty")
    if set2_elements and set2_elements[-1].cls:
        raise fail("when translating with string1 longer than string2, the latter string must not end "
                   "with a character class")
    return set1, set2 + set2[-1:] * (len(set1) - len(set2))


def cmd_tr(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    program = compile_program(parse_options(args))
    output = program.run(stdin)
    return ok_bytes(output, content_type_for(output))


async def stream_tr(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    """tr chunk by chunk; a squeezed run that spans two chunks is squeezed across them."""
    program = compile_program(parse_options(args))
    last = b""  # the last byte written
    while chunk := await io.stdin.read():
        output = program.run(chunk)
        if last and last[0] in program.squeeze:
            output = output.lstrip(last)
        if output:
            last = output[-1:]
            await io.stdout.write(output)
    return 0


TR = with_stream(CommandSpec(
    name="tr",
    summary="Translate, delete, and squeeze bytes from stdin.",
    usage=USAGE,
    details=('Examples:\n  cat /logs/app.log | tr a-z A-Z\n  cat /notes.txt | tr -s " "\n'
             "  cat /data.txt | tr -d 0-9"),
    group="text",
    handler=cmd_tr,
    accepts_stdin=True, min_args=1, max_args=None, conformance_args=("a-z", "A-Z"), kind="read",
    arity_message=f"missing operand. {_TAIL}",
), stream_tr)

COMMANDS = [TR]
