"""The bash lexer: source text -> tokens, and the words inside them.

The parser pulls tokens one at a time with `peek`/`take`; a token is an operator (`;`, `&&`,
`<<-`...), a newline, the end of input, a descriptor number written before a redirection
(`2` in `2>`), or a word. A word token carries its *pieces*: a plain `str` for unquoted text
and an `ast` part for everything else (quotes, escapes, `$`-forms, backquotes). The parser then
finishes the pieces into an `ast.Word` with `Lexer.word`, choosing whether brace expansion
and assignment-style tildes apply, because that depends on where the word stands.

Command substitutions `$( )` are parsed in place: the lexer hands itself to a fresh parser
(`parser_factory`), which reads tokens up to the closing `)`. That is how bash 5.2 does it, and
it is what makes `)` inside a case pattern or a quoted string harmless. Here-document bodies are
read as soon as the newline that ends their command line is lexed.

Nesting (compound commands, `$( )`, backquotes, `${ }` words, `[[ ( ]]`) is counted in
`depth` and refused past MAX_NESTING, so a hostile input raises ShellSyntaxError instead of
exhausting Python's small stack inside Pyodide. Every loop scans forward only, and text is
collected in lists and joined once, so work stays linear in the input size.
"""
from __future__ import annotations

import bisect
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Union

from .ast import (ArithSub, BraceExpansion, CommandSub, DoubleQuoted, HereDoc, Literal, Param, ProcessSub,
                  Quoted, Script, Tilde, Word, WordPart)

MAX_NESTING = 100


class ShellSyntaxError(Exception):
    """A script bash would refuse to run (or that this shell refuses), with bash's wording."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.message = message
        self.line = line
        self.column = column


# A piece of a word before it is finished: `str` is unquoted text, anything else an ast part.
Piece = Union[str, WordPart]

# Operators, longest first so that a prefix never wins over the whole operator.
OPERATORS = ("&>>", ";;&", "<<<", "<<-", "&&", "&>", "||", "|&", ";;", ";&", "<<", "<>", "<&",
             ">>", ">|", ">&", "|", "&", ";", "(", ")", "<", ">")
REDIRECT_OPERATORS = frozenset({"<", ">", ">>", ">|", "<>", ">&", "<&", "&>", "&>>", "<<", "<<-",
                                "<<<"})
METACHARACTERS = frozenset(" \t\n|&;()<>")

_BLANKS = re.compile(r"(?:[ \t]|\\\n)+")
_WORD_TEXT = re.compile(r"[^ \t\n|&;()<>\\'\"$`]+")
_DQUOTE_TEXT = re.compile(r"[^\"\\$`]+")
_HEREDOC_TEXT = re.compile(r"[^\\$`]+")
_ARITH_TEXT = re.compile(r"[^\\$`\"]+")
# Characters that make a following `(` an extended pattern group (`@(a|b)`, `!(x)`).
_EXTGLOB = frozenset("@?*+!")
# An associative array's subscript: everything but quotes, backslashes and `$`/backquote forms.
_KEY_TEXT = re.compile(r"[^\\$`\"']+")
_ARITH_SCAN = re.compile(r"[()\\'\"]")
_REGEX_TEXT = re.compile(r"[^ \t\n\\'\"$`()]+")
_ANSI_STOP = re.compile(r"[\\']")
_BACKQUOTE_STOP = re.compile(r"[\\`]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DIGITS = re.compile(r"[0-9]+")
_TILDE_USER = re.compile(r"[A-Za-z0-9._+-]*")
_SEQUENCE = re.compile(r"(-?[0-9]+)\.\.(-?[0-9]+)(?:\.\.(-?[0-9]+))?$"
                       r"|([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?[0-9]+))?$")
_SPECIAL_PARAMS = "?#@*$!-"
_ANSI_SIMPLE = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "?": "?", "a": "\a",
                "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "r": "\r", "v": "\v"}
_ANSI_NUMERIC = {"x": (16, 2), "u": (16, 4), "U": (16, 8)}


@dataclass
class Token:
    """kind: "word", "io_number", "op", "newline" or "eof". text: the operator, or the word
    as written. pos/end: offsets in the lexer's source."""
    kind: str
    text: str
    pos: int
    end: int
    pieces: list[Piece] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)   # source offset of each piece
    array: tuple[Word, ...] | None = None              # `NAME=(...)`: the elements
    array_pos: int = -1                                # where its `(` is
    shape: "AssignmentShape | None" = None             # set when it reads `NAME=...`

    @property
    def plain(self) -> str | None:
        """The word's text when it is a single run of unquoted characters (a reserved word
        must be written so), else None."""
        if self.kind == "word" and len(self.pieces) == 1 and isinstance(self.pieces[0], str) \
                and self.array is None and len(self.pieces[0]) == self.end - self.pos:
            return self.pieces[0]
        return None


@dataclass
class _PendingHereDoc:
    node: HereDoc
    delimiter: str
    strip_tabs: bool


class Lexer:
    """Reads one source string. `parser_factory(lexer)` returns an object whose `parse_list()`
    parses commands from this lexer until a token that cannot start one."""

    def __init__(self, source: str, parser_factory: Callable[["Lexer"], Any], depth: int = 0,
                 line_offset: int = 0, column_offset: int = 0) -> None:
        self.source = source
        self.pos = 0
        self.parser_factory = parser_factory
        self.depth = depth
        self.line_offset = line_offset
        self.column_offset = column_offset   # for the first line of a backquoted text
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", source)]
        self._buffered: Token | None = None
        self._pending: list[_PendingHereDoc] = []
        self._ended_line = False

    # ------------------------------------------------------------ positions and errors

    def position(self, pos: int) -> tuple[int, int]:
        """1-based (line, column) of a source offset."""
        index = bisect.bisect_right(self._line_starts, pos) - 1
        column = pos - self._line_starts[index] + 1
        if index == 0:
            column += self.column_offset
        return index + 1 + self.line_offset, column

    def error(self, message: str, pos: int) -> ShellSyntaxError:
        line, column = self.position(min(pos, len(self.source)))
        return ShellSyntaxError(message, line, column)

    def unexpected(self, token: Token) -> ShellSyntaxError:
        """bash's complaint about a token that cannot stand where it is."""
        if token.kind == "eof":
            return self.error("syntax error: unexpected end of file", token.pos)
        text = "newline" if token.kind == "newline" else token.text
        return self.error(f"syntax error near unexpected token `{text}'", token.pos)

    def unmatched(self, opener: str, pos: int) -> ShellSyntaxError:
        return self.error(f"unexpected EOF while looking for matching `{opener}'", pos)

    def enter(self, pos: int) -> None:
        """One level deeper; refused past MAX_NESTING, or earlier when Python's recursion
        limit (lower in some hosts) leaves too little room. Callers pair it with `leave`."""
        self.depth += 1
        if self.depth > MAX_NESTING or (self.depth > _CHECK_ROOM_FROM and _frames_left() < _ROOM):
            raise self.error(f"nesting too deep: more than {MAX_NESTING} levels", pos)

    def leave(self) -> None:
        self.depth -= 1

    # ------------------------------------------------------------ tokens

    def take(self) -> Token:
        token = self.peek()
        self._buffered = None
        return token

    def peek(self) -> Token:
        """The next token, read now unless it already was. (Reading is done here rather
        than in a helper: every Python frame on the `$( )` recursion path counts.)"""
        if self._buffered is not None:
            return self._buffered
        source = self.source
        while True:
            blanks = _BLANKS.match(source, self.pos)
            if blanks:
                self.pos = blanks.end()
            start = self.pos
            if start >= len(source) and not self._ended_line:
                # Like bash, the input ends with a newline first (so `echo >` is "near
                # unexpected token `newline'"), then with the end of file.
                self._ended_line = True
                self._read_heredoc_bodies()
                token = Token("newline", "\n", start, start)
            elif start >= len(source):
                token = Token("eof", "", start, start)
            elif source[start] == "#":      # a comment runs to the end of the line
                newline = source.find("\n", start)
                self.pos = len(source) if newline < 0 else newline
                continue
            elif source[start] == "\n":
                self.pos = start + 1
                self._read_heredoc_bodies()
                token = Token("newline", "\n", start, start + 1)
            elif source[start] in METACHARACTERS and not source.startswith(("<(", ">("), start):
                token = self._operator(start)
            else:
                token = self._word()
            self._buffered = token
            return token

    def _operator(self, start: int) -> Token:
        source = self.source
        for operator in OPERATORS:
            if source.startswith(operator, start):
                self.pos = start + len(operator)
                return Token("op", operator, start, self.pos)
        raise AssertionError(f"no operator at {start}")  # METACHARACTERS are all covered

    def skip_newlines(self) -> None:
        """Skip newline tokens (reading any here-documents they end)."""
        while self.peek().kind == "newline":
            self.take()

    # ------------------------------------------------------------ words

    def _word(self) -> Token:
        """An unquoted word, up to a blank or an operator character."""
        source, start = self.source, self.pos
        pieces: list[Piece] = []
        starts: list[int] = []
        token = Token("word", "", start, start, pieces, starts)
        while self.pos < len(source):
            pos = self.pos
            char = source[pos]
            text = _WORD_TEXT.match(source, pos)
            if text:
                _add(pieces, starts, text.group(), pos)
                self.pos = text.end()
            elif char == "(" and self._before_array(pieces, starts):
                token.array_pos = pos
                token.array = self._array_literal()
                break
            elif char in "<>" and source.startswith("(", pos + 1):
                _add(pieces, starts, self._process_substitution(pos), pos)
            elif char == "(" and pieces and isinstance(pieces[-1], str) and pieces[-1][-1:] in _EXTGLOB:
                self._extglob_group(pieces, starts)
            elif char in METACHARACTERS:
                break
            elif char == "$":
                self._dollar(pieces, starts, quoted=False)
            elif char == '"':
                self.pos = pos + 1
                _add(pieces, starts, DoubleQuoted(tuple(self._double_quoted(pos))), pos)
            else:
                self._special(char, pieces, starts, quoted=False)
        token.end = self.pos
        token.text = source[start:self.pos]
        token.shape = assignment_shape(source, pieces, starts)
        if len(pieces) == 1 and isinstance(pieces[0], str) and pieces[0].isdigit() \
                and token.text == pieces[0] and source[self.pos:self.pos + 1] in ("<", ">"):
            token.kind = "io_number"
        return token

    def _extglob_group(self, pieces: list[Piece], starts: list[int]) -> None:
        """`@(a|b)`, `!(x)`... after its `@`: the group up to its `)` stays in the word as
        pattern text (quotes and `$` forms inside it keep their meaning); blanks and operators
        inside it are text too."""
        source, opening = self.source, self.pos
        depth = 0
        while True:
            pos = self.pos
            if pos >= len(source):
                raise self.unmatched("(", opening)
            char = source[pos]
            text = _WORD_TEXT.match(source, pos)
            if text:
                _add(pieces, starts, text.group(), pos)
                self.pos = text.end()
            elif char == "$":
                self._dollar(pieces, starts, quoted=False)
            elif char in "'\"\\`":
                self._special(char, pieces, starts, quoted=False)
            elif char == "\n":
                raise self.unmatched("(", opening)
            else:
                depth += {"(": 1, ")": -1}.get(char, 0)
                _add(pieces, starts, char, pos)
                self.pos = pos + 1
                if depth == 0:
                    return

    def _before_array(self, pieces: list[Piece], starts: list[int]) -> bool:
        """Whether the word so far is exactly `NAME=`, `NAME+=` or `NAME[sub]=`."""
        shape = assignment_shape(self.source, pieces, starts)
        return shape is not None and not shape.value

    def _special(self, char: str, pieces: list[Piece], starts: list[int], quoted: bool) -> None:
        """A backslash, quote or backquote at self.pos, outside double quotes."""
        source, pos = self.source, self.pos
        if char == "\\":
            following = source[pos + 1:pos + 2]
            if following == "\n":          # a line continuation vanishes
                self.pos = pos + 2
            elif following:
                _add(pieces, starts, Quoted(following), pos)
                self.pos = pos + 2
            else:                          # a backslash at the very end stays itself
                _add(pieces, starts, "\\", pos)
                self.pos = pos + 1
        elif char == "'":
            end = source.find("'", pos + 1)
            if end < 0:
                raise self.unmatched("'", pos)
            _add(pieces, starts, Quoted(source[pos + 1:end]), pos)
            self.pos = end + 1
        elif char == '"':
            self.pos = pos + 1
            _add(pieces, starts, DoubleQuoted(tuple(self._double_quoted(pos))), pos)
        else:  # backquote
            _add(pieces, starts, self._backquote(quoted), pos)

    def _double_quoted(self, opening: int) -> list[WordPart]:
        """The parts of `"..."`, self.pos just after the opening quote."""
        source = self.source
        pieces: list[Piece] = []
        starts: list[int] = []
        while True:
            pos = self.pos
            if pos >= len(source):
                raise self.unmatched('"', opening)
            char = source[pos]
            text = _DQUOTE_TEXT.match(source, pos)
            if text:
                _add(pieces, starts, Quoted(text.group()), pos)
                self.pos = text.end()
            elif char == '"':
                self.pos = pos + 1
                return _merge(pieces)
            elif char == "\\":
                self._dquote_backslash(pieces, starts, '$`"\\')
            elif char == "$":
                self._dollar(pieces, starts, quoted=True)
            else:
                _add(pieces, starts, self._backquote(quoted=True), pos)

    def _dquote_backslash(self, pieces: list[Piece], starts: list[int], escapable: str) -> None:
        """Inside double quotes (and here-documents) a backslash escapes only some
        characters and a newline; before anything else it is itself."""
        pos = self.pos
        following = self.source[pos + 1:pos + 2]
        if following == "\n":
            self.pos = pos + 2
        elif following and following in escapable:
            _add(pieces, starts, Quoted(following), pos)
            self.pos = pos + 2
        else:
            _add(pieces, starts, Quoted("\\"), pos)
            self.pos = pos + 1

    # ------------------------------------------------------------ `$` forms

    def _dollar(self, pieces: list[Piece], starts: list[int], quoted: bool) -> None:
        """A `$` at self.pos: add the part it starts (or a plain `$`)."""
        source, pos = self.source, self.pos
        following = source[pos + 1:pos + 2]
        if following == "(":
            _add(pieces, starts, self._paren_substitution(pos), pos)
        elif following == "{":
            self.pos = pos + 2
            _add(pieces, starts, self._braced_param(pos, quoted), pos)
        elif following == "'" and not quoted:
            _add(pieces, starts, Quoted(self._ansi_c(pos)), pos)
        elif following == '"' and not quoted:
            self.pos = pos + 2
            _add(pieces, starts, DoubleQuoted(tuple(self._double_quoted(pos + 1))), pos)
        elif following and (following.isalpha() or following == "_"):
            name = _NAME.match(source, pos + 1).group()
            _add(pieces, starts, Param(name), pos)
            self.pos = pos + 1 + len(name)
        elif following and (following.isdigit() or following in _SPECIAL_PARAMS):
            _add(pieces, starts, Param(following), pos)
            self.pos = pos + 2
        else:
            _add(pieces, starts, Quoted("$") if quoted else "$", pos)
            self.pos = pos + 1

    def _paren_substitution(self, dollar: int) -> WordPart:
        """`$((...))` when the parentheses close as `))`, else `$(...)`."""
        if self.source.startswith("((", dollar + 1):
            expression = self.arith_command(dollar + 3)
            if expression is not None:
                return ArithSub(expression)
        script, text = self._parenthesized_script(dollar)
        return CommandSub(script, text)

    def _process_substitution(self, opening: int) -> ProcessSub:
        """`<(...)` or `>(...)` at `opening`."""
        script, text = self._parenthesized_script(opening)
        return ProcessSub(self.source[opening], script, text)

    def _parenthesized_script(self, opening: int):
        """The script between the `(` at opening + 1 and its `)`, and its source text."""
        self.enter(opening)
        self.pos = opening + 2
        # Here-documents started before the `$(` belong to the outer line; those left open
        # inside it are read after the outer line, as bash does (with a warning).
        outer, self._pending = self._pending, []
        script = self.parser_factory(self).parse_list()
        closing = self.take()
        self._pending = outer + self._pending
        if closing.kind == "eof":
            raise self.unmatched(")", opening)
        if closing.text != ")" or closing.kind != "op":
            raise self.unexpected(closing)
        self.leave()
        return script, self.source[opening + 2:closing.pos]

    def find_arith_end(self, pos: int) -> int | None:
        """Where the `))` closing an arithmetic text that starts at pos is, or None when its
        parentheses close otherwise (then it was `$( (...) )` or `( (...) )`). Like bash,
        only parentheses and quotes are counted."""
        source = self.source
        depth = 0
        opening = pos - 2
        while True:
            found = _ARITH_SCAN.search(source, pos)
            if found is None:
                raise self.unmatched(")", opening)
            pos = found.start()
            char = source[pos]
            if char == "(":
                depth += 1
            elif char == ")":
                if depth == 0:
                    return pos if source.startswith(")", pos + 1) else None
                depth -= 1
            elif char == "\\":
                pos += 1
            elif char == "'":
                pos = source.find("'", pos + 1)
                if pos < 0:
                    raise self.unmatched("'", found.start())
            else:
                pos = self._skip_double_quoted(pos)
            pos += 1

    def _skip_double_quoted(self, opening: int) -> int:
        """The offset of the `"` closing the one at `opening`."""
        source = self.source
        pos = opening + 1
        while pos < len(source):
            char = source[pos]
            if char == "\\":
                pos += 2
                continue
            if char == '"':
                return pos
            pos += 1
        raise self.unmatched('"', opening)

    def arith_word(self, end: int) -> Word:
        """The arithmetic text from self.pos to `end`, as a Word whose text is Quoted (an
        empty Word when blank); `"` quotes are dropped, their contents kept."""
        source, start = self.source, self.pos
        pieces: list[Piece] = []
        starts: list[int] = []
        while self.pos < end:
            pos = self.pos
            char = source[pos]
            text = _ARITH_TEXT.match(source, pos, end)
            if text:
                _add(pieces, starts, Quoted(text.group()), pos)
                self.pos = text.end()
            elif char == '"':
                self.pos = pos + 1
                for part in self._double_quoted(pos):
                    _add(pieces, starts, part, pos)
            elif char == "\\":
                self._dquote_backslash(pieces, starts, "")
            elif char == "$":
                self._dollar(pieces, starts, quoted=True)
            else:
                _add(pieces, starts, self._backquote(quoted=True), pos)
        if self.pos != end:
            raise self.error("syntax error in arithmetic expression", start)
        if not source[start:end].strip():
            return Word(())
        return Word(tuple(_merge(pieces)), source[start:end])

    def key_word(self, end: int) -> Word:
        """An associative array's subscript text, self.pos to `end`, as a Word: quotes and
        backslashes removed, `$` forms and backquotes kept as parts."""
        source, start = self.source, self.pos
        pieces: list[Piece] = []
        starts: list[int] = []
        while self.pos < end:
            pos = self.pos
            char = source[pos]
            text = _KEY_TEXT.match(source, pos, end)
            if text:
                _add(pieces, starts, Quoted(text.group()), pos)
                self.pos = text.end()
            elif char == "$":
                self._dollar(pieces, starts, quoted=True)
            else:
                self._special(char, pieces, starts, quoted=True)
        return Word(tuple(_merge(pieces)), source[start:end])

    def arith_command(self, start: int) -> Word | None:
        """The arithmetic text at `start` (just after `((`) up to its `))`, and the lexer
        moves past them; None (nothing read) when the parentheses close otherwise."""
        end = self.find_arith_end(start)
        if end is None:
            return None
        self.enter(start)
        self.pos = start
        expression = self.arith_word(end)
        self.pos = end + 2
        self.leave()
        return expression

    def arith_for(self, start: int) -> tuple[Word, Word, Word]:
        """The three expressions of `for ((init; condition; step))`, `start` just after the
        `((`; the lexer moves past the `))`."""
        end = self.find_arith_end(start)
        if end is None:
            raise self.error("syntax error near unexpected token `('", start - 1)
        cuts = _top_level_semicolons(self.source, start, end)
        if len(cuts) != 2:
            raise self.error("syntax error: arithmetic expression required", start)
        words = []
        self.pos = start
        for cut in cuts + [end]:
            words.append(self.arith_word(cut))
            self.pos = cut + 1
        self.pos = end + 2
        return words[0], words[1], words[2]

    def _braced_param(self, dollar: int, quoted: bool) -> Param:
        """`${...}`, self.pos just after the `{`."""
        source = self.source
        pos = self.pos
        if source.startswith("#}", pos):
            self.pos = pos + 2
            return Param("#")
        if source.startswith("#", pos):
            length = self._param_name_and_index(pos + 1)
            if length is not None and source.startswith("}", length[2]):
                self.pos = length[2] + 1
                return Param(length[0], "length", index=length[1])
        if source.startswith("!", pos) and not source.startswith("}", pos + 1):
            return self._indirect_param(dollar, pos + 1)
        named = self._param_name_and_index(pos)
        if named is None:
            raise self._bad_substitution(dollar)
        name, index, self.pos = named
        return self._param_operator(dollar, name, index, quoted)

    def _param_name_and_index(self, pos: int) -> tuple[str, str | None, int] | None:
        """(name, subscript text or None, offset after them) for a parameter at pos."""
        source = self.source
        match = _NAME.match(source, pos) or _DIGITS.match(source, pos)
        if match:
            name, pos = match.group(), match.end()
        elif source[pos:pos + 1] and source[pos] in _SPECIAL_PARAMS:
            return source[pos], None, pos + 1
        else:
            return None
        if not source.startswith("[", pos) or not (name[0].isalpha() or name[0] == "_"):
            return name, None, pos
        close = _matching_bracket(source, pos)
        if close < 0:
            return None
        return name, source[pos + 1:close], close + 1

    def _indirect_param(self, dollar: int, pos: int) -> Param:
        """`${!name}` and `${!a[@]}`/`${!a[*]}` (the array's indices)."""
        source = self.source
        named = self._param_name_and_index(pos)
        if named is None:
            raise self._bad_substitution(dollar)
        name, index, pos = named
        if index in ("@", "*") and source.startswith("}", pos):
            self.pos = pos + 1
            return Param(name, "!" + index)
        if index is None and source[pos:pos + 2] in ("@}", "*}"):
            self.pos = pos + 2
            return Param(name, "names" + source[pos])
        if source.startswith("}", pos):
            self.pos = pos + 1
            return Param(name, "!", index=index)
        raise self._bad_substitution(dollar)

    def _param_operator(self, dollar: int, name: str, index: str | None, quoted: bool) -> Param:
        """The operator after `${name[index]`, self.pos on it, and its words."""
        source, pos = self.source, self.pos
        two, one = source[pos:pos + 2], source[pos:pos + 1]
        if one == "}":
            self.pos = pos + 1
            return Param(name, index=index)
        if two in (":-", ":=", ":?", ":+"):
            return self._param_with_words(dollar, Param(name, two, index=index), pos + 2, quoted, "")
        if one in ("-", "=", "?", "+"):
            return self._param_with_words(dollar, Param(name, one, index=index), pos + 1, quoted, "")
        if one == ":":
            return self._param_with_words(dollar, Param(name, ":", index=index), pos + 1, quoted, ":")
        if two in ("##", "%%", "^^", ",,"):
            return self._param_with_words(dollar, Param(name, two, index=index), pos + 2, quoted, "")
        if one in ("#", "%", "^", ","):
            return self._param_with_words(dollar, Param(name, one, index=index), pos + 1, quoted, "")
        if one == "@" and two[1:] and two[1] in "QEPAKaUuLk" and source.startswith("}", pos + 2):
            self.pos = pos + 3  # `${x@Q}`: a transformation
            return Param(name, two, index=index)
        if one == "/":
            op = "/" + two[1] if two[1:] in ("/", "#", "%") else "/"
            return self._param_with_words(dollar, Param(name, op, index=index), pos + len(op),
                                          quoted, "/")
        raise self._bad_substitution(dollar)

    def _param_with_words(self, dollar: int, param: Param, pos: int, quoted: bool,
                          separator: str) -> Param:
        """Read the operator's word (and, after `separator`, its second word) up to `}`."""
        self.enter(dollar)
        self.pos = pos
        is_pattern = param.op not in ("-", ":-", "=", ":=", "?", ":?", "+", ":+")
        arg = self._param_word(dollar, quoted, is_pattern, separator)
        arg2 = None
        if separator and self.source.startswith(separator, self.pos):
            self.pos += 1
            arg2 = self._param_word(dollar, quoted, is_pattern and separator != "/", "")
        self.pos += 1  # the closing brace
        self.leave()
        if param.op in ("^", "^^", ",", ",,") and not arg.parts:
            arg = None
        return Param(param.name, param.op, arg, arg2, param.index)

    def _param_word(self, dollar: int, quoted: bool, is_pattern: bool, separator: str) -> Word:
        """A word inside `${...}`, up to `}` (or the separator). Inside double quotes a
        default/alternative word (`"${x:-'a'}"`) is quoted text in which `'` is an ordinary
        character, while a pattern (`"${x#'a'*}"`) keeps its quotes and globs, as in bash."""
        source, start = self.source, self.pos
        pieces: list[Piece] = []
        starts: list[int] = []
        stops = "}" + separator
        text_run = re.compile(r"[^}\\'\"$`%s]+" % re.escape(separator))
        plain_quotes = quoted and not is_pattern
        while True:
            pos = self.pos
            if pos >= len(source):
                raise self.unmatched("}", dollar)
            char = source[pos]
            text = text_run.match(source, pos)
            if text:
                _add(pieces, starts, Quoted(text.group()) if plain_quotes else text.group(), pos)
                self.pos = text.end()
            elif char in stops:
                break
            elif char == "\\" and plain_quotes:
                self._dquote_backslash(pieces, starts, '$`"\\}')
            elif char == "'" and plain_quotes:
                _add(pieces, starts, Quoted("'"), pos)
                self.pos = pos + 1
            elif char in "\\'\"`":
                self._special(char, pieces, starts, quoted)
            else:
                self._dollar(pieces, starts, quoted)
        return finish_word(pieces, source[start:self.pos], tilde=not quoted)

    def _bad_substitution(self, dollar: int) -> ShellSyntaxError:
        close = self.source.find("}", dollar)
        if close < 0:
            return self.unmatched("}", dollar)
        return self.error(f"{self.source[dollar:close + 1]}: bad substitution", dollar)

    def _ansi_c(self, dollar: int) -> str:
        """Decode `$'...'` at `dollar`; self.pos ends after the closing quote."""
        source = self.source
        out: list[str] = []
        pos = dollar + 2
        while True:
            found = _ANSI_STOP.search(source, pos)
            end = found.start() if found else -1
            if end < 0:
                raise self.unmatched("'", dollar + 1)
            out.append(source[pos:end])
            if source[end] == "'":
                self.pos = end + 1
                return _bytes_as_text("".join(out))
            text, pos = _ansi_escape(source, end)
            out.append(text)

    def _backquote(self, quoted: bool) -> CommandSub:
        """`...` at self.pos: undo the backslashes bash undoes inside, parse the rest."""
        source, opening = self.source, self.pos
        escapable = '$`\\"' if quoted else "$`\\"
        out: list[str] = []
        pos = opening + 1
        while True:
            found = _BACKQUOTE_STOP.search(source, pos)
            end = found.start() if found else -1
            if end < 0:
                raise self.unmatched("`", opening)
            out.append(source[pos:end])
            if source[end] == "`":
                break
            following = source[end + 1:end + 2]
            out.append(following if following and following in escapable else source[end:end + 2])
            pos = end + 2
        self.pos = end + 1
        text = "".join(out)
        self.enter(opening)
        line, column = self.position(opening + 1)
        inner = Lexer(text, self.parser_factory, self.depth, line - 1, column - 1)
        script = inner.parse_all()
        self.leave()
        return CommandSub(script, text)

    def parse_all(self) -> Script:
        """Parse this lexer's whole source as a script."""
        script = self.parser_factory(self).parse_list()
        token = self.peek()
        if token.kind != "eof":
            raise self.unexpected(token)
        return script

    # ------------------------------------------------------------ special reads for the parser

    def word(self, token: Token, braces: bool = False) -> Word:
        """Finish a word token (see finish_word); braces nested past MAX_NESTING are refused
        like any other nesting."""
        try:
            return finish_word(token.pieces, token.text, braces, shape=token.shape)
        except _BracesTooDeep:
            raise self.error(f"nesting too deep: more than {MAX_NESTING} levels",
                             token.pos) from None

    def regex_word(self) -> Word | None:
        """The right side of `=~` in `[[ ]]`: up to unquoted whitespace, where `( ) |` and
        the like are ordinary characters and blanks inside parentheses belong to it."""
        blanks = _BLANKS.match(self.source, self.pos)
        if blanks:
            self.pos = blanks.end()
        source, start = self.source, self.pos
        pieces: list[Piece] = []
        starts: list[int] = []
        depth = 0
        while self.pos < len(source):
            pos = self.pos
            char = source[pos]
            text = _REGEX_TEXT.match(source, pos)
            if text:
                _add(pieces, starts, text.group(), pos)
                self.pos = text.end()
            elif char in " \t\n" and depth == 0:
                break
            elif char in "\\'\"`":
                self._special(char, pieces, starts, quoted=False)
            elif char == "$":
                self._dollar(pieces, starts, quoted=False)
            else:
                depth += {"(": 1, ")": -1}.get(char, 0)
                _add(pieces, starts, char, pos)
                self.pos = pos + 1
        if not pieces:
            return None
        return finish_word(pieces, source[start:self.pos], tilde=False)

    def _array_literal(self) -> tuple[Word, ...]:
        """The elements of `NAME=( ... )`, self.pos on the `(`; newlines and comments may
        stand between them."""
        opening = self.pos
        self.pos += 1
        elements: list[Word] = []
        pending, self._pending = self._pending, []   # its newlines end no command line
        while True:
            token = self.peek()
            if token.kind == "newline":
                self.take()
            elif token.kind == "eof":
                raise self.unmatched(")", opening)
            elif token.kind == "op" and token.text == ")":
                self.take()
                self._pending = pending
                return tuple(elements)
            elif token.kind in ("word", "io_number") and token.array is None:
                self.take()
                elements.append(self.word(token, braces=True))
            else:
                raise self.unexpected(token)

    # ------------------------------------------------------------ here-documents

    def add_heredoc(self, delimiter_token: Token, strip_tabs: bool) -> HereDoc:
        """Register `<<WORD`; the returned node gets its body when the line ends."""
        text, quoted = unquote(delimiter_token.text)
        node = HereDoc(Word((Quoted(""),)), quoted)
        self._pending.append(_PendingHereDoc(node, text, strip_tabs))
        return node

    def _read_heredoc_bodies(self) -> None:
        """Read the bodies of the here-documents started on the line just ended."""
        pending, self._pending = self._pending, []
        for heredoc in pending:
            body_start = self.pos
            text = self._heredoc_text(heredoc)
            if heredoc.node.quoted:
                body = Word((Quoted(text),), text)
            else:
                line, _ = self.position(body_start)
                body = Lexer(text, self.parser_factory, self.depth, line - 1).heredoc_word()
            # The node is already inside the command's Redirect; its body can only be known
            # now, so it is filled in place (nothing has hashed or compared it yet).
            object.__setattr__(heredoc.node, "body", body)

    def _heredoc_text(self, heredoc: _PendingHereDoc) -> str:
        """The body lines up to the delimiter line (or the end of input, as bash does after
        its warning), with leading tabs removed for `<<-`. One regular-expression search
        finds the delimiter line, so a huge body costs no per-line Python work."""
        tabs = "\t*" if heredoc.strip_tabs else ""
        delimiter = re.compile(f"^{tabs}{re.escape(heredoc.delimiter)}$", re.MULTILINE)
        found = delimiter.search(self.source, self.pos)
        end = found.start() if found else len(self.source)
        text = self.source[self.pos:end]
        self.pos = min(found.end() + 1, len(self.source)) if found else end
        if heredoc.strip_tabs:
            text = re.sub(r"(?m)^\t+", "", text)
        return text

    def heredoc_word(self) -> Word:
        """This lexer's whole source as an unquoted here-document body."""
        source = self.source
        pieces: list[Piece] = []
        starts: list[int] = []
        while self.pos < len(source):
            pos = self.pos
            char = source[pos]
            text = _HEREDOC_TEXT.match(source, pos)
            if text:
                _add(pieces, starts, Quoted(text.group()), pos)
                self.pos = text.end()
            elif char == "\\":
                self._dquote_backslash(pieces, starts, "$`\\")
            elif char == "$":
                self._dollar(pieces, starts, quoted=True)
            else:
                _add(pieces, starts, self._backquote(quoted=True), pos)
        return Word(tuple(_merge(pieces)) or (Quoted(""),), source)


# Parsing one nesting level takes about ten Python frames; past this depth, `enter` checks
# that the rest of a level still fits under the recursion limit.
_CHECK_ROOM_FROM = 20
_ROOM = 60


def _frames_left() -> int:
    """How many more Python frames fit under the recursion limit."""
    depth = 0
    frame = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return sys.getrecursionlimit() - depth


# ---------------------------------------------------------------- helpers on pieces


def _add(pieces: list[Piece], starts: list[int], piece: Piece, pos: int) -> None:
    pieces.append(piece)
    starts.append(pos)


def _join_text(pieces: list[Piece]) -> list[Piece]:
    """Neighbouring unquoted text pieces as one piece (joined once: linear)."""
    out: list[Piece] = []
    run: list[str] = []
    for piece in pieces:
        if isinstance(piece, str):
            run.append(piece)
            continue
        if run:
            out.append("".join(run))
            run = []
        out.append(piece)
    if run:
        out.append("".join(run))
    return out


def _top_level_semicolons(source: str, start: int, end: int) -> list[int]:
    """Offsets of the `;` between start and end that are outside parentheses and quotes."""
    cuts: list[int] = []
    depth = 0
    pos = start
    while pos < end:
        char = source[pos]
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == ";" and depth == 0:
            cuts.append(pos)
        elif char in "'\"`":
            close = source.find(char, pos + 1, end)
            pos = end if close < 0 else close
        pos += 1
    return cuts


def _matching_bracket(source: str, pos: int) -> int:
    """The `]` closing the `[` at pos (nested brackets counted), or -1."""
    depth = 0
    for index in range(pos, len(source)):
        char = source[index]
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return index
        elif char in "\n}":
            return -1
    return -1


def _ansi_escape(source: str, pos: int) -> tuple[str, int]:
    """Decode the `$'...'` escape at pos (a backslash): (text, offset after it)."""
    char = source[pos + 1:pos + 2]
    if char in _ANSI_SIMPLE:
        return _ANSI_SIMPLE[char], pos + 2
    if char in "01234567" and char:
        digits = re.match(r"[0-7]{1,3}", source[pos + 1:pos + 4]).group()
        return _byte(int(digits, 8) & 0xFF), pos + 1 + len(digits)
    if char in _ANSI_NUMERIC:
        base, most = _ANSI_NUMERIC[char]
        digits = re.match(r"[0-9A-Fa-f]*", source[pos + 2:pos + 2 + most]).group()
        if digits and int(digits, base) <= 0x10FFFF:
            value = int(digits, base)
            return (_byte(value) if char == "x" else chr(value)), pos + 2 + len(digits)
        return source[pos:pos + 2], pos + 2
    if char == "c" and pos + 2 < len(source) and source[pos + 2] != "'":
        return chr((ord(source[pos + 2].upper()) ^ 0x40) & 0x7F), pos + 3
    return source[pos:pos + 2], pos + 2


def _byte(value: int) -> str:
    """`\\xHH` and `\\NNN` are bytes: one above 0x7f is kept as its surrogate escape (the
    shell's text is UTF-8 with surrogateescape), made a character by `_bytes_as_text`."""
    return chr(value) if value < 0x80 else chr(0xDC00 + value)


def _bytes_as_text(text: str) -> str:
    """Escaped bytes that spell UTF-8 become its characters (`$'\\xc3\\xa9'` is `é`, as in
    bash); other bytes stay escaped."""
    if not any("\udc80" <= char <= "\udcff" for char in text):
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")


def ansi_c_text(text: str) -> str:
    """`text` with its backslash escapes decoded as in `$'...'` (for `${x@E}`)."""
    out: list[str] = []
    pos = 0
    while True:
        end = text.find("\\", pos)
        if end < 0:
            out.append(text[pos:])
            return _bytes_as_text("".join(out))
        out.append(text[pos:end])
        decoded, pos = _ansi_escape(text, end)
        out.append(decoded)


def unquote(text: str) -> tuple[str, bool]:
    """(text, quoted) of a word as written with its quotes and backslashes removed (a
    here-document delimiter, a function name); quoted tells whether there were any."""
    out: list[str] = []
    pos = 0
    while pos < len(text):
        char = text[pos]
        if char == "\\":
            out.append(text[pos + 1:pos + 2])
            pos += 2
        elif char in "'\"":
            end = text.find(char, pos + 1)
            end = len(text) if end < 0 else end
            out.append(text[pos + 1:end])
            pos = end + 1
        else:
            out.append(char)
            pos += 1
    return "".join(out), any(char in text for char in "\\'\"")


# ---------------------------------------------------------------- assignments


@dataclass
class AssignmentShape:
    """How a word that reads `NAME=...`, `NAME+=...` or `NAME[sub]=...` splits up."""
    name: str
    index: str | None          # the subscript as written
    append: bool
    head: list[Piece]          # the pieces up to and including the `=`
    value: list[Piece]         # the pieces after it
    value_pos: int             # source offset where the value begins


def assignment_shape(source: str, pieces: list[Piece], starts: list[int]) -> AssignmentShape | None:
    """Split pieces (with their offsets `starts` in `source`) at the `=` of an assignment, or
    None when they do not begin with an unquoted `NAME=`, `NAME+=` or `NAME[sub]=`."""
    if not pieces or not isinstance(pieces[0], str):
        return None
    first = pieces[0]
    name = _NAME.match(first)
    if name is None:
        return None
    cut = name.end()
    if first.startswith(("=", "+="), cut):
        return _shape(name.group(), None, pieces, starts, 0, cut)
    if not first.startswith("[", cut):
        return None
    depth = 0   # the subscript may hold quotes and expansions: count brackets in plain text
    for index, piece in enumerate(pieces):
        if not isinstance(piece, str):
            continue
        for offset in range(cut if index == 0 else 0, len(piece)):
            if piece[offset] == "[":
                depth += 1
            elif piece[offset] == "]":
                depth -= 1
                if depth == 0:
                    if not piece.startswith(("=", "+="), offset + 1):
                        return None
                    subscript = source[starts[0] + cut + 1:starts[index] + offset]
                    return _shape(name.group(), subscript, pieces, starts, index, offset + 1)
    return None


def _shape(name: str, index: str | None, pieces: list[Piece], starts: list[int], at: int,
           offset: int) -> AssignmentShape:
    """The shape whose `=` or `+=` begins at pieces[at][offset]."""
    piece = pieces[at]
    assert isinstance(piece, str)
    append = piece[offset] == "+"
    after = offset + (2 if append else 1)
    head = pieces[:at] + [piece[:after]]
    value = ([piece[after:]] if after < len(piece) else []) + pieces[at + 1:]
    return AssignmentShape(name, index, append, head, value, starts[at] + after)


# ---------------------------------------------------------------- finishing words


def finish_word(pieces: list[Piece], source: str, braces: bool = False, tilde: bool = True,
                shape: AssignmentShape | None = None) -> Word:
    """Turn lexed pieces into a Word. tilde: a leading `~`/`~user` becomes Tilde; given the
    word's assignment shape, the tildes after its `=` and after each `:` do instead (bash
    does that for every word shaped like an assignment). braces: unquoted `{a,b}` and
    `{1..5}` become BraceExpansion parts."""
    if tilde and shape is not None:
        pieces = shape.head + tildes(_join_text(shape.value), colon=True)
    elif tilde:
        pieces = tildes(_join_text(pieces), colon=False)
    if braces:
        pieces = _braces(pieces)
    return Word(tuple(_merge(pieces)), source)


def finish_value(shape: AssignmentShape, source: str) -> Word:
    """The value of a prefix assignment: tildes after its `=` and each `:`, no braces."""
    return Word(tuple(_merge(tildes(_join_text(shape.value), colon=True))), source)


def tildes(pieces: list[Piece], colon: bool) -> list[Piece]:
    """Replace a leading `~user` (and with colon, one after each unquoted `:`) by Tilde when
    the prefix is unquoted and ends at `/`, at the end of the word or at the `:`."""
    out: list[Piece] = []
    for position, piece in enumerate(pieces):
        if not isinstance(piece, str):
            out.append(piece)
            continue
        segments = piece.split(":") if colon else [piece]
        for number, segment in enumerate(segments):
            if number:
                out.append(":")
            at_start = number > 0 or position == 0
            if at_start and segment.startswith("~"):
                user = _TILDE_USER.match(segment, 1).group()
                rest = segment[1 + len(user):]
                ends_prefix = number < len(segments) - 1 or position == len(pieces) - 1
                if rest.startswith("/") or (not rest and ends_prefix):
                    out.append(Tilde(user))
                    segment = rest
            out.append(segment)
    return out


class _BracesTooDeep(Exception):
    """Braces nested past MAX_NESTING (Lexer.word turns it into a ShellSyntaxError)."""


class _BraceFrame:
    """An open `{` while scanning: the alternatives finished so far and the current one."""

    def __init__(self) -> None:
        self.alternatives: list[list[Piece]] = []
        self.current: list[Piece] = []

    def as_text(self) -> list[Piece]:
        """The frame's pieces as plain text again (it never became an expansion)."""
        out: list[Piece] = ["{"]
        for alternative in self.alternatives:
            out.extend(alternative)
            out.append(",")
        out.extend(self.current)
        return out


def _braces(pieces: list[Piece]) -> list[Piece]:
    """Find brace expansions in the unquoted text, with an explicit stack (no recursion)."""
    if not any(isinstance(piece, str) and "{" in piece for piece in pieces):
        return pieces
    stack = [_BraceFrame()]
    for piece in pieces:
        if not isinstance(piece, str):
            stack[-1].current.append(piece)
            continue
        for chunk in re.split(r"([{},])", piece):
            if chunk == "{":
                stack.append(_BraceFrame())
                if len(stack) > MAX_NESTING + 1:
                    raise _BracesTooDeep()
            elif chunk == "," and len(stack) > 1:
                stack[-1].alternatives.append(stack[-1].current)
                stack[-1].current = []
            elif chunk == "}" and len(stack) > 1:
                frame = stack.pop()
                stack[-1].current.extend(_close_brace(frame))
            elif chunk:
                stack[-1].current.append(chunk)
    while len(stack) > 1:   # braces never closed are text
        frame = stack.pop()
        stack[-1].current.extend(frame.as_text())
    return stack[0].current


def _close_brace(frame: _BraceFrame) -> list[Piece]:
    """A `{...}` just closed: an expansion if it has a comma or is a sequence, else text."""
    if frame.alternatives:
        alternatives = frame.alternatives + [frame.current]
        return [BraceExpansion(tuple(Word(tuple(_merge(alternative)))
                                     for alternative in alternatives))]
    text = frame.current[0] if len(frame.current) == 1 else None
    sequence = _SEQUENCE.match(text) if isinstance(text, str) else None
    if sequence is None:
        return frame.as_text() + ["}"]
    numbers = sequence.group(1, 2, 3) if sequence.group(1) else sequence.group(4, 5, 6)
    return [BraceExpansion(sequence=numbers)]


def _merge(pieces: list[Piece]) -> list[WordPart]:
    """Join neighbouring unquoted text into one Literal and neighbouring Quoted into one."""
    out: list[WordPart] = []
    text: list[str] = []
    kind: type | None = None
    for piece in pieces:
        if isinstance(piece, str):
            piece_kind, piece_text = Literal, piece
        elif isinstance(piece, Quoted):
            piece_kind, piece_text = Quoted, piece.text
        else:
            piece_kind, piece_text = None, ""
        if piece_kind is not kind and kind is not None:
            out.append(kind("".join(text)))
            text = []
        kind = piece_kind
        if piece_kind is None:
            out.append(piece)
        else:
            text.append(piece_text)
    if kind is not None:
        out.append(kind("".join(text)))
    return [part for part in out if not (isinstance(part, Literal) and not part.text)]
