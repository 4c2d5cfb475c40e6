"""sed scripts parsed into a flat program, as GNU sed reads them.

Commands: `{ } = a i c d D g G h H l n N p P q Q r s t T b : x y z F` and `#` comments;
addresses `N`, `$`, `/re/I M`, `\\cREc`, `first~step`, ranges `a,b`, `0,/re/`, `a,+N`,
`a,~N`, and `!`. With `gnu` (the bash language) also `R w W v`, the `s///w` flag and GNU's
error texts with their positions; `e` is refused there (no process execution). The strict
grammar refuses `w W e R` and the `w` flag: it writes files only with -i.
A `{` jumps past its `}` when its address does not match; labels resolve to indexes.
Errors raise ScriptError with upstream's wording where upstream has one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..regex import Regex, RegexError, compile_regex

SIMPLE = set(b"=dDgGhHlnNpPxzF}qQ")
TEXT_COMMANDS = set(b"aic")


_GNU_WORDS = {"unterminated substitute pattern": "unterminated `s' command",
              "unterminated substitute replacement": "unterminated `s' command",
              "invalid substitute delimiter": "unterminated `s' command"}


class ScriptError(ValueError):
    """A bad script. `position`: where GNU sed would say it stopped reading (an index into
    the script; None for "char 0"); `located`: False for the messages GNU prints bare;
    `exit_code`: 1, or 4 where GNU panics."""

    def __init__(self, message: str, position: int | None = None, located: bool = True, exit_code: int = 1) -> None:
        super().__init__(message)
        self.position = position
        self.located = located
        self.exit_code = exit_code


@dataclass
class Address:
    kind: str  # "line", "last", "regex", "step", "zero"; second address also "plus", "mult"
    number: int = 0
    step: int = 0
    regex: Regex | None = None  # None with kind "regex": the last regex used


@dataclass
class Replacement:
    # ("lit", bytes) | ("group", n) | ("case", "L"|"U"|"E"|"l"|"u")
    parts: list[tuple[str, object]]
    gnu: bool = False  # GNU's case rules (\L and \U cancel a pending \u or \l)


@dataclass
class Substitution:
    regex: Regex | None
    replacement: Replacement
    global_: bool = False
    occurrence: int = 1
    print_: bool = False
    write_to: str = ""  # the `w FILE` flag


@dataclass
class Command:
    name: str
    addr1: Address | None = None
    addr2: Address | None = None
    negate: bool = False
    text: bytes = b""
    label: str = ""
    target: int = -1  # jump index for { b t T
    number: int | None = None  # exit code of q/Q, width of l
    filename: str = ""  # r R w W, and the `w` flag of s
    subst: Substitution | None = None
    table: bytes | None = None  # y
    active: bool = False  # range state
    range_end: int = 0  # last line of an `a,+N` / `a,~N` range
    done: bool = False  # a range that cannot open again (`0,/re/`, or one starting at a line number)


@dataclass
class Program:
    commands: list[Command] = field(default_factory=list)
    quiet: bool = False  # a `#n` first line
    read_files: list[str] = field(default_factory=list)
    write_files: list[str] = field(default_factory=list)  # opened (emptied) before the first line


def parse_script(script: bytes, extended: bool, gnu: bool = False) -> Program:
    """`gnu`: the bash language's sed (GNU's texts, `w`/`W`/`R`/`v` and the `s///w` flag);
    otherwise the strict grammar's subset and texts."""
    parser = _ScriptParser(script, extended, gnu)
    parser.run()
    return parser.program


class _ScriptParser:
    def __init__(self, script: bytes, extended: bool, gnu: bool = False) -> None:
        self.s = script
        self.i = 0
        self.extended = extended
        self.gnu = gnu
        self.program = Program(quiet=script == b"#n" or script.startswith(b"#n\n"))
        self.blocks: list[int] = []

    def fail(self, strict: str, gnu: str | None = None, at: int | None | bool = True) -> ScriptError:
        """The error in the grammar's words; `at`: True for here, None for GNU's "char 0"."""
        if not self.gnu:
            return ScriptError(strict)
        return ScriptError(gnu or _GNU_WORDS.get(strict, strict), self.i if at is True else at)

    def peek(self) -> int | None:
        return self.s[self.i] if self.i < len(self.s) else None

    def skip(self, chars: bytes) -> None:
        while self.i < len(self.s) and self.s[self.i] in chars:
            self.i += 1

    def run(self) -> None:
        while True:
            self.skip(b" \t\r\n;")
            if self.i >= len(self.s):
                break
            if self.peek() == ord("#"):
                self._skip_line()
                continue
            self.command()
        if self.blocks:
            raise self.fail("unmatched `{'", at=None)
        self._resolve_labels()

    def _skip_line(self) -> None:
        end = self.s.find(b"\n", self.i)
        self.i = len(self.s) if end < 0 else end + 1

    # -- addresses --------------------------------------------------------------------
    def command(self) -> None:
        command = Command(name="")
        if self.gnu and self.peek() in (ord("+"), ord("~")) and self.s[self.i + 1:self.i + 2].isdigit():
            self.i += 2
            raise self.fail("", "invalid usage of +N or ~N as first address")
        command.addr1 = self.address(first=True)
        if command.addr1 is not None:
            self.skip(b" \t")
            if self.peek() == ord(","):
                self.i += 1
                self.skip(b" \t")
                command.addr2 = self.address(first=False)
                if command.addr2 is None:
                    raise self.fail("expected second address after comma", "unexpected `,'")
        if command.addr1 is not None and command.addr1.kind == "zero":
            if command.addr2 is None or command.addr2.kind != "regex":
                if self.gnu:
                    self.i += 1  # GNU has read the command too
                raise self.fail("invalid usage of line address 0")
        self.skip(b" \t")
        while self.peek() == ord("!"):
            if command.negate and self.gnu:
                self.i += 1
                raise self.fail("", "multiple `!'s")
            command.negate = True
            self.i += 1
            self.skip(b" \t")
        char = self.peek()
        if char is None or (self.gnu and command.addr1 is not None and char in b"\n;"):
            raise self.fail("unexpected end of script", "missing command")
        self.i += 1
        command.name = chr(char)
        self.body(command)

    def address(self, first: bool) -> Address | None:
        c = self.peek()
        if c is None:
            return None
        if c == ord("$"):
            self.i += 1
            return Address("last")
        if first is False and c in b"+~":
            self.i += 1
            number = self.number()
            if number is None:
                raise self.fail("expected number after + or ~ in address", "expected newer version of sed")
            return Address("plus" if c == ord("+") else "mult", number)
        if ord("0") <= c <= ord("9"):
            number = self.number() or 0
            if first and self.peek() == ord("~"):
                self.i += 1
                return Address("step", number, self.number() or 0)
            if first and number == 0:
                return Address("zero")
            return Address("line", number)
        if c == ord("/") or c == ord("\\"):
            if c == ord("\\"):
                self.i += 1
            delimiter = self.opening_delimiter("unterminated address regex")
            pattern = self.delimited(delimiter, "unterminated address regex", regex=True)
            ignore_case = multiline = False
            while self.peek() in (ord("I"), ord("M")):
                ignore_case = ignore_case or self.peek() == ord("I")
                multiline = multiline or self.peek() == ord("M")
                self.i += 1
            return Address("regex", regex=self.regex(pattern, ignore_case, multiline))
        return None

    def number(self) -> int | None:
        start = self.i
        while self.i < len(self.s) and 48 <= self.s[self.i] <= 57:
            self.i += 1
        return int(self.s[start:self.i]) if self.i > start else None

    def regex(self, pattern: bytes, ignore_case: bool, multiline: bool) -> Regex | None:
        if not pattern:
            return None  # the empty regex: the last one used
        try:
            return compile_regex(pattern, self.extended, ignore_case, True, multiline)
        except RegexError as error:
            raise self.fail(f"invalid regex: {error}", str(error)) from None

    def opening_delimiter(self, missing: str) -> int:
        """The byte that opens a regex, `s` or `y` argument (not a newline or backslash)."""
        delimiter = self.peek()
        if delimiter is None or delimiter in b"\n\\":
            raise self.fail(missing)
        self.i += 1
        return delimiter

    def delimited(self, delimiter: int, unterminated: str, regex: bool = False) -> bytes:
        """Text up to an unescaped delimiter; `\\<delim>` becomes the delimiter itself. In a
        regex the delimiter does not end a bracket expression (`s/[/]//`), as in GNU sed."""
        out = bytearray()
        while True:
            c = self.peek()
            if c is None:
                raise self.fail(unterminated)
            self.i += 1
            if regex and c == ord("["):
                out.append(c)
                self._bracket(out, unterminated)
                continue
            if c == delimiter:
                return bytes(out)
            if c == 0x5C:  # backslash
                nxt = self.peek()
                if nxt is None:
                    raise self.fail(unterminated)
                self.i += 1
                if nxt == delimiter and delimiter != ord("&"):
                    out.append(nxt)
                elif nxt == ord("\n"):
                    out += b"\\n"
                else:
                    out += bytes((c, nxt))
            elif c == ord("\n"):
                raise self.fail(unterminated)
            else:
                out.append(c)

    def _bracket(self, out: bytearray, unterminated: str) -> None:
        """The rest of a bracket expression after its `[`, copied as written: a leading `^`
        and `]` are members, `[:alpha:]`, `[=a=]`, `[.a.]` are read whole."""
        if self.peek() == ord("^"):
            out.append(self.s[self.i])
            self.i += 1
        if self.peek() == ord("]"):
            out.append(self.s[self.i])
            self.i += 1
        while True:
            c = self.peek()
            if c is None or c == ord("\n"):
                raise self.fail(unterminated)
            self.i += 1
            out.append(c)
            if c == ord("]"):
                return
            if c == ord("[") and self.peek() in (ord(":"), ord("="), ord(".")):
                closing = bytes((self.s[self.i], ord("]")))
                end = self.s.find(closing, self.i + 1)
                if end < 0:
                    continue  # a lone `[:`: ordinary members
                out += self.s[self.i:end + 2]
                self.i = end + 2

    # -- command bodies -----------------------------------------------------------------
    def body(self, command: Command) -> None:
        name = command.name
        if name in "}:" and command.addr1 is not None:
            raise self.fail(f"{name} doesn't want any addresses")
        if self.gnu:
            self._gnu_checks(command)
        if name == "{":
            self.blocks.append(len(self.program.commands))
            self.program.commands.append(command)
            return
        if name == "}":
            if not self.blocks:
                raise self.fail("unexpected `}'")
            self.program.commands[self.blocks.pop()].target = len(self.program.commands) + 1
        elif name in "qQl":
            self.skip(b" \t")
            command.number = self.number()
        elif ord(name) in TEXT_COMMANDS:
            command.text = self.text()
            self.program.commands.append(command)
            return
        elif name in "btT:":
            command.label = self.label()
            if name == ":" and not command.label:
                raise self.fail('":" lacks a label')
            self.program.commands.append(command)
            return
        elif name == "r" or (self.gnu and name in "RwW"):
            command.filename = self.filename()
            if not command.filename:
                raise self.fail("missing filename in r command", "missing filename in r/R/w/W commands")
            (self.program.read_files if name in "rR" else self.program.write_files).append(command.filename)
            self.program.commands.append(command)
            return
        elif self.gnu and name == "v":
            self._version(self.label())
            return
        elif self.gnu and name == "e":
            raise self.fail("", "e command is not supported: sed here cannot run commands (no process execution)")
        elif name == "s":
            command.subst = self.substitution()
            if command.subst.write_to:
                command.filename = command.subst.write_to
                self.program.commands.append(command)
                return  # the file name took the rest of the line
        elif name == "y":
            command.table = self.transliteration()
        elif name in "wWeR":
            raise ScriptError(f"unsupported sed command: {name} (sed here writes files only with -i)")
        elif ord(name) not in SIMPLE:
            raise self.fail(f"unsupported sed command: {name}", f"unknown command: `{name}'")
        self.program.commands.append(command)
        self.end_of_command()

    def _gnu_checks(self, command: Command) -> None:
        if command.name == "#" and command.addr1 is not None:
            raise self.fail("", "comments don't accept any addresses")
        if command.name in "qQ" and command.addr2 is not None:
            raise self.fail("", "command only uses one address")

    def _version(self, wanted: str) -> None:
        """`v [VERSION]`: fails when the version asked for is newer than 4.9."""
        parts = [int(part) if part.isdigit() else 0 for part in (wanted or "4.2").split(".")]
        if parts > [4, 9]:
            raise self.fail("", "expected newer version of sed")

    def end_of_command(self) -> None:
        self.skip(b" \t\r")
        c = self.peek()
        if c is None or c in b";\n}#":
            if c in (ord(";"), ord("\n")):
                self.i += 1
            return
        self.i += 1
        raise self.fail(f"extra characters after command: {chr(c)}", "extra characters after command")

    def text(self) -> bytes:
        """a/i/c text: `a\\` newline text, or GNU's one-liner `a text`; backslash escapes
        (`\\t`, `\\n`, `\\<newline>`) as GNU reads them; ends at an unescaped newline."""
        self.skip(b" \t")
        if self.peek() == 0x5C:
            self.i += 1
            if self.peek() == ord("\n"):
                self.i += 1
        elif self.peek() is None:
            raise self.fail("expected \\ after `a', `c' or `i'")
        out = bytearray()
        while self.i < len(self.s):
            c = self.s[self.i]
            self.i += 1
            if c == ord("\n"):
                break
            if c == 0x5C and self.i < len(self.s):
                nxt = self.s[self.i]
                self.i += 1
                out += {ord("t"): b"\t", ord("n"): b"\n", ord("\n"): b"\n"}.get(nxt, bytes((nxt,)))
            else:
                out.append(c)
        return bytes(out)

    def label(self) -> str:
        self.skip(b" \t")
        start = self.i
        while self.i < len(self.s) and self.s[self.i] not in b"\n;":
            self.i += 1
        label = self.s[start:self.i].strip().decode("utf-8", "surrogateescape")
        if self.i < len(self.s):
            self.i += 1
        return label

    def filename(self) -> str:
        self.skip(b" \t")
        end = self.s.find(b"\n", self.i)
        end = len(self.s) if end < 0 else end
        name = self.s[self.i:end].decode("utf-8", "surrogateescape")
        self.i = min(end + 1, len(self.s))
        return name

    def substitution(self) -> Substitution:
        delimiter = self.opening_delimiter("invalid substitute delimiter")
        pattern = self.delimited(delimiter, "unterminated substitute pattern", regex=True)
        replacement = self.delimited(delimiter, "unterminated substitute replacement")
        subst = Substitution(None, parse_replacement(replacement, self.gnu))
        ignore_case = multiline = False
        digits = ""
        number_done = False
        while True:
            c = self.peek()
            if c is None or c in b";\n}#":
                break
            self.i += 1
            char = chr(c)
            if digits and not char.isdigit():
                number_done = True
            if char.isdigit():
                if number_done and self.gnu:
                    self.skip(b"0123456789")
                    raise self.fail("", "multiple number options to `s' command")
                digits += char
            elif char == "g":
                if subst.global_ and self.gnu:
                    raise self.fail("", "multiple `g' options to `s' command")
                subst.global_ = True
            elif char == "p":
                if subst.print_ and self.gnu:
                    raise self.fail("", "multiple `p' options to `s' command")
                subst.print_ = True
            elif char == "w" and self.gnu:
                subst.write_to = self.filename()
                if not subst.write_to:
                    raise self.fail("", "missing filename in r/R/w/W commands")
                self.program.write_files.append(subst.write_to)
                break
            elif char == "e" and self.gnu:
                raise self.fail("", "e flag of `s' is not supported: sed here cannot run commands (no process execution)")
            elif char in "iI":
                ignore_case = True
            elif char in "mM":
                multiline = True
            elif char not in " \t\r":
                raise self.fail(f"unsupported substitute flag: {char}", "unknown option to `s'")
        if digits:
            subst.occurrence = int(digits)
            if subst.occurrence == 0:
                raise self.fail("number option to `s' command may not be zero")
        subst.regex = self.regex(pattern, ignore_case, multiline)
        wanted = max((int(value) for kind, value in subst.replacement.parts if kind == "group"), default=0)
        if subst.regex is not None and wanted > subst.regex.groups:
            raise self.fail(f"invalid reference \\{wanted} on `s' command's RHS")
        return subst

    def transliteration(self) -> bytes:
        delimiter = self.opening_delimiter("unterminated `y' command")
        source = _unescape(self.delimited(delimiter, "unterminated `y' command"))
        dest = _unescape(self.delimited(delimiter, "unterminated `y' command"))
        if len(source) != len(dest):
            raise self.fail("strings for `y' command are different lengths")
        table = bytearray(range(256))
        for a, b in zip(source, dest):
            table[a] = b
        return bytes(table)

    def _resolve_labels(self) -> None:
        labels: dict[str, int] = {}
        for index, command in enumerate(self.program.commands):
            if command.name == ":":
                if command.label in labels:
                    raise self.fail(f"duplicate label: {command.label}", at=None)
                labels[command.label] = index
        for command in self.program.commands:
            if command.name in "btT":
                if command.label and command.label not in labels:
                    error = self.fail(f"can't find label for jump to `{command.label}'")
                    error.located, error.exit_code = False, 1 if not self.gnu else 4
                    raise error
                command.target = labels[command.label] if command.label else len(self.program.commands)


_HEX = re.compile(rb"[0-9A-Fa-f]{1,2}")
_NUMBERS = {ord("o"): (re.compile(rb"[0-7]{1,3}"), 8), ord("d"): (re.compile(rb"[0-9]{1,3}"), 10)}
_ESCAPED = {ord("n"): 10, ord("t"): 9, ord("r"): 13, ord("f"): 12, ord("v"): 11, ord("a"): 7}


def _unescape(data: bytes) -> bytes:
    out = bytearray()
    i = 0
    while i < len(data):
        c = data[i]
        if c == 0x5C and i + 1 < len(data):
            nxt = data[i + 1]
            out.append(_ESCAPED.get(nxt, nxt))
            i += 2
        else:
            out.append(c)
            i += 1
    return bytes(out)


def parse_replacement(data: bytes, gnu: bool = False) -> Replacement:
    """`&` the match, `\\0`-`\\9` groups, `\\L \\U \\l \\u \\E` case, `\\n \\t` ..., `\\&` literal."""
    parts: list[tuple[str, object]] = []
    literal = bytearray()

    def flush() -> None:
        if literal:
            parts.append(("lit", bytes(literal)))
            literal.clear()

    i = 0
    while i < len(data):
        c = data[i]
        i += 1
        if c == ord("&"):
            flush()
            parts.append(("group", 0))
        elif c == 0x5C and i < len(data):
            nxt = data[i]
            i += 1
            if 48 <= nxt <= 57:
                flush()
                parts.append(("group", nxt - 48))
            elif chr(nxt) in "LUElu":
                flush()
                parts.append(("case", chr(nxt)))
            elif nxt == ord("x") and _HEX.match(data, i):
                digits = _HEX.match(data, i).group(0)
                literal.append(int(digits, 16))
                i += len(digits)
            elif gnu and nxt in _NUMBERS and _NUMBERS[nxt][0].match(data, i):
                digits = _NUMBERS[nxt][0].match(data, i).group(0)
                literal.append(int(digits, _NUMBERS[nxt][1]) & 0xFF)
                i += len(digits)
            elif gnu and nxt == ord("c") and i < len(data):
                control = data[i]
                literal.append(control - 32 ^ 0x40 if 97 <= control <= 122 else control ^ 0x40)
                i += 1
            else:
                literal.append(_ESCAPED.get(nxt, nxt))
        else:
            literal.append(c)
    flush()
    return Replacement(parts, gnu)
