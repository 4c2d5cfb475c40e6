"""The bash parser: tokens from `lexer` -> the commands of `ast`, read top-down.

    script   = list
    list     = and_or ((";" | newline) and_or)*        ("&" is refused)
    and_or   = pipeline (("&&" | "||") newline* pipeline)*
    pipeline = "!"* command (("|" | "|&") newline* command)*
    command  = simple | compound redirect* | function
    compound = { list } | ( list ) | (( arith )) | [[ cond ]] | if | for | while | until | case

Reserved words are words written plainly in command position. Each compound command is
one level of nesting for the lexer's MAX_NESTING limit; repetition (lists, pipelines, elif
chains, case items, `!` runs) is iterative.
"""
from __future__ import annotations

import functools

from dataclasses import replace

from .ast import (AndOr, ArithCommand, ArithFor, Assignment, BraceGroup, Case, CaseItem, Command,
                  CondBinary, CondCommand, CondExpr, CondNot, CondOr, CondAnd, CondUnary, CondWord,
                  For, FunctionDef, If, Literal, Pipeline, Redirect, Script, SimpleCommand,
                  Subshell, While, Word)
from .lexer import REDIRECT_OPERATORS, Lexer, ShellSyntaxError, Token, finish_value, unquote

__all__ = ["parse_script", "ShellSyntaxError"]

# Words that end a list when they stand in command position.
CLOSERS = frozenset({"then", "elif", "else", "fi", "do", "done", "esac", "}", "in", "]]"})
COMPOUND_STARTS = frozenset({"if", "while", "until", "for", "case", "{", "[["})
REFUSED = frozenset({"coproc", "select", "time"})
# Builtins whose `NAME=(...)` arguments bash accepts (the word is kept as written).
DECLARATION_BUILTINS = frozenset({"declare", "typeset", "local", "export", "readonly"})
CASE_TERMINATORS = frozenset({";;", ";&", ";;&"})
COND_UNARY = frozenset("-" + letter for letter in "abcdefghknoprstuvwxzGLNORS")
COND_BINARY = frozenset({"==", "=", "!=", "=~", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt",
                         "-ge", "-nt", "-ot", "-ef"})


def parse_script(source: str) -> Script:
    """Parse bash source into a Script; raises ShellSyntaxError for anything bash would
    refuse and for the constructs this shell refuses (`&`, process substitution...)."""
    return Lexer(source, Parser).parse_all()


MAX_RETRIES = 64


def parse_until_error(source: str) -> tuple[Script, ShellSyntaxError | None]:
    """bash reads a script one complete command at a time, so the commands before a syntax
    error still run: the Script of the longest run of whole lines before the error that
    parses (tried from the error's line backwards, a bounded number of times), and the
    error (None when the whole source parses)."""
    try:
        return parse_script(source), None
    except ShellSyntaxError as caught:
        error = caught
    lines = source.split("\n")
    for end in range(min(error.line - 1, len(lines)), max(0, error.line - 1 - MAX_RETRIES), -1):
        try:
            return parse_script("\n".join(lines[:end])), error
        except ShellSyntaxError:
            continue
    return Script(), error


@functools.lru_cache(maxsize=512)
def parse_arithmetic_text(text: str) -> Word:
    """A subscript or other arithmetic text (`$i + 1`) as the Word `$((...))` would hold."""
    return Lexer(text, Parser).arith_word(len(text))


def parse_key_text(text: str) -> Word:
    """An associative array's subscript (`m["a b"]`, `m[$k]`) as a Word: expanded as bash
    expands a subscript (quotes removed, parameters and substitutions expanded, no splitting)."""
    return Lexer(text, Parser).key_word(len(text))


def _text(token: Token) -> str | None:
    """What a token reads as for the grammar: an operator, or a plainly written word."""
    return token.text if token.kind == "op" else token.plain


class Parser:
    """Parses commands from a lexer; a fresh one serves each `$( )`."""

    def __init__(self, lexer: Lexer) -> None:
        self.lx = lexer

    # ------------------------------------------------------------ lists

    def parse_list(self) -> Script:
        """And-or lists up to a token that cannot start a command (left unread)."""
        lx = self.lx
        items: list[AndOr] = []
        while True:
            lx.skip_newlines()
            if not self._at_command():
                return Script(tuple(items))
            first = self._pipeline()
            rest: list[tuple[str, Pipeline]] = []
            while _text(lx.peek()) in ("&&", "||"):
                operator = lx.take().text
                lx.skip_newlines()
                rest.append((operator, self._pipeline()))
            items.append(AndOr(first, tuple(rest)))
            token = lx.peek()
            if _text(token) == ";":
                lx.take()
            elif _text(token) == "&":
                raise lx.error("background jobs ('&') are not supported: run the command in "
                               "the foreground", token.pos)
            elif token.kind != "newline":
                return Script(tuple(items))

    def _at_command(self) -> bool:
        token = self.lx.peek()
        if token.kind in ("word", "io_number"):
            return token.plain not in CLOSERS
        return token.kind == "op" and (token.text == "(" or token.text in REDIRECT_OPERATORS)

    def _body(self, *closers: str) -> Script:
        """A non-empty list that must be followed by one of the closers (left unread)."""
        script = self.parse_list()
        token = self.lx.peek()
        if not script.items or _text(token) not in closers:
            raise self.lx.unexpected(token)
        return script

    def _expect(self, *texts: str) -> Token:
        token = self.lx.take()
        if _text(token) not in texts:
            raise self.lx.unexpected(token)
        return token

    def _pipeline(self) -> Pipeline:
        lx = self.lx
        negated = False
        while lx.peek().plain == "!":
            bang = lx.take()
            negated = not negated
        if negated and (lx.peek().kind == "newline" or _text(lx.peek()) == ";"):
            # bash accepts a `!` that ends its command line
            return Pipeline((SimpleCommand(line=lx.position(bang.pos)[0]),), True)
        commands = [self._command()]
        pipe_stderr: list[bool] = []
        while _text(lx.peek()) in ("|", "|&"):
            pipe_stderr.append(lx.take().text == "|&")
            lx.skip_newlines()
            if lx.peek().plain == "!":
                raise lx.unexpected(lx.peek())
            commands.append(self._command())
        return Pipeline(tuple(commands), negated, tuple(pipe_stderr))

    # ------------------------------------------------------------ commands

    def _command(self) -> Command:
        lx = self.lx
        token = lx.peek()
        word = token.plain
        if word in REFUSED:
            raise lx.error(f"{word} is not supported", token.pos)
        if word == "function":
            return self._function_keyword()
        if word not in COMPOUND_STARTS and _text(token) != "(":
            if not self._at_command():
                raise lx.unexpected(token)
            return self._simple()
        lx.enter(token.pos)
        command = self._compound(word)
        lx.leave()
        redirects = self._redirects()
        return replace(command, redirects=redirects) if redirects else command

    def _compound(self, word: str | None) -> Command:
        if word == "if":
            return self._if()
        if word in ("while", "until"):
            return self._while()
        if word == "for":
            return self._for()
        if word == "case":
            return self._case()
        if word == "{":
            return self._brace_group()
        if word == "[[":
            return self._cond_command()
        return self._subshell_or_arith()

    def _redirects(self) -> tuple[Redirect, ...]:
        redirects: list[Redirect] = []
        while self._at_redirect():
            redirects.append(self._redirect())
        return tuple(redirects)

    def _at_redirect(self) -> bool:
        token = self.lx.peek()
        return token.kind == "io_number" or (token.kind == "op" and token.text in REDIRECT_OPERATORS)

    def _redirect(self) -> Redirect:
        lx = self.lx
        fd = None
        token = lx.take()
        if token.kind == "io_number":
            if len(token.text) > 9:   # also keeps int() away from its digit limit
                raise lx.error(f"{token.text}: file descriptor out of range", token.pos)
            fd = int(token.text)
            token = lx.take()
        target = lx.take()
        if target.kind not in ("word", "io_number") or target.array is not None:
            raise lx.unexpected(target)
        if token.text in ("<<", "<<-"):
            return Redirect(token.text, lx.add_heredoc(target, token.text == "<<-"), fd)
        return Redirect(token.text, lx.word(target), fd)

    def _simple(self) -> Command:
        lx = self.lx
        line = lx.position(lx.peek().pos)[0]
        assignments: list[Assignment] = []
        words: list[Word] = []
        redirects: list[Redirect] = []
        command_name: str | None = None
        while True:
            if self._at_redirect():
                redirects.append(self._redirect())
                continue
            token = lx.peek()
            if token.kind not in ("word", "io_number"):
                break
            lx.take()
            if not words and token.shape is not None:
                assignments.append(self._assignment(token))
            elif not words:
                command_name = token.plain
                words.append(self.lx.word(token, braces=True))
                if not assignments and not redirects and _text(lx.peek()) == "(":
                    return self._function_def(token)
            else:
                words.append(self._argument(token, command_name))
        if not (assignments or words or redirects):
            raise lx.unexpected(lx.peek())
        return SimpleCommand(tuple(assignments), tuple(words), tuple(redirects), line)

    def _assignment(self, token: Token) -> Assignment:
        shape = token.shape
        assert shape is not None
        if token.array is not None:
            value: Word | tuple[Word, ...] = token.array
        else:
            value = finish_value(shape, self.lx.source[shape.value_pos:token.end])
        return Assignment(shape.name, value, shape.append, shape.index)

    def _argument(self, token: Token, command_name: str | None) -> Word:
        """A word after the command name. `NAME=(...)` is only allowed for declaration
        builtins, and is kept as one Literal of its source text: the builtin parses it
        (`parse_script(word.source)` gives the Assignment)."""
        if token.array is not None:
            if command_name not in DECLARATION_BUILTINS:
                raise self.lx.error("syntax error near unexpected token `('", token.array_pos)
            return Word((Literal(token.text),), token.text)
        return self.lx.word(token, braces=True)

    # ------------------------------------------------------------ functions

    def _function_def(self, name_token: Token) -> FunctionDef:
        """`name ( ) compound`, the `(` next."""
        self.lx.take()
        self._expect(")")
        return self._function_body(name_token)

    def _function_keyword(self) -> FunctionDef:
        """`function name [()] compound`."""
        lx = self.lx
        lx.take()
        name_token = lx.take()
        if name_token.kind not in ("word", "io_number"):
            raise lx.unexpected(name_token)
        if _text(lx.peek()) == "(":
            lx.take()
            self._expect(")")
        return self._function_body(name_token)

    def _function_body(self, name_token: Token) -> FunctionDef:
        lx = self.lx
        lx.skip_newlines()
        token = lx.peek()
        if token.plain not in COMPOUND_STARTS and _text(token) != "(":
            raise lx.unexpected(token)
        body = self._command()
        redirects = body.redirects
        return FunctionDef(unquote(name_token.text)[0], replace(body, redirects=()), redirects)

    # ------------------------------------------------------------ compound commands

    def _brace_group(self) -> BraceGroup:
        self.lx.take()
        body = self._body("}")
        self.lx.take()
        return BraceGroup(body)

    def _subshell_or_arith(self) -> Command:
        """`( list )`, or `(( expr ))` when the parentheses close as `))`."""
        lx = self.lx
        paren = lx.take()
        if lx.source.startswith("(", paren.end):
            expression = lx.arith_command(paren.end + 1)
            if expression is not None:
                return ArithCommand(expression)
        body = self._body(")")
        lx.take()
        return Subshell(body)

    def _if(self) -> If:
        lx = self.lx
        clauses: list[tuple[Script, Script]] = []
        else_body = None
        keyword = lx.take().plain     # `if`, then each `elif`
        while keyword != "fi":
            if keyword == "else":
                else_body = self._body("fi")
                lx.take()
                break
            condition = self._body("then")
            lx.take()
            clauses.append((condition, self._body("elif", "else", "fi")))
            keyword = lx.take().plain
        return If(tuple(clauses), else_body)

    def _while(self) -> While:
        lx = self.lx
        until = lx.take().plain == "until"
        condition = self._body("do")
        lx.take()
        body = self._body("done")
        lx.take()
        return While(condition, body, until)

    def _loop_body(self) -> Script:
        """`do list done`, or bash's `{ list }` alternative for `for`."""
        lx = self.lx
        lx.skip_newlines()
        token = lx.peek()
        if token.plain == "{":
            lx.enter(token.pos)
            body = self._brace_group().body
            lx.leave()
            return body
        self._expect("do")
        body = self._body("done")
        lx.take()
        return body

    def _for(self) -> For | ArithFor:
        lx = self.lx
        lx.take()
        token = lx.peek()
        if _text(token) == "(" and lx.source.startswith("(", token.end):
            lx.take()
            init, condition, step = lx.arith_for(token.end + 1)
            if _text(lx.peek()) == ";":
                lx.take()
            return ArithFor(init, condition, step, self._loop_body())
        variable = lx.take()
        if variable.plain is None:
            raise lx.unexpected(variable)
        lx.skip_newlines()
        words = None
        if lx.peek().plain == "in":
            lx.take()
            words = []
            while lx.peek().kind in ("word", "io_number"):
                token = lx.take()
                words.append(self.lx.word(token, braces=True))
            if _text(lx.peek()) != ";" and lx.peek().kind != "newline":
                raise lx.unexpected(lx.peek())
        if _text(lx.peek()) == ";":
            lx.take()
        return For(variable.plain, None if words is None else tuple(words), self._loop_body())

    def _case(self) -> Case:
        lx = self.lx
        lx.take()
        subject = lx.take()
        if subject.kind not in ("word", "io_number"):
            raise lx.unexpected(subject)
        lx.skip_newlines()
        self._expect("in")
        items: list[CaseItem] = []
        while True:
            lx.skip_newlines()
            if lx.peek().plain == "esac":
                lx.take()
                return Case(lx.word(subject), tuple(items))
            if _text(lx.peek()) == "(":
                lx.take()
            patterns = [self._pattern()]
            while _text(lx.peek()) == "|":
                lx.take()
                patterns.append(self._pattern())
            self._expect(")")
            body = self.parse_list()
            token = lx.peek()
            terminator = _text(token)
            if terminator in CASE_TERMINATORS:
                lx.take()
            elif terminator == "esac":
                terminator = ";;"
            else:
                raise lx.unexpected(token)
            items.append(CaseItem(tuple(patterns), body, terminator))

    def _pattern(self) -> Word:
        token = self.lx.take()
        if token.kind not in ("word", "io_number"):
            raise self.lx.unexpected(token)
        return self.lx.word(token)

    # ------------------------------------------------------------ [[ ... ]]

    def _cond_command(self) -> CondCommand:
        lx = self.lx
        lx.take()
        expression = self._cond_or()
        token = lx.take()
        if token.plain != "]]":
            raise self._cond_error(token, "syntax error in conditional expression: "
                                          "unexpected token `{}'")
        return CondCommand(expression)

    def _cond_or(self) -> CondExpr:
        lx = self.lx
        left = self._cond_and()
        while _text(lx.peek()) == "||":
            lx.take()
            left = CondOr(left, self._cond_and())
        return left

    def _cond_and(self) -> CondExpr:
        lx = self.lx
        left = self._cond_term()
        while _text(lx.peek()) == "&&":
            lx.take()
            left = CondAnd(left, self._cond_term())
        return left

    def _cond_term(self) -> CondExpr:
        """`! term`, `( expr )`, a unary or binary test, or a lone word."""
        lx = self.lx
        negations = 0
        lx.skip_newlines()
        while lx.peek().plain == "!":
            lx.take()
            negations += 1
        token = lx.peek()
        if _text(token) == "(":
            lx.take()
            lx.enter(token.pos)
            expression = self._cond_or()
            lx.leave()
            close = lx.take()
            if _text(close) != ")":
                raise self._cond_error(close, "unexpected token `{}', expected `)'")
        elif token.kind in ("word", "io_number") and token.plain != "]]":
            expression = self._cond_test()
        else:
            raise self._cond_error(token, "unexpected token `{}' in conditional command")
        for _ in range(negations):
            expression = CondNot(expression)
        return expression

    def _cond_test(self) -> CondExpr:
        lx = self.lx
        first = lx.take()
        if first.plain in COND_UNARY:
            operand = lx.peek()
            if operand.kind not in ("word", "io_number") or operand.plain == "]]":
                raise self._cond_error(operand, "unexpected argument `{}' to conditional "
                                                "unary operator")
            lx.take()
            return CondUnary(first.plain, lx.word(operand))
        left = lx.word(first)
        token = lx.peek()
        operator = _text(token)
        if operator in COND_BINARY and (token.kind == "word" or operator in ("<", ">")):
            lx.take()
            right = self._cond_right(operator)
            return CondBinary(operator, left, right)
        if operator in ("&&", "||", ")", "]]"):
            return CondWord(left)
        if token.kind in ("word", "io_number"):
            raise lx.error("conditional binary operator expected", token.pos)
        raise self._cond_error(token, "unexpected token `{}', conditional binary operator "
                                      "expected")

    def _cond_right(self, operator: str) -> Word:
        lx = self.lx
        if operator == "=~":
            right = lx.regex_word()
            if right is not None and right.source != "]]":
                return right
            raise lx.error("unexpected argument `]]' to conditional binary operator", lx.pos)
        token = lx.peek()
        if token.kind not in ("word", "io_number") or token.plain == "]]":
            raise self._cond_error(token, "unexpected argument `{}' to conditional binary "
                                          "operator")
        lx.take()
        return lx.word(token)

    def _cond_error(self, token: Token, template: str) -> ShellSyntaxError:
        shown = {"newline": "newline", "eof": "EOF"}.get(token.kind, token.text)
        return self.lx.error(template.format(shown), token.pos)
