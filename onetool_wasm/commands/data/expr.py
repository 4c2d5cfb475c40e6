"""`expr`: evaluate an expression as GNU coreutils 9.1 `expr` does in the C locale.

The arguments are the tokens (`expr 1 + 2`, never `expr "1 + 2"`). From the loosest to the
tightest binding: `|`, `&`, the comparisons `< <= = == != >= >`, `+ -`, `* / %`, `:` (all
left-associative), then the prefix keywords `match STRING REGEXP`, `substr STRING POS
LENGTH`, `index STRING CHARS`, `length STRING`, `+ TOKEN` (TOKEN as a plain string), and
`( EXPRESSION )`. Integers (`-?[0-9]+`) have any size; a comparison is numeric when both
sides are integers, else byte order. `STRING : REGEXP` matches a GNU basic regular
expression (onetool_wasm.regex) anchored at the start of STRING and gives the text of the
first `\\(...\\)` group, or the length matched when there is no group. `|` and `&` do not
evaluate the side they skip (`expr 1 '|' 1 / 0` prints 1), but it must still parse.

The value is printed; the exit status is 0 when it is neither empty nor 0 (`0`, `-0`, `00`),
1 when it is, 2 for an invalid expression (syntax errors, `non-integer argument`, `division
by zero`, an invalid regular expression), 3 for other errors. Errors read as GNU's, words
quoted as GNU quotes them in the C locale ('a\\'b', '\\303\\251').

The parser is GNU's recursive descent (errors come in GNU's order: `expr 1 / 0 + )` is a
division by zero) with the binary levels folded into one precedence climber. Each nested
call (a parenthesis, a keyword's operand, the right operand of a tighter operator) costs
at most three Python frames, and more than MAX_DEPTH of them are refused with exit status 3
instead of exhausting the stack (Pyodide's is small): about 99 nested parentheses. Integers
longer than MAX_DIGITS digits are refused the same way (Python's decimal conversions are
quadratic); comparisons of integers of any length work on their digits.
"""
from __future__ import annotations

import functools
import re

from ...regex import Regex, RegexError
from ...regex.syntax import Assert, Concat, parse
from ...result import CommandResult, printable
from ..spec import CommandContext, CommandSpec

MAX_DEPTH = 100
MAX_DIGITS = 20_000
SIZE_MAX = 2 ** 64 - 1  # GNU's size_t: substr's positions and lengths saturate there

INVALID = 2  # EXPR_INVALID
FAILURE = 3  # EXPR_FAILURE

_INTEGER = re.compile(rb"-?[0-9]+")
_COMPARISONS = (b"<", b"<=", b"=", b"==", b"!=", b">=", b">")
_LEVELS = {b"|": 0, b"&": 1, **{op: 2 for op in _COMPARISONS}, b"+": 3, b"-": 3,
           b"*": 4, b"/": 4, b"%": 4, b":": 5}
_ESCAPES = {7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r",
            0x27: "\\'", 0x5C: "\\\\"}


class ExprError(Exception):
    """Ends the evaluation: GNU's message (without the `expr: ` prefix) and exit status."""

    def __init__(self, message: str, status: int = INVALID) -> None:
        super().__init__(message)
        self.status = status


# -- GNU's quoting (locale_quoting_style in the C locale) ------------------------------------------
def quote(word: bytes) -> str:
    parts = []
    for byte in word:
        if byte in _ESCAPES:
            parts.append(_ESCAPES[byte])
        elif 0x20 <= byte < 0x7F:
            parts.append(chr(byte))
        else:
            parts.append(f"\\{byte:03o}")
    return "'" + "".join(parts) + "'"


# -- values -------------------------------------------------------------------------------------
def _digits_to_int(digits: bytes) -> int:
    """int(digits) in pieces: Python refuses (3.11+) to convert over 4300 digits at once."""
    if len(digits) <= 4000:
        return int(digits)
    low = len(digits) // 2
    return _digits_to_int(digits[:-low]) * 10 ** low + _digits_to_int(digits[-low:])


def _int_to_digits(value: int) -> bytes:
    if value < 0:
        return b"-" + _int_to_digits(-value)
    if value.bit_length() <= 13_000:  # under 4000 decimal digits
        return str(value).encode("ascii")
    half = int(value.bit_length() * 0.30103) // 2
    high, low = divmod(value, 10 ** half)
    return _int_to_digits(high) + _int_to_digits(low).rjust(half, b"0")


def _check_size(value: int) -> int:
    if value.bit_length() > MAX_DIGITS * 3.33:
        raise ExprError(f"integer too large (this expr handles up to {MAX_DIGITS} digits)", FAILURE)
    return value


def to_bytes(value: int | bytes) -> bytes:
    return value if isinstance(value, bytes) else _int_to_digits(value)


def looks_like_integer(word: bytes) -> bool:
    return _INTEGER.fullmatch(word) is not None


def to_integer(value: int | bytes) -> int | None:
    """GNU's toarith: the integer, or None when the value is not one."""
    if isinstance(value, int):
        return value
    if not looks_like_integer(value):
        return None
    negative = value.startswith(b"-")
    digits = value.lstrip(b"-").lstrip(b"0") or b"0"
    if len(digits) > MAX_DIGITS:
        raise ExprError(f"integer too large (this expr handles up to {MAX_DIGITS} digits)", FAILURE)
    number = _digits_to_int(digits)
    return -number if negative else number


def is_null(value: int | bytes) -> bool:
    """Empty, or an optional `-` and zeros (`0`, `-0`, `000`)."""
    if isinstance(value, int):
        return value == 0
    if not value:
        return True
    body = value[1:] if value.startswith(b"-") else value
    return bool(body) and body.strip(b"0") == b""


def _integer_compare(left: bytes, right: bytes) -> int:
    """Compare two integer strings by value, without converting them (any length)."""
    def key(word: bytes) -> tuple[int, bytes]:
        negative = word.startswith(b"-")
        digits = word.lstrip(b"-").lstrip(b"0")
        return (-1 if negative and digits else 1), digits

    left_sign, left_digits = key(left)
    right_sign, right_digits = key(right)
    if left_sign != right_sign:
        return -1 if left_sign < right_sign else 1
    magnitude = (len(left_digits) > len(right_digits)) - (len(left_digits) < len(right_digits))
    if magnitude == 0:
        magnitude = (left_digits > right_digits) - (left_digits < right_digits)
    return magnitude * left_sign


def _size(value: int | bytes) -> int:
    """GNU's getsize for substr: SIZE_MAX when negative, SIZE_MAX - 1 when too big."""
    if isinstance(value, bytes):
        negative = value.startswith(b"-")
        digits = value.lstrip(b"-").lstrip(b"0")
        if not digits:
            return 0
        if negative:
            return SIZE_MAX
        if len(digits) > 20:
            return SIZE_MAX - 1
        value = int(digits)
    if value < 0:
        return SIZE_MAX
    return value if value < SIZE_MAX else SIZE_MAX - 1


# -- regular expressions ----------------------------------------------------------------------------
def _bracket_item(pattern: bytes, i: int) -> tuple[int | None, int]:
    """One member of a bracket expression at i, as regex.syntax reads it: (its byte, or None
    for a character class, a longer name or something unterminated; the index after it)."""
    if pattern[i:i + 1] == b"[" and pattern[i + 1:i + 2] in (b":", b"=", b"."):
        kind = pattern[i + 1:i + 2]
        end = pattern.find(kind + b"]", i + 2)
        if end < 0:
            return None, len(pattern)
        name = pattern[i + 2:end]
        byte = name[0] if kind != b":" and len(name) == 1 else None
        return byte, end + 2
    return pattern[i], i + 1


_ANCHOR_ESCAPES = frozenset(b"<>bB`'")
# After an anchor glibc reads no repetition: these become the literal bytes they spell.
_LITERAL_AFTER_ANCHOR = ((b"*", b"\\*"), (b"\\{", b"{"), (b"\\+", b"+"), (b"\\?", b"?"))


def glibc_pattern(pattern: bytes) -> tuple[bytes, bool, bool]:
    """The pattern rewritten where expr's glibc syntax (RE_SYNTAX_POSIX_BASIC without
    RE_CONTEXT_INVALID_DUP and RE_NO_EMPTY_RANGES) reads it otherwise than regex.syntax:
    * an empty range (`[z-a]`) is allowed and matches nothing: it becomes a NUL byte, which
      no argument can contain;
    * a `*`, `\\{`, `\\+` or `\\?` right after the anchors `\\< \\> \\b \\B \\` \\'` is a
      literal (regex.syntax already does so after `^`);
    * `.` is spelled `[^\\0]` (the same bytes here): regex.syntax folds alternatives of
      single bytes into one set, and with a bare `.` among them it drops the others even
      when they are longer (`.\\|ab` would match one byte only).
    Also tells whether the pattern ends right after an opening `[` or `[^` (glibc's message
    is then "Invalid regular expression"), and whether a back-reference names a group that
    is not complete in its own alternative (glibc: "Invalid back reference" for `\\(a\\)\\|\\1`,
    where regex.syntax only wants the group closed somewhere before)."""
    out = bytearray()
    i, n = 0, len(pattern)
    # glibc's completed_bkref_map: groups closed so far, reset at each `\\|` to what was
    # complete when that alternation began (a frame a nesting level: that set, and the
    # groups completed by its earlier alternatives).
    completed: set[int] = set()
    frames: list[tuple[set[int], set[int]]] = [(set(), set())]
    groups = 0
    open_groups: list[int] = []
    bad_backref = False
    while i < n:
        c = pattern[i]
        if c == 0x5C:  # backslash: the escape and the byte after it
            out += pattern[i:i + 2]
            i += 2
            escaped = pattern[i - 1] if i - 1 < n else None
            if escaped == 0x28:  # \(
                groups += 1
                open_groups.append(groups)
                frames.append((set(completed), set()))
            elif escaped == 0x29 and open_groups:  # \)
                completed |= frames.pop()[1]
                completed.add(open_groups.pop())
            elif escaped == 0x7C:  # \|
                frames[-1][1].update(completed)
                completed = set(frames[-1][0])
            elif escaped is not None and 0x31 <= escaped <= 0x39 and escaped - 0x30 not in completed:
                bad_backref = True
            if escaped is not None and escaped in _ANCHOR_ESCAPES:
                for spelled, literal in _LITERAL_AFTER_ANCHOR:
                    if pattern.startswith(spelled, i):
                        out += literal
                        i += len(spelled)
                        break
            continue
        if c == 0x2E:  # `.`: never NUL (RE_DOT_NOT_NULL; no argument holds one)
            out += b"[^\x00]"
            i += 1
            continue
        if c != 0x5B:
            out.append(c)
            i += 1
            continue
        start = i
        i += 1
        if pattern[i:i + 1] == b"^":
            i += 1
        if i >= n:
            return bytes(out) + pattern[start:], True, bad_backref
        out += pattern[start:i]
        first = True
        while i < n:
            if pattern[i] == 0x5D and not first:
                out.append(0x5D)
                i += 1
                break
            first = False
            low, after = _bracket_item(pattern, i)
            if (low is not None and pattern[after:after + 1] == b"-"
                    and pattern[after + 1:after + 2] not in (b"]", b"")):
                high, end = _bracket_item(pattern, after + 1)
                if high is not None and high < low:
                    out.append(0)
                    i = end
                    continue
            out += pattern[i:after]
            i = after
    return bytes(out), False, bad_backref


@functools.lru_cache(maxsize=64)
def compile_pattern(pattern: bytes) -> Regex:
    """The pattern as expr's RE_SYNTAX_POSIX_BASIC reads it, anchored at the start."""
    fixed, bare_bracket, bad_backref = glibc_pattern(pattern)
    try:
        parsed = parse(fixed, extended=False)
    except RegexError as error:
        message = str(error)
        if bare_bracket and message.startswith("Unmatched ["):
            message = "Invalid regular expression"
        raise ExprError(message) from None
    if bad_backref:
        raise ExprError("Invalid back reference")
    try:
        return Regex(Concat((Assert("`"), parsed.node)), parsed.groups)
    except RegexError as error:  # a valid pattern the engine refuses to run: not GNU's to say
        raise ExprError(str(error), FAILURE) from None


def match(ctx: CommandContext | None, subject: int | bytes, pattern: int | bytes) -> int | bytes:
    """GNU's docolon: the first group's text, or the length matched; "" or 0 when no match."""
    regex = compile_pattern(to_bytes(pattern))
    data = to_bytes(subject)
    cancelled = ctx.cancelled if ctx is not None else None
    try:
        found = regex.search(data, 0, groups=regex.groups > 0, cancelled=cancelled)
    except RegexError as error:
        raise ExprError(f"error in regular expression matcher: {error}", FAILURE) from None
    if regex.groups == 0:
        return 0 if found is None else found.end() - found.start()
    # A Span (no groups known) or a match whose group 1 did not take part: GNU's null string.
    if found is None or getattr(getattr(found, "re", None), "groups", 0) < 1 or found.start(1) < 0:
        return b""
    return found.group(1)


# -- the evaluator ----------------------------------------------------------------------------------
class Evaluator:
    """GNU's eval..eval7 over the argument words; `evaluate` False parses without computing
    (the skipped side of `|` and `&`)."""

    def __init__(self, words: list[bytes], ctx: CommandContext | None = None) -> None:
        self.words = words
        self.pos = 0
        self.depth = 0
        self.ctx = ctx

    def run(self) -> int | bytes:
        value = self.expression(0, True)
        if self.pos < len(self.words):
            raise ExprError(f"syntax error: unexpected argument {quote(self.words[self.pos])}")
        return value

    def next_is(self, word: bytes) -> bool:
        if self.pos < len(self.words) and self.words[self.pos] == word:
            self.pos += 1
            return True
        return False

    def missing(self) -> ExprError:
        return ExprError(f"syntax error: missing argument after {quote(self.words[self.pos - 1])}")

    def enter(self) -> None:
        """One more nested call (a parenthesis, a keyword's operand, the right operand of a
        tighter operator): each costs at most three Python frames."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError(f"expression nests too deeply (over {MAX_DEPTH} levels of parentheses, "
                            "keywords and operators); split it into several expr calls", FAILURE)

    def expression(self, min_level: int, evaluate: bool) -> int | bytes:
        """The binary operators of `min_level` and tighter, left-associative."""
        self.enter()
        left = self.unary(evaluate)
        while self.pos < len(self.words):
            op = self.words[self.pos]
            level = _LEVELS.get(op)
            if level is None or level < min_level:
                break
            self.pos += 1
            if op == b"|":
                right = self.expression(level + 1, evaluate and is_null(left))
                if is_null(left):
                    left = 0 if is_null(right) else right
            elif op == b"&":
                right = self.expression(level + 1, evaluate and not is_null(left))
                if is_null(left) or is_null(right):
                    left = 0
            else:
                right = self.expression(level + 1, evaluate)
                if evaluate:
                    left = self.binary(op, left, right)
                elif level == 2:
                    left = 0
        self.depth -= 1
        return left

    def binary(self, op: bytes, left: int | bytes, right: int | bytes) -> int | bytes:
        if op == b":":
            return match(self.ctx, left, right)
        if op in _COMPARISONS:
            a, b = to_bytes(left), to_bytes(right)
            if looks_like_integer(a) and looks_like_integer(b):
                cmp = _integer_compare(a, b)
            else:
                cmp = (a > b) - (a < b)
            return int({b"<": cmp < 0, b"<=": cmp <= 0, b"=": cmp == 0, b"==": cmp == 0,
                        b"!=": cmp != 0, b">=": cmp >= 0, b">": cmp > 0}[op])
        a, b = to_integer(left), to_integer(right)
        if a is None or b is None:
            raise ExprError("non-integer argument")
        if op == b"+":
            return _check_size(a + b)
        if op == b"-":
            return _check_size(a - b)
        if op == b"*":
            return _check_size(a * b)
        if b == 0:
            raise ExprError("division by zero")
        quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)  # C: toward zero
        return quotient if op == b"/" else a - b * quotient

    def operand(self, evaluate: bool) -> int | bytes:
        self.enter()
        value = self.unary(evaluate)
        self.depth -= 1
        return value

    def unary(self, evaluate: bool) -> int | bytes:
        """GNU's eval6: `+ TOKEN`, length, match, index, substr; else eval7."""
        if self.next_is(b"+"):
            if self.pos >= len(self.words):
                raise self.missing()
            self.pos += 1
            return self.words[self.pos - 1]
        if self.next_is(b"length"):
            return len(to_bytes(self.operand(evaluate)))
        if self.next_is(b"match"):
            subject = self.operand(evaluate)
            pattern = self.operand(evaluate)
            return match(self.ctx, subject, pattern) if evaluate else subject
        if self.next_is(b"index"):
            text, chars = to_bytes(self.operand(evaluate)), frozenset(to_bytes(self.operand(evaluate)))
            return next((i + 1 for i, byte in enumerate(text) if byte in chars), 0)
        if self.next_is(b"substr"):
            text = to_bytes(self.operand(evaluate))
            start, length = self.operand(evaluate), self.operand(evaluate)
            if not all(isinstance(v, int) or looks_like_integer(v) for v in (start, length)):
                return b""
            pos, size = _size(start), _size(length)
            if len(text) < pos or pos == 0 or size == 0 or size == SIZE_MAX:
                return b""
            return text[pos - 1:pos - 1 + min(size, len(text) - pos + 1)]
        return self.primary(evaluate)

    def primary(self, evaluate: bool) -> int | bytes:
        """GNU's eval7: `( EXPRESSION )` or one word."""
        if self.pos >= len(self.words):
            raise self.missing()
        if self.next_is(b"("):
            value = self.expression(0, evaluate)
            if self.pos >= len(self.words):
                raise ExprError(f"syntax error: expecting ')' after {quote(self.words[self.pos - 1])}")
            if not self.next_is(b")"):
                raise ExprError(f"syntax error: expecting ')' instead of {quote(self.words[self.pos])}")
            return value
        if self.next_is(b")"):
            raise ExprError("syntax error: unexpected ')'")
        self.pos += 1
        return self.words[self.pos - 1]


def evaluate(words: list[bytes], ctx: CommandContext | None = None) -> int | bytes:
    """The value of an expression, or ExprError."""
    return Evaluator(words, ctx).run()


# -- the command --------------------------------------------------------------------------------------
HELP = """\
Usage: expr EXPRESSION
  or:  expr OPTION

      --help        display this help and exit
      --version     output version information and exit

Print the value of EXPRESSION to standard output.  A blank line below
separates increasing precedence groups.  EXPRESSION may be:

  ARG1 | ARG2       ARG1 if it is neither null nor 0, otherwise ARG2

  ARG1 & ARG2       ARG1 if neither argument is null or 0, otherwise 0

  ARG1 < ARG2       ARG1 is less than ARG2
  ARG1 <= ARG2      ARG1 is less than or equal to ARG2
  ARG1 = ARG2       ARG1 is equal to ARG2
  ARG1 != ARG2      ARG1 is unequal to ARG2
  ARG1 >= ARG2      ARG1 is greater than or equal to ARG2
  ARG1 > ARG2       ARG1 is greater than ARG2

  ARG1 + ARG2       arithmetic sum of ARG1 and ARG2
  ARG1 - ARG2       arithmetic difference of ARG1 and ARG2

  ARG1 * ARG2       arithmetic product of ARG1 and ARG2
  ARG1 / ARG2       arithmetic quotient of ARG1 divided by ARG2
  ARG1 % ARG2       arithmetic remainder of ARG1 divided by ARG2

  STRING : REGEXP   anchored pattern match of REGEXP in STRING

  match STRING REGEXP        same as STRING : REGEXP
  substr STRING POS LENGTH   substring of STRING, POS counted from 1
  index STRING CHARS         index in STRING where any CHARS is found, or 0
  length STRING              length of STRING
  + TOKEN                    interpret TOKEN as a string, even if it is a
                               keyword like 'match' or an operator like '/'

  ( EXPRESSION )             value of EXPRESSION

Beware that many operators need to be escaped or quoted for shells.
Comparisons are arithmetic if both ARGs are numbers, else lexicographical.
Pattern matches return the string matched between \\( and \\) or null; if
\\( and \\) are not used, they return the number of characters matched or 0.

Exit status is 0 if EXPRESSION is neither null nor 0, 1 if EXPRESSION is null
or 0, 2 if EXPRESSION is syntactically invalid, and 3 if an error occurred.

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Report any translation bugs to <https://translationproject.org/team/>
Full documentation <https://www.gnu.org/software/coreutils/expr>
or available locally via: info '(coreutils) expr invocation'
"""
VERSION = ("expr (onetool-wasm) 9.1\n"
           "GNU coreutils 9.1 expr, reimplemented in Python: arbitrary-size integers,\n"
           "GNU basic regular expressions, the C locale.\n")


def _word(arg: str) -> bytes:
    try:
        return arg.encode("utf-8", "surrogateescape")  # raw bytes the shell kept as surrogates
    except UnicodeEncodeError:
        return printable(arg).encode("utf-8")


def _long_option(arg: str) -> str | None:
    """getopt_long's reading of a lone argument: --help or --version, abbreviations too."""
    if arg.startswith("--") and len(arg) > 2:
        for name in ("help", "version"):
            if name.startswith(arg[2:]):
                return name
    return None


def cmd_expr(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if len(args) == 1 and (option := _long_option(args[0])) is not None:
        return CommandResult(stdout=(HELP if option == "help" else VERSION).encode("ascii"))
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        return CommandResult(stderr="expr: missing operand\nTry 'expr --help' for more information.",
                             exit_code=INVALID)
    try:
        value = evaluate([_word(arg) for arg in args], ctx)
    except ExprError as error:
        return CommandResult(stderr=f"expr: {error}", exit_code=error.status)
    return CommandResult(stdout=to_bytes(value) + b"\n", exit_code=1 if is_null(value) else 0)


EXPR = CommandSpec(
    name="expr",
    summary="evaluate an expression: integer arithmetic, comparisons, string matching (GNU expr)",
    usage="expr EXPRESSION",
    details=("Each operator and operand is its own argument; quote the ones the shell reads\n"
             "(* ( ) < > | &). Operators, loosest first: |  &  < <= = == != >= >  + -  * / %\n"
             "STRING : REGEXP (a basic regular expression anchored at the start: the \\(...\\)\n"
             "group, else the length matched), and the keywords match, substr STRING POS LENGTH,\n"
             "index STRING CHARS, length STRING, + TOKEN (TOKEN as a string). Integers have any\n"
             "size. Exit status 0 when the value is neither empty nor 0, 1 when it is, 2 for\n"
             "an invalid expression, 3 for other errors.\n"
             "Examples:\n"
             "  expr 6 '*' 7\n"
             "  i=$(expr $i + 1)\n"
             "  expr report.tar.gz : '.*\\.\\(.*\\)'\n"
             "  expr length hello"),
    group="data",
    handler=cmd_expr,
    accepts_stdin=False, min_args=0, max_args=None, conformance_args=("1", "+", "2"),
    kind="read", requires_adapter=None,
)

COMMANDS = [EXPR]
