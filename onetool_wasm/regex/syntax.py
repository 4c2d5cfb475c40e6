"""POSIX regular expressions (GNU flavour) parsed into a small syntax tree.

The parser reads a pattern as BYTES (C locale: one byte is one character) in one of
two syntaxes, as GNU grep and sed read them:

* basic (BRE): `\\( \\)` group, `\\{m,n\\}` interval, `\\|` `\\+` `\\?` (GNU extensions);
  `* + ? { } ( ) |` are literals; `*` is literal at the start of an expression,
  `^` is an anchor only at the start of an expression, `$` only at its end.
* extended (ERE): `( ) { } | * + ?` are operators; a `{` that does not start a valid
  interval is a literal, a quantifier with nothing before it applies to the empty string.

Both know bracket expressions (`[a-z]`, `[^...]`, `[[:alpha:]]`, `[[=a=]]`, `[[.a.]]`,
backslash literal inside), back-references `\\1`..`\\9`, and GNU's `\\w \\W \\s \\S \\b \\B
\\< \\> \\` \\'`. With `sed_escapes`, `\\n \\t \\r \\f \\v \\a \\xHH \\dNNN \\oNNN \\cX` name bytes.
Errors carry GNU's wording ("Unmatched ( or \\(", "Invalid back reference", ...).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

RE_DUP_MAX = 32767
MAX_NESTING = 50  # nested groups; deeper patterns would exhaust the recursion limit (Pyodide's too)
MAX_STACKED = 8  # quantifiers stacked on one atom that cannot be merged (`a{2}{3}{4}...`)


class RegexError(ValueError):
    """An invalid or refused pattern; the message is meant for the user."""


@dataclass(frozen=True)
class Lit:
    byte: int


@dataclass(frozen=True)
class AnyByte:
    pass


@dataclass(frozen=True)
class ByteSet:
    members: frozenset[int]
    negated: bool = False


@dataclass(frozen=True)
class Assert:
    # "^" "$" line/space anchors, "`" "'" buffer anchors, "b" "B" word boundary,
    # "<" ">" word start/end, "nwb"/"nwa": no word byte before/after (grep -w).
    kind: str


@dataclass(frozen=True)
class Group:
    index: int
    body: "Node"


@dataclass(frozen=True)
class Concat:
    items: tuple["Node", ...]


@dataclass(frozen=True)
class Alt:
    branches: tuple["Node", ...]


@dataclass(frozen=True)
class Repeat:
    body: "Node"
    min: int
    max: int | None


@dataclass(frozen=True)
class Backref:
    index: int


Node = Union[Lit, AnyByte, ByteSet, Assert, Group, Concat, Alt, Repeat, Backref]
EMPTY = Concat(())


def _span(first: int, last: int) -> frozenset[int]:
    return frozenset(range(first, last + 1))


WORD_BYTES = _span(48, 57) | _span(65, 90) | _span(97, 122) | {95}
SPACE_BYTES = frozenset(b" \t\n\v\f\r")
CLASSES: dict[bytes, frozenset[int]] = {
    b"alpha": _span(65, 90) | _span(97, 122),
    b"digit": _span(48, 57),
    b"alnum": _span(48, 57) | _span(65, 90) | _span(97, 122),
    b"upper": _span(65, 90),
    b"lower": _span(97, 122),
    b"space": SPACE_BYTES,
    b"blank": frozenset(b" \t"),
    b"punct": _span(33, 47) | _span(58, 64) | _span(91, 96) | _span(123, 126),
    b"print": _span(32, 126),
    b"graph": _span(33, 126),
    b"cntrl": _span(0, 31) | {127},
    b"xdigit": _span(48, 57) | _span(65, 70) | _span(97, 102),
}
_ESCAPE_SETS = {ord("w"): ByteSet(WORD_BYTES), ord("W"): ByteSet(WORD_BYTES, True),
                ord("s"): ByteSet(SPACE_BYTES), ord("S"): ByteSet(SPACE_BYTES, True)}
_ESCAPE_ASSERTS = {ord(c): Assert(c) for c in "bB<>`'"}
_SED_BYTES = {ord("n"): 10, ord("t"): 9, ord("r"): 13, ord("f"): 12, ord("v"): 11, ord("a"): 7}
_SED_NUMBERS = {ord("x"): (16, 2, b"0123456789abcdefABCDEF"), ord("d"): (10, 3, b"0123456789"),
                ord("o"): (8, 3, b"01234567")}
_ERE_INTERVAL = re.compile(rb"(\d*)(,(\d*))?\}")


@dataclass(frozen=True)
class Parsed:
    node: Node
    groups: int  # capturing groups numbered first_group .. first_group + groups - 1


def literal_node(data: bytes) -> Node:
    """A node matching exactly these bytes (grep -F)."""
    return Concat(tuple(Lit(b) for b in data))


def parse(pattern: bytes, *, extended: bool, sed_escapes: bool = False, grep_class_check: bool = False,
          first_group: int = 1) -> Parsed:
    """Parse one POSIX pattern; raise RegexError with GNU's message when it is invalid."""
    parser = _Parser(pattern, extended, sed_escapes, grep_class_check, first_group)
    node = parser.alternation(depth=0)
    return Parsed(node, parser.next_group - first_group)


class _Parser:
    def __init__(self, pattern: bytes, extended: bool, sed_escapes: bool, grep_class_check: bool,
                 first_group: int) -> None:
        self.p = pattern
        self.i = 0
        self.ere = extended
        self.sed = sed_escapes
        self.class_check = grep_class_check
        self.first_group = self.next_group = first_group
        self.closed: set[int] = set()
        self.depth = 0

    # -- structure -----------------------------------------------------------------
    def alternation(self, depth: int) -> Node:
        branches = [self.branch(depth)]
        while self._at_alt():
            self.i += 1 if self.ere else 2
            branches.append(self.branch(depth))
        if len(branches) == 1:
            return branches[0]
        merged = _single_byte_union(branches)
        return merged if merged is not None else Alt(tuple(branches))

    def branch(self, depth: int) -> Node:
        items: list[Node] = []
        while self.i < len(self.p) and not self._at_alt() and not self._at_close(depth):
            # BRE: `*` (and `\{ \+ \?`) is a literal first in an expression or after a leading `^`.
            literal_star = not items or items == [Assert("^")]
            piece = self.piece(at_start=not items, literal_star=literal_star)
            if piece is not None:
                items.append(piece)
        if depth == 0 and self.i < len(self.p) and not self._at_alt():
            raise RegexError("Unmatched ) or \\)")
        return items[0] if len(items) == 1 else Concat(tuple(items))

    def _at_alt(self) -> bool:
        if self.ere:
            return self._peek() == b"|"
        return self.p.startswith(b"\\|", self.i)

    def _at_close(self, depth: int) -> bool:
        if self.ere:
            return depth > 0 and self._peek() == b")"
        return self.p.startswith(b"\\)", self.i)

    def _peek(self, offset: int = 0) -> bytes:
        return self.p[self.i + offset:self.i + offset + 1]

    # -- pieces: an atom and its quantifiers ------------------------------------------
    def piece(self, at_start: bool, literal_star: bool) -> Node | None:
        atom = self.atom(at_start, literal_star)
        if atom is None:
            return None
        if not self.ere and atom == Assert("^"):
            return atom  # BRE `^*`: the star that follows is a literal
        stacked = 0
        while True:
            bounds = self.quantifier()
            if bounds is None:
                return atom
            atom = _repeat(atom, *bounds)
            stacked += 1
            if stacked > MAX_STACKED and isinstance(atom, Repeat) and isinstance(atom.body, Repeat):
                raise RegexError("Regular expression too big")

    def quantifier(self) -> tuple[int, int | None] | None:
        c = self._peek()
        if c == b"*":
            self.i += 1
            return 0, None
        if self.ere:
            if c in (b"+", b"?"):
                self.i += 1
                return (1, None) if c == b"+" else (0, 1)
            if c == b"{":
                return self._ere_interval()
            return None
        two = self.p[self.i:self.i + 2]
        if two in (b"\\+", b"\\?"):
            self.i += 2
            return (1, None) if two == b"\\+" else (0, 1)
        if two == b"\\{":
            self.i += 2
            return self._bre_interval()
        return None

    def _ere_interval(self) -> tuple[int, int | None] | None:
        found = _ERE_INTERVAL.match(self.p, self.i + 1)
        if found is None or (not found.group(1) and not found.group(2)):
            return None  # not an interval: the `{` is a literal (GNU)
        self.i = found.end()
        return _bounds(found.group(1), found.group(2), found.group(3))

    def _bre_interval(self) -> tuple[int, int | None]:
        end = self.p.find(b"\\}", self.i)
        if end < 0:
            raise RegexError("Unmatched \\{")
        found = re.fullmatch(rb"(\d*)(,(\d*))?", self.p[self.i:end])
        if found is None or (not found.group(1) and not found.group(2)):
            raise RegexError("Invalid content of \\{\\}")
        self.i = end + 2
        return _bounds(found.group(1), found.group(2), found.group(3))

    # -- atoms ---------------------------------------------------------------------
    def atom(self, at_start: bool, literal_star: bool) -> Node | None:
        c = self.p[self.i]
        if c == 0x5C:  # backslash
            return self.escape(literal_star)
        if c == 0x5B:  # [
            self.i += 1
            return self.bracket()
        self.i += 1
        if c == 0x2E:  # .
            return AnyByte()
        if c == 0x5E and (self.ere or at_start):  # ^
            return Assert("^")
        if c == 0x24 and (self.ere or self._at_bre_end()):  # $
            return Assert("$")
        if self.ere:
            return self._ere_special(c)
        return Lit(c)

    def _at_bre_end(self) -> bool:
        rest = self.p[self.i:]
        return not rest or rest.startswith(b"\\)") or rest.startswith(b"\\|")

    def _ere_special(self, c: int) -> Node | None:
        if c == 0x28:  # (
            return self.group()
        if c in b"*+?":  # nothing to repeat: applies to the empty string (GNU)
            return None
        if c == 0x7B:  # {
            self.i -= 1
            if self._ere_interval() is not None:
                return None
            self.i += 1
        return Lit(c)

    def group(self) -> Node:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise RegexError(f"Regular expression too big (more than {MAX_NESTING} nested groups)")
        index = self.next_group
        self.next_group += 1
        body = self.alternation(depth=1)
        if self.ere and self._peek() == b")":
            self.i += 1
        elif not self.ere and self.p.startswith(b"\\)", self.i):
            self.i += 2
        else:
            raise RegexError("Unmatched ( or \\(")
        self.closed.add(index)
        self.depth -= 1
        return Group(index, body)

    def escape(self, literal_star: bool) -> Node | None:
        if self.i + 1 >= len(self.p):
            raise RegexError("Trailing backslash")
        c = self.p[self.i + 1]
        self.i += 2
        if not self.ere:
            if c == 0x28:  # \(
                return self.group()
            if c == 0x7B and literal_star:  # \{ with nothing to repeat: a literal
                return Lit(c)
            if c == 0x7B:
                raise RegexError("Invalid preceding regular expression")
            if c in b"+?" and literal_star:
                return Lit(c)
        if 0x31 <= c <= 0x39:
            return self.backref(c - 0x30)
        if c in _ESCAPE_SETS:
            return _ESCAPE_SETS[c]
        if c in _ESCAPE_ASSERTS:
            return _ESCAPE_ASSERTS[c]
        if self.sed:
            return self._sed_escape(c)
        return Lit(c)

    def backref(self, number: int) -> Node:
        index = number + self.first_group - 1  # `\1` is this pattern's first group
        if index not in self.closed:
            raise RegexError("Invalid back reference")
        return Backref(index)

    def _sed_escape(self, c: int) -> Node:
        if c in _SED_BYTES:
            return Lit(_SED_BYTES[c])
        if c == 0x63 and self.i < len(self.p):  # \cX: control character
            self.i += 1
            return Lit(self.p[self.i - 1] & 0x1F if self.p[self.i - 1] < 0x80 else self.p[self.i - 1])
        if c in _SED_NUMBERS:
            base, width, digits = _SED_NUMBERS[c]
            end = self.i
            while end < len(self.p) and end - self.i < width and self.p[end] in digits:
                end += 1
            if end > self.i:
                value = int(self.p[self.i:end], base) & 0xFF
                self.i = end
                return Lit(value)
        return Lit(c)

    # -- bracket expressions -----------------------------------------------------------
    def bracket(self) -> Node:
        start = self.i
        negated = self._peek() == b"^"
        if negated:
            self.i += 1
        members: set[int] = set()
        first = True
        while True:
            if self.i >= len(self.p):
                raise RegexError("Unmatched [, [^, [:, [., or [=")
            c = self.p[self.i]
            if c == 0x5D and not first:  # ]
                self.i += 1
                break
            first = False
            low, named = self._bracket_item(members)
            if named or low is None:
                continue
            if self._peek() == b"-" and self.p[self.i + 1:self.i + 2] not in (b"]", b""):
                self.i += 1
                high, named = self._bracket_item(set())
                if named or high is None:
                    raise RegexError("Invalid range end")
                if high < low:
                    raise RegexError("Invalid range end")
                members.update(range(low, high + 1))
            else:
                members.add(low)
        content = self.p[start:self.i - 1]
        if self.class_check and len(content) >= 2 and content[:1] == b":" and content[-1:] == b":":
            raise RegexError("character class syntax is [[:space:]], not [:space:]")
        return ByteSet(frozenset(members), negated)

    def _bracket_item(self, members: set[int]) -> tuple[int | None, bool]:
        """One member: (byte, False) for a byte usable in a range, (None, True) for a class."""
        c = self.p[self.i]
        if c == 0x5B and self.p[self.i + 1:self.i + 2] in (b":", b"=", b"."):
            kind = self.p[self.i + 1:self.i + 2]
            end = self.p.find(kind + b"]", self.i + 2)
            if end < 0:
                raise RegexError("Unmatched [, [^, [:, [., or [=")
            name = self.p[self.i + 2:end]
            self.i = end + 2
            if kind == b":":
                if name not in CLASSES:
                    raise RegexError("Invalid character class name")
                members.update(CLASSES[name])
                return None, True
            if len(name) != 1:
                raise RegexError("Invalid collation character")
            return name[0], False
        if c == 0x5C and self.sed and self.p[self.i + 1:self.i + 2] and self.p[self.i + 1] in _SED_BYTES:
            self.i += 2  # GNU sed reads `[\n]` `[\t]` as newline and tab (grep: backslash, n)
            return _SED_BYTES[self.p[self.i - 1]], False
        self.i += 1
        return c, False


def _bounds(low: bytes, comma: bytes | None, high: bytes | None) -> tuple[int, int | None]:
    minimum = int(low) if low else 0
    maximum: int | None = minimum if comma is None else (int(high) if high else None)
    if minimum > RE_DUP_MAX or (maximum is not None and maximum > RE_DUP_MAX):
        raise RegexError("Regular expression too big")
    if maximum is not None and maximum < minimum:
        raise RegexError("Invalid content of \\{\\}")
    return minimum, maximum


def _single_byte_union(branches: list[Node]) -> ByteSet | None:
    """`a|b|[cd]` is the set [abcd]: one byte, no alternatives to backtrack over."""
    members: set[int] = set()
    any_byte = False
    for branch in branches:
        if isinstance(branch, Lit):
            members.add(branch.byte)
        elif isinstance(branch, AnyByte):
            any_byte = True  # every other branch must still be one byte (`.|ab` is not)
        elif isinstance(branch, ByteSet):
            members.update(set(range(256)) - branch.members if branch.negated else branch.members)
        else:
            return None
    return ByteSet(frozenset(), True) if any_byte else ByteSet(frozenset(members))


def _repeat(atom: Node, minimum: int, maximum: int | None) -> Node:
    if isinstance(atom, Assert):  # ERE `^*`: an anchor repeated is the anchor or nothing
        return atom if minimum > 0 else EMPTY
    if isinstance(atom, Repeat) and _simple(atom.min, atom.max) and _simple(minimum, maximum):
        # `a**`, `a+?`, `a?+`: stacked *, +, ? make one repeat (same language, no nesting)
        unbounded = atom.max is None or maximum is None
        return Repeat(atom.body, atom.min * minimum, None if unbounded else 1)
    return Repeat(atom, minimum, maximum)


def _simple(minimum: int, maximum: int | None) -> bool:
    return minimum <= 1 and (maximum is None or maximum == 1)
