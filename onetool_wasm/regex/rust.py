"""ripgrep's regular expressions (Rust `regex` syntax) read into the project's syntax tree.

The tree (syntax.py nodes) is compiled by posix.Regex, so rg gets the same guard
against catastrophic backtracking as grep and sed: ambiguous nesting runs on the linear
engine. Patterns and data are bytes; classes such as `\\w`, `\\d`, `\\s` and case folding
are ASCII (rg's Unicode classes agree on ASCII text). Case-insensitivity is applied while
parsing (a letter becomes a two-byte set), so inline `(?i)` works on part of a pattern.

Not expressible, and refused with ripgrep's own messages: look-around and
back-references (rg needs -P for them), a literal newline without -U. Lazy quantifiers
(`*?`) are honoured by `re`; a pattern that needs the linear engine (nested repetition)
reads them as greedy ones (the lines selected are the same, only -o/-r spans can differ).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .posix import _MULTILINE_ASSERTS, Regex, _compile_python, _Emitter
from .syntax import Alt, Assert, ByteSet, Concat, Group, Lit, Node, RegexError, Repeat

MAX_REPEAT = 1_000_000  # larger counts would build huge programs; refused with a message
MAX_DEPTH = 50

_DIGITS = frozenset(range(48, 58))
_UPPER = frozenset(range(65, 91))
_LOWER = frozenset(range(97, 123))
_WORD = _DIGITS | _UPPER | _LOWER | {95}
_SPACE = frozenset(b" \t\n\r\f\v")
_ALL = frozenset(range(256))
_NON_ASCII = frozenset(range(128, 256))
_ASCII = frozenset(range(128))
_CONT = ByteSet(frozenset(range(0x80, 0xC0)))
# The UTF-8 encodings of one non-ASCII character: a lead byte and its continuation bytes.
_MULTIBYTE = (Concat((ByteSet(frozenset(range(0xC2, 0xE0))), _CONT)),
              Concat((ByteSet(frozenset(range(0xE0, 0xF0))), Repeat(_CONT, 2, 2))),
              Concat((ByteSet(frozenset(range(0xF0, 0xF5))), Repeat(_CONT, 3, 3))))
_POSIX = {
    "alpha": _UPPER | _LOWER, "digit": _DIGITS, "alnum": _UPPER | _LOWER | _DIGITS, "upper": _UPPER,
    "lower": _LOWER, "space": _SPACE, "blank": frozenset(b" \t"), "word": _WORD,
    "punct": frozenset(b for b in range(33, 127) if not chr(b).isalnum()),
    "xdigit": _DIGITS | frozenset(b"abcdefABCDEF"), "cntrl": frozenset(range(32)) | {127},
    "print": frozenset(range(32, 127)), "graph": frozenset(range(33, 127)), "ascii": frozenset(range(128)),
}
_PERL = {"d": _DIGITS, "w": _WORD, "s": _SPACE}
_SIMPLE_ESCAPES = {"n": 10, "t": 9, "r": 13, "f": 12, "v": 11, "a": 7, "e": 27}
LOOK_AROUND = ("look-around, including look-ahead and look-behind, is not supported; "
               "rewrite the pattern without it (rg needs -P for look-around)")
BACKREF = "backreferences are not supported; rewrite the pattern without them (rg needs -P for them)"


@dataclass(frozen=True)
class LazyRepeat(Repeat):
    """`x*?`: as few as possible. Every consumer of Repeat reads it as a repeat."""


class _LazyEmitter(_Emitter):
    def _repeat(self, node: Repeat) -> str:
        text = super()._repeat(node)
        return text + "?" if isinstance(node, LazyRepeat) else text


class RustRegex(Regex):
    """A Regex whose spans honour lazy quantifiers (the line scan needs no change: a lazy
    repeat selects the same lines). Its spans are `re`'s leftmost-first ones, as Rust's
    regex gives, except for nested repetition (leftmost-longest, from the linear engine)."""

    _linear_spans = False

    def __init__(self, node: Node, groups: int, lazy: bool) -> None:
        super().__init__(node, groups, False, multiline=True, longest_first=True)
        if lazy:
            self.python = _compile_python(_LazyEmitter(_MULTILINE_ASSERTS, buffer_mode=False).emit(node),
                                          self._flags)


@dataclass
class _Flags:
    ignore_case: bool = False
    dot_all: bool = False
    verbose: bool = False


@dataclass
class Parsed:
    node: Node
    groups: int
    names: dict[str, int] = field(default_factory=dict)
    has_upper: bool = False
    lazy: bool = False


def _fold(members: frozenset[int]) -> frozenset[int]:
    return members | {b ^ 0x20 for b in members if 65 <= b <= 90 or 97 <= b <= 122}


class _Parser:
    def __init__(self, pattern: str, ignore_case: bool, multiline: bool, first_group: int,
                 names: dict[str, int], unicode: bool = True) -> None:
        self.text = pattern
        self.unicode = unicode
        self.pos = 0
        self.multiline = multiline
        self.next_group = first_group
        self.names = names
        self.has_upper = False
        self.lazy = False
        self.flags = _Flags(ignore_case=ignore_case)

    # -- helpers ----------------------------------------------------------------------
    def peek(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.text[index] if index < len(self.text) else ""

    def fail(self, message: str) -> RegexError:
        return RegexError(message)

    def literal(self, char: str) -> Node:
        data = char.encode("utf-8", "surrogateescape")
        if char.isupper():
            self.has_upper = True
        if data == b"\n" and not self.multiline:
            raise self.fail(NEWLINE)
        nodes = [self.byte(b) for b in data]
        return nodes[0] if len(nodes) == 1 else Concat(tuple(nodes))

    def byte(self, value: int) -> Node:
        if self.flags.ignore_case and (65 <= value <= 90 or 97 <= value <= 122):
            return ByteSet(frozenset((value, value ^ 0x20)))
        return Lit(value)

    def codepoint(self, ascii_members: frozenset[int]) -> Node:
        """One character: an ASCII byte of the set, or any whole UTF-8 sequence (so `.`
        takes "é" as one character, as Rust's regex does). For ASCII-only data a plain byte
        set is enough, and `re` runs it much faster."""
        if not self.unicode:
            return self.byteset(ascii_members)
        return Alt((self.byteset(ascii_members), *_MULTIBYTE))

    def byteset(self, members: frozenset[int], negated: bool = False) -> Node:
        if self.flags.ignore_case:
            members = _fold(members)
        if negated:
            members = _ALL - members
        if not self.multiline:
            members = members - {10}
        return ByteSet(frozenset(members))

    # -- grammar ----------------------------------------------------------------------
    def alternation(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise self.fail("pattern nests too deeply; simplify it")
        saved = _Flags(**vars(self.flags))
        branches = [self.concat(depth)]
        while self.peek() == "|":
            self.pos += 1
            branches.append(self.concat(depth))
        self.flags = saved
        return branches[0] if len(branches) == 1 else Alt(tuple(branches))

    def concat(self, depth: int) -> Node:
        items: list[Node] = []
        while self.pos < len(self.text) and self.peek() not in "|)":
            if self.flags.verbose and self.skip_verbose():
                continue
            atom = self.atom(depth)
            if atom is None:
                continue
            items.append(self.quantified(atom))
        return items[0] if len(items) == 1 else Concat(tuple(items))

    def skip_verbose(self) -> bool:
        char = self.peek()
        if char.isspace():
            self.pos += 1
            return True
        if char == "#":
            end = self.text.find("\n", self.pos)
            self.pos = len(self.text) if end < 0 else end + 1
            return True
        return False

    def quantified(self, atom: Node) -> Node:
        while True:
            char = self.peek()
            if char in ("*", "+", "?"):
                self.pos += 1
                low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[char]
            elif char == "{" and (bounds := self.counted()) is not None:
                low, high = bounds
            else:
                return atom
            lazy = self.peek() == "?"
            if lazy:
                self.pos += 1
                self.lazy = True
            if isinstance(atom, Assert):
                raise self.fail("repetition operator missing expression")
            atom = (LazyRepeat if lazy else Repeat)(atom, low, high)

    def counted(self) -> tuple[int, int | None] | None:
        end = self.text.find("}", self.pos)
        if end < 0:
            raise self.fail("unclosed counted repetition")
        body = self.text[self.pos + 1:end].replace(" ", "")
        low_text, comma, high_text = body.partition(",")
        if not low_text.isdigit() or (high_text and not high_text.isdigit()):
            raise self.fail("invalid counted repetition")
        low = int(low_text)
        high = (int(high_text) if high_text else None) if comma else low
        if high is not None and low > high:
            raise self.fail("invalid repetition count range, the start must be <= the end")
        if max(low, high or 0) > MAX_REPEAT:
            raise self.fail(f"repetition count is larger than {MAX_REPEAT}; use a smaller count")
        self.pos = end + 1
        return low, high

    def atom(self, depth: int) -> Node | None:
        char = self.peek()
        self.pos += 1
        if char == "(":
            return self.group(depth)
        if char == "[":
            return self.bracket()
        if char == ".":
            return self.codepoint(_ASCII if self.flags.dot_all else _ASCII - {10})
        if char == "^":
            return Assert("^")
        if char == "$":
            return Assert("$")
        if char == "\\":
            return self.escape()
        if char in "*+?":
            raise self.fail("repetition operator missing expression")
        return self.literal(char)

    def group(self, depth: int) -> Node | None:
        index: int | None = None
        outer = _Flags(**vars(self.flags))
        if self.peek() == "?":
            self.pos += 1
            if self.peek() in ("=", "!") or self.text.startswith(("<=", "<!"), self.pos):
                raise self.fail(LOOK_AROUND)
            if self.text.startswith(("P<", "<"), self.pos):
                self.pos += 2 if self.peek() == "P" else 1
                end = self.text.find(">", self.pos)
                if end < 0:
                    raise self.fail("unclosed capture group name")
                name = self.text[self.pos:end]
                self.pos = end + 1
                index = self.new_group()
                self.names[name] = index
            elif self.set_flags():
                return None  # `(?i)`: flags for the rest of the group
        else:
            index = self.new_group()
        body = self.alternation(depth + 1)
        self.flags = outer
        if self.peek() != ")":
            raise self.fail("unclosed group")
        self.pos += 1
        return Group(index, body) if index is not None else body

    def new_group(self) -> int:
        index = self.next_group
        self.next_group += 1
        return index

    def set_flags(self) -> bool:
        """`(?flags)` (True: nothing follows) or `(?flags:` (False: a group's body follows)."""
        on = True
        while True:
            char = self.peek()
            self.pos += 1
            if char == ")":
                return True
            if char == ":":
                return False
            if char == "-":
                on = False
            elif char == "i":
                self.flags.ignore_case = on
            elif char == "s":
                self.flags.dot_all = on
            elif char == "x":
                self.flags.verbose = on
            elif char in ("m", "U", "u"):
                pass  # ^/$ already see lines; swap-greed and Unicode change nothing here
            else:
                raise self.fail("unrecognized flag" if char else "unclosed group")

    def escape(self) -> Node:
        char = self.peek()
        self.pos += 1
        if not char:
            raise self.fail("incomplete escape sequence, reached end of pattern prematurely")
        if char.isdigit():
            raise self.fail(BACKREF)
        if char in ("w", "S"):  # Unicode: any non-ASCII character counts as a word / non-space
            return self.codepoint(_PERL[char.lower()] if char == "w" else _ASCII - _SPACE)
        if char in _PERL or char.lower() in _PERL:
            members = _PERL[char.lower()]
            return self.byteset((_ASCII - members) if char.isupper() else members)
        if char in "pP":
            return self.byteset(self.unicode_class(), negated=char == "P")
        if char == "b":
            return Assert("b")
        if char == "B":
            return Assert("B")
        if char == "A":
            return Assert("`")
        if char == "z":
            return Assert("'")
        if char in ("<", ">"):
            return Assert(char)
        code = self.escape_code(char)
        if code is not None:
            return self.literal(chr(code))
        if char.isalnum():
            raise self.fail("unrecognized escape sequence")
        return self.literal(char)

    def escape_code(self, char: str) -> int | None:
        if char in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[char]
        if char in ("x", "u", "U"):
            if self.peek() == "{":
                end = self.text.find("}", self.pos)
                digits = self.text[self.pos + 1:end] if end > 0 else ""
                self.pos = end + 1 if end > 0 else self.pos
            else:
                width = {"x": 2, "u": 4, "U": 8}[char]
                digits = self.text[self.pos:self.pos + width]
                self.pos += len(digits)
            try:
                value = int(digits, 16)
            except ValueError:
                raise self.fail("invalid hexadecimal escape") from None
            if value > 0x10FFFF:
                raise self.fail("invalid Unicode scalar value in escape")
            return value
        return None

    def unicode_class(self) -> frozenset[int]:
        """`\\pL`, `\\p{Letter}`...: the ASCII members, plus every non-ASCII byte for the
        letter-like classes (a UTF-8 letter is made of such bytes)."""
        if self.peek() == "{":
            end = self.text.find("}", self.pos)
            if end < 0:
                raise self.fail("unclosed Unicode class")
            name = self.text[self.pos + 1:end]
            self.pos = end + 1
        else:
            name = self.peek()
            self.pos += 1
        key = name.replace("_", "").replace(" ", "").lower()
        if key in ("l", "letter", "alphabetic", "alpha"):
            return _UPPER | _LOWER | _NON_ASCII
        if key in ("lu", "uppercaseletter", "uppercase"):
            return _UPPER
        if key in ("ll", "lowercaseletter", "lowercase"):
            return _LOWER
        if key in ("n", "nd", "number", "digit", "decimalnumber"):
            return _DIGITS
        if key in ("p", "punctuation"):
            return _POSIX["punct"]
        if key in ("z", "zs", "whitespace", "separator"):
            return _SPACE
        if key in ("ascii",):
            return _POSIX["ascii"]
        raise self.fail("Unicode property not found; use an ASCII class such as [a-z]")

    # -- bracket classes ---------------------------------------------------------------
    def bracket(self) -> Node:
        negated = self.peek() == "^"
        if negated:
            self.pos += 1
        members = self.class_items()
        return self.byteset(members, negated)

    def class_items(self, nested: bool = False) -> frozenset[int]:
        """The members up to the closing `]` (consumed); `nested`: the right side of
        `&&`/`--`/`~~`, where a `]` may come first."""
        members: set[int] = set()
        first = not nested
        while True:
            char = self.peek()
            if not char:
                raise self.fail("unclosed character class")
            if char == "]" and not first:
                self.pos += 1
                return frozenset(members)
            first = False
            if self.text.startswith(("&&", "--", "~~"), self.pos):
                operator = self.text[self.pos:self.pos + 2]
                self.pos += 2
                other = self.class_items(nested=True)
                if operator == "&&":
                    return frozenset(members) & other
                if operator == "--":
                    return frozenset(members) - other
                return frozenset(members) ^ other
            if char == "[" and self.peek(1) == ":":
                end = self.text.find(":]", self.pos)
                name = self.text[self.pos + 2:end] if end > 0 else ""
                negate = name.startswith("^")
                if name.lstrip("^") not in _POSIX:
                    raise self.fail("invalid character class")
                found = _POSIX[name.lstrip("^")]
                members |= (_ALL - found) if negate else found
                self.pos = end + 2
                continue
            if char == "[":
                self.pos += 1
                inner_negated = self.peek() == "^"
                self.pos += 1 if inner_negated else 0
                inner = self.class_items()
                members |= (_ALL - inner) if inner_negated else inner
                continue
            low = self.class_char()
            if isinstance(low, frozenset):
                members |= low
                continue
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.pos += 1
                high = self.class_char()
                if isinstance(high, frozenset) or high < low:
                    raise self.fail("invalid character class range, the start must be <= the end")
                members |= self.char_range(low, high)
            else:
                members |= self.char_range(low, low)

    def char_range(self, low: int, high: int) -> set[int]:
        if high < 128:
            return set(range(low, high + 1))
        # Non-ASCII code points: their UTF-8 bytes (an approximation in the C locale).
        found: set[int] = set(range(low, min(high, 127) + 1))
        for code in (low, high):
            found |= set(chr(code).encode("utf-8", "surrogatepass"))
        return found | set(range(0x80, 0xC0)) if high - low > 1 and high >= 128 else found

    def class_char(self) -> int | frozenset[int]:
        char = self.peek()
        self.pos += 1
        if char.isupper():
            self.has_upper = True
        if char != "\\":
            return ord(char)
        escaped = self.peek()
        self.pos += 1
        if not escaped:
            raise self.fail("unclosed character class")
        if escaped.lower() in _PERL:
            found = _PERL[escaped.lower()]
            return (_ALL - found) if escaped.isupper() else found
        code = self.escape_code(escaped)
        return code if code is not None else ord(escaped)


NEWLINE = ("the literal '\"\\n\"' is not allowed in a regex; use -U (--multiline) to match "
           "across lines")


def parse_rust(pattern: str, ignore_case: bool, multiline: bool, first_group: int = 1,
               names: dict[str, int] | None = None, unicode: bool = True) -> Parsed:
    """One pattern in Rust syntax; raises RegexError with ripgrep's meaning."""
    names = {} if names is None else names
    parser = _Parser(pattern, ignore_case, multiline, first_group, names, unicode)
    node = parser.alternation(0)
    if parser.pos < len(pattern):
        raise RegexError("unopened group")
    return Parsed(node, parser.next_group - first_group, names, parser.has_upper, parser.lazy)


def has_uppercase(patterns: list[str], fixed: bool) -> bool:
    """Smart case (-S): a pattern with an uppercase letter is searched case-sensitively."""
    if fixed:
        return any(char.isupper() for pattern in patterns for char in pattern)
    for pattern in patterns:
        try:
            if parse_rust(pattern, False, True).has_upper:
                return True
        except RegexError:
            return True  # the real compile reports the error
    return False


@dataclass
class RgRegex:
    """The compiled patterns: `regex` reads UTF-8 characters, `ascii` the same pattern for
    ASCII-only data (faster: `.` is one byte set, not an alternation)."""
    regex: Regex
    names: dict[str, int]
    ascii: Regex

    def for_data(self, data: bytes) -> "RgRegex":
        """The variant to search this data with."""
        return RgRegex(self.ascii, self.names, self.ascii) if data.isascii() else self


def compile_rg(patterns: list[str], *, fixed: bool, ignore_case: bool, word: bool, line: bool,
               multiline: bool) -> RgRegex:
    """rg's patterns as one expression (any pattern matches), with -w and -x applied."""
    full, names = _compile(patterns, fixed, ignore_case, word, line, multiline, True)
    ascii_only, _ = _compile(patterns, fixed, ignore_case, word, line, multiline, False)
    return RgRegex(full, names, ascii_only)


def _compile(patterns: list[str], fixed: bool, ignore_case: bool, word: bool, line: bool, multiline: bool,
             unicode: bool) -> tuple[Regex, dict[str, int]]:
    branches: list[Node] = []
    names: dict[str, int] = {}
    groups = 0
    lazy = False
    for pattern in patterns:
        if fixed:
            parser = _Parser("", ignore_case, multiline, 1, names)
            data = pattern.encode("utf-8", "surrogateescape")
            if b"\n" in data and not multiline:
                raise RegexError(NEWLINE)
            nodes = [parser.byte(b) for b in data]
            branches.append(Concat(tuple(nodes)))
            continue
        parsed = parse_rust(pattern, ignore_case, multiline, groups + 1, names, unicode)
        branches.append(parsed.node)
        groups += parsed.groups
        lazy = lazy or parsed.lazy
    if not branches:  # an empty -f file: nothing matches
        branches.append(ByteSet(frozenset()))
    node: Node = branches[0] if len(branches) == 1 else Alt(tuple(branches))
    if word:
        node = Concat((Assert("nwb"), node, Assert("nwa")))
    if line:
        node = Concat((Assert("^"), node, Assert("$")))
    return RustRegex(node, groups, lazy), names
