"""The nodes of a parsed bash script: words (made of parts) and commands.

The parser builds these; the expansion module turns words into strings; the interpreter
walks commands. Nodes are plain frozen dataclasses with tuples, so they compare by value
(the parser's tests compare whole trees) and can be cached.

A word is a sequence of parts, in source order:

    echo "a$X"'b'*.txt   ->  Word((DoubleQuoted((Quoted("a"), Param("X"))), Quoted("b"),
                                   Literal("*.txt")))

Only `Literal` text is subject to globbing and brace expansion (the parser has already
split braces into `BraceExpansion` parts); only the results of unquoted `Param`,
`CommandSub` and `ArithSub` parts are split on IFS.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

# ---------------------------------------------------------------- word parts


@dataclass(frozen=True)
class Literal:
    """Unquoted text: may hold glob characters (`*`, `?`, `[`)."""
    text: str


@dataclass(frozen=True)
class Quoted:
    """Text that came from quotes or a backslash escape: never split, never globbed.
    `$'...'` is decoded by the parser into one of these."""
    text: str


@dataclass(frozen=True)
class DoubleQuoted:
    """`"..."`: its parts are Quoted, Param, CommandSub and ArithSub. Kept as a group
    because `"$@"` and `"${a[@]}"` make one field per element, and `""` is an empty field."""
    parts: tuple["WordPart", ...]


@dataclass(frozen=True)
class Tilde:
    """A leading `~` or `~user` (only `~` is expanded: to $HOME)."""
    user: str = ""


@dataclass(frozen=True)
class Param:
    """A parameter expansion: `$X`, `${X}`, `${X:-word}`, `${#X}`, `${a[@]}`, `$1`, `$?`...

    name:  a variable name, a digit string (`1`, `10`), or one of `? # @ * $ ! - 0`.
    index: for arrays, the subscript's source text (`@`, `*`, `0`, `i+1`), else None.
    op:    None for plain `$X`/`${X}`, else one of
           "length"                 `${#X}` (and `${#a[@]}` with index "@")
           "-" ":-" "=" ":=" "?" ":?" "+" ":+"   default/assign/error/alternative
           "#" "##" "%" "%%"        remove prefix/suffix pattern
           "/" "//" "/#" "/%"       replace first / all / anchored at start / end
           ":"                      substring: arg is the offset, arg2 the length (or None)
           "^" "^^" "," ",,"        case modification (arg is the pattern, may be None)
           "!"                      indirection `${!X}`
           "!@" "!*"                `${!a[@]}`: the indices of an array (name is the array)
           "names@" "names*"        `${!prefix@}`: the names of the set variables that start
                                    with the prefix (name is the prefix)
           "@Q" "@E" "@P" "@A" "@K" "@k" "@a" "@U" "@u" "@L"   `${x@Q}`: transformations
    arg:   the operator's word (for "/" ops: the pattern), None when absent.
    arg2:  the replacement for "/" ops, the length for ":"; None when absent.
    For ":" arg and arg2 are words whose expanded text is evaluated as arithmetic.
    """
    name: str
    op: str | None = None
    arg: "Word | None" = None
    arg2: "Word | None" = None
    index: str | None = None


@dataclass(frozen=True)
class CommandSub:
    """`$(...)` or a backquoted command: the parsed script, and its source text."""
    script: "Script"
    source: str = ""


@dataclass(frozen=True)
class ProcessSub:
    """`<(...)` or `>(...)`: the parsed script; the word gets a path (`/dev/fd/63`) that
    reads what the script printed (`<`) or feeds the script what is written to it (`>`)."""
    direction: str  # "<" or ">"
    script: "Script"
    source: str = ""


@dataclass(frozen=True)
class ArithSub:
    """`$((...))`: the expression as a word (parameters and substitutions in it are expanded
    first, then the text is evaluated as arithmetic; bare names are read as variables)."""
    expression: "Word"


@dataclass(frozen=True)
class BraceExpansion:
    """`{a,b}` or `{1..5}` / `{a..e}` / `{1..10..2}` in an unquoted word.
    alternatives: for a list, one Word per alternative; for a sequence, None.
    sequence: (start, end, step or None) as source strings, for a sequence; else None."""
    alternatives: tuple["Word", ...] | None = None
    sequence: tuple[str, str, str | None] | None = None


WordPart = Union[Literal, Quoted, DoubleQuoted, Tilde, Param, CommandSub, ProcessSub, ArithSub, BraceExpansion]


@dataclass(frozen=True)
class Word:
    parts: tuple[WordPart, ...]
    source: str = ""  # the word as written, for messages and traces


# ---------------------------------------------------------------- redirections


@dataclass(frozen=True)
class HereDoc:
    """The body of `<<EOF` / `<<-EOF` (tabs already stripped for `<<-`).
    quoted: the delimiter was quoted, so the body is literal; else `body` is a Word whose
    parts are Quoted text, Param, CommandSub and ArithSub (backslash rules of here-docs)."""
    body: "Word"
    quoted: bool


@dataclass(frozen=True)
class Redirect:
    """op: one of `<`, `>`, `>>`, `>|`, `<>`, `>&`, `<&`, `&>`, `&>>`, `<<`, `<<-`, `<<<`.
    fd: the explicit descriptor number written before the operator (`2>`), else None
    (the default is 0 for `<` forms, 1 for `>` forms).
    target: the file word; for `>&`/`<&` the word names a descriptor (`1`) or `-`;
    for here-documents a HereDoc."""
    op: str
    target: "Word | HereDoc"
    fd: int | None = None


# ---------------------------------------------------------------- commands


@dataclass(frozen=True)
class Assignment:
    """`NAME=value`, `NAME+=value`, `NAME[i]=value`, `NAME=(a b c)`, `NAME+=(d)`.
    value is a Word, or a tuple of Words for an array literal."""
    name: str
    value: "Word | tuple[Word, ...]"
    append: bool = False
    index: str | None = None  # subscript source text for `NAME[i]=...`


@dataclass(frozen=True)
class SimpleCommand:
    """Assignments, words and redirections in source order of their kinds.
    A command with no words only assigns (to the shell itself)."""
    assignments: tuple[Assignment, ...] = ()
    words: tuple[Word, ...] = ()
    redirects: tuple[Redirect, ...] = ()
    line: int = 1


@dataclass(frozen=True)
class Pipeline:
    """`a | b | c`, `! a`, `a |& b` (stderr of a joins the pipe: `pipe_stderr[i]` is True
    for the `|&` after command i)."""
    commands: tuple["Command", ...]
    negated: bool = False
    pipe_stderr: tuple[bool, ...] = ()


@dataclass(frozen=True)
class AndOr:
    """`p1 && p2 || p3`: the first pipeline, then (operator, pipeline) pairs."""
    first: Pipeline
    rest: tuple[tuple[str, Pipeline], ...] = ()


@dataclass(frozen=True)
class Script:
    """A list of and-or lists separated by `;`, `&` is refused by the parser, or newlines."""
    items: tuple[AndOr, ...] = ()


@dataclass(frozen=True)
class BraceGroup:
    body: Script
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True)
class Subshell:
    body: Script
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True)
class If:
    """`if c1; then b1; elif c2; then b2; else b3; fi` -> clauses ((c1, b1), (c2, b2))."""
    clauses: tuple[tuple[Script, Script], ...]
    else_body: Script | None = None
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True)
class For:
    """`for x in w1 w2; do ...; done`; words None means `for x; do` (over "$@")."""
    variable: str
    words: tuple[Word, ...] | None
    body: Script
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True)
class ArithFor:
    """`for ((init; cond; step)); do ...; done`: each expression a word like ArithSub's
    (an empty word when left out; an empty condition is true)."""
    init: Word
    condition: Word
    step: Word
    body: Script
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True)
class While:
    """`while c; do b; done`, or `until` when until is True."""
    condition: Script
    body: Script
    until: bool = False
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True)
class CaseItem:
    patterns: tuple[Word, ...]
    body: Script
    terminator: str = ";;"  # ";;", ";&" (fall through) or ";;&" (test the next patterns)


@dataclass(frozen=True)
class Case:
    word: Word
    items: tuple[CaseItem, ...]
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True)
class FunctionDef:
    name: str
    body: "Command"  # a compound command, usually a BraceGroup
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True)
class ArithCommand:
    """`(( expr ))`: status 0 when the value is non-zero."""
    expression: Word
    redirects: tuple[Redirect, ...] = ()


# `[[ ... ]]` expressions


@dataclass(frozen=True)
class CondWord:
    """A lone word: true when its expansion is non-empty."""
    word: Word


@dataclass(frozen=True)
class CondUnary:
    """`-f file`, `-z str`, `-n str`, `-v name`..."""
    op: str
    operand: Word


@dataclass(frozen=True)
class CondBinary:
    """`==`/`=`/`!=` (right side is a pattern; its quoted parts match literally), `=~`
    (right side is an ERE; quoted parts literal), `<` `>`, `-eq -ne -lt -le -gt -ge`
    (arithmetic), `-nt -ot -ef`."""
    op: str
    left: Word
    right: Word


@dataclass(frozen=True)
class CondNot:
    operand: "CondExpr"


@dataclass(frozen=True)
class CondAnd:
    left: "CondExpr"
    right: "CondExpr"


@dataclass(frozen=True)
class CondOr:
    left: "CondExpr"
    right: "CondExpr"


CondExpr = Union[CondWord, CondUnary, CondBinary, CondNot, CondAnd, CondOr]


@dataclass(frozen=True)
class CondCommand:
    """`[[ expr ]]` (parentheses group; they need no node of their own)."""
    expression: CondExpr
    redirects: tuple[Redirect, ...] = ()


Command = Union[SimpleCommand, BraceGroup, Subshell, If, For, ArithFor, While, Case, FunctionDef,
                ArithCommand, CondCommand]
