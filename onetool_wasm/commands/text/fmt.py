"""fmt: fill paragraphs to a width, as GNU coreutils 9.1 fmt (Ross Paterson's optimal filling).

Each paragraph (lines of the same indentation, ended by a blank line or an indentation change;
-c/-t allow a different first line, -s keeps every line apart) is broken at the places that
minimise GNU's costs: the square of each line's distance from the goal width (93% of -w, or
-g), raggedness between neighbouring lines, bonuses for breaking after a sentence or
punctuation and before a parenthesis, penalties for widows, orphans and breaking after a
period that ends no sentence. -u makes spacing uniform (one space, two after a sentence);
-p PREFIX only fills lines starting with PREFIX and puts it back. Tabs in the input allow
tabs in the output indentation, as in GNU's.
"""
from __future__ import annotations

import re

from ...result import TEXT, CommandResult
from ...vfs.errors import VFSError
from ..getopt import NONE, REQUIRED, gnu_getopt
from ..helpers import FS_ERRORS, GNU_ERRORS, no_input_error, read_file_bytes
from ..spec import CommandContext, CommandFailed, CommandSpec

USAGE = "fmt [-WIDTH] [-w WIDTH] [-g GOAL] [-s] [-u] [-c] [-t] [-p PREFIX] [FILE...]"
TRY = "Try 'fmt --help' for more information."
_LONG = {
    "crown-margin": ("c", NONE), "prefix": ("p", REQUIRED), "split-only": ("s", NONE),
    "tagged-paragraph": ("t", NONE), "uniform-spacing": ("u", NONE), "width": ("w", REQUIRED),
    "goal": ("g", REQUIRED), "help": ("help", NONE), "version": ("version", NONE),
}
WIDTH = 75
LEEWAY = 7
DEF_INDENT = 3
MAXWORDS = 1000
MAXCHARS = 5000
TABWIDTH = 8
EOF = -1
MAXCOST = (1 << 63) - 1


def _equiv(n: int) -> int:
    return n * n


def _short_cost(n: int) -> int:
    return _equiv(n * 10)


def _ragged_cost(n: int) -> int:
    return _short_cost(n) // 2


LINE_COST = _equiv(70)
SENTENCE_BONUS = _equiv(50)
NOBREAK_COST = _equiv(600)
PAREN_BONUS = _equiv(40)
PUNCT_BONUS = _equiv(40)
LINE_CREDIT = _equiv(3)


def _c_div(a: int, b: int) -> int:
    """C's truncating division."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b >= 0) else -quotient


def _widow_cost(n: int) -> int:
    return _c_div(_equiv(200), n + 2)


def _orphan_cost(n: int) -> int:
    return _c_div(_equiv(150), n + 2)


def _failure(*lines: str) -> CommandFailed:
    return CommandFailed(CommandResult(b"", "\n".join(lines), 1, TEXT))


class Word:
    __slots__ = ("start", "length", "space", "paren", "period", "punct", "final",
                 "line_length", "best_cost", "next_break")

    def __init__(self) -> None:
        self.start = 0
        self.length = 0
        self.space = 0
        self.paren = self.period = self.punct = self.final = False
        self.line_length = 0
        self.best_cost = 0
        self.next_break = 0


_OPEN = b"(['`\""
_CLOSE = b")]'\""
_PERIOD = b".?!"
_PUNCT = set(b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


class Formatter:
    """GNU fmt's state machine over one input, writing to `out`."""

    def __init__(self, width: int, goal: int, prefix: bytes, lead_space: int, full_length: int,
                 crown: bool, tagged: bool, split: bool, uniform: bool) -> None:
        self.max_width, self.goal_width = width, goal
        self.prefix, self.prefix_lead_space, self.prefix_full_length = prefix, lead_space, full_length
        self.prefix_length = len(prefix)
        self.crown, self.tagged, self.split, self.uniform = crown, tagged, split, uniform
        self.out = bytearray()
        self.words = [Word() for _ in range(MAXWORDS + 1)]
        self.parabuf = bytearray(MAXCHARS)
        self.other_indent = 0

    # -- input
    def getc(self) -> int:
        if self.pos >= len(self.data):
            return EOF
        self.pos += 1
        return self.data[self.pos - 1]

    def run(self, data: bytes) -> None:
        self.data, self.pos = data, 0
        self.tabs = False
        self.other_indent = 0
        self.in_column = self.out_column = 0
        self.next_prefix_indent = 0
        self.next_char = self.get_prefix()
        while self.get_paragraph():
            self.fmt_paragraph()
            self.put_paragraph(self.word_limit)

    def set_other_indent(self, same_paragraph: bool) -> None:
        if self.split:
            self.other_indent = self.first_indent
        elif self.crown:
            self.other_indent = self.in_column if same_paragraph else self.first_indent
        elif self.tagged:
            if same_paragraph and self.in_column != self.first_indent:
                self.other_indent = self.in_column
            elif self.other_indent == self.first_indent:
                self.other_indent = DEF_INDENT if self.first_indent == 0 else 0
        else:
            self.other_indent = self.first_indent

    def get_paragraph(self) -> bool:
        self.last_line_length = 0
        c = self.next_char
        while (c in (10, EOF) or self.next_prefix_indent < self.prefix_lead_space
               or self.in_column < self.next_prefix_indent + self.prefix_full_length):
            c = self.copy_rest(c)
            if c == EOF:
                self.next_char = EOF
                return False
            self.out.append(10)
            c = self.get_prefix()
        self.prefix_indent = self.next_prefix_indent
        self.first_indent = self.in_column
        self.wptr = 0
        self.word_limit = 0
        c = self.get_line(c)
        self.set_other_indent(self.same_para(c))
        if self.split:
            pass
        elif self.crown:
            if self.same_para(c):
                c = self.get_line(c)
                while self.same_para(c) and self.in_column == self.other_indent:
                    c = self.get_line(c)
        elif self.tagged:
            if self.same_para(c) and self.in_column != self.first_indent:
                c = self.get_line(c)
                while self.same_para(c) and self.in_column == self.other_indent:
                    c = self.get_line(c)
        else:
            while self.same_para(c) and self.in_column == self.other_indent:
                c = self.get_line(c)
        last = self.words[self.word_limit - 1]
        last.period = last.final = True
        self.next_char = c
        return True

    def copy_rest(self, c: int) -> int:
        self.out_column = 0
        if self.in_column > self.next_prefix_indent or c not in (10, EOF):
            self.put_space(self.next_prefix_indent)
            index = 0
            while self.out_column != self.in_column and index < len(self.prefix):
                self.out.append(self.prefix[index])
                index += 1
                self.out_column += 1
            if c not in (EOF, 10):
                self.put_space(self.in_column - self.out_column)
            if c == EOF and self.in_column >= self.next_prefix_indent + self.prefix_length:
                self.out.append(10)
        while c not in (10, EOF):
            self.out.append(c)
            c = self.getc()
        return c

    def same_para(self, c: int) -> bool:
        return (self.next_prefix_indent == self.prefix_indent
                and self.in_column >= self.next_prefix_indent + self.prefix_full_length
                and c not in (10, EOF))

    def get_line(self, c: int) -> int:
        while True:
            word = self.words[self.word_limit]
            word.start = self.wptr
            while True:
                if self.wptr == MAXCHARS:
                    self.set_other_indent(True)
                    self.flush_paragraph()
                    word = self.words[self.word_limit]
                self.parabuf[self.wptr] = c
                self.wptr += 1
                c = self.getc()
                if c in (EOF, 32, 9, 10):
                    break
            word.length = self.wptr - word.start
            self.in_column += word.length
            self.check_punctuation(word)
            start = self.in_column
            c = self.get_space(c)
            word.space = self.in_column - start
            word.final = c == EOF or (word.period and (c == 10 or word.space > 1))
            if c in (10, EOF) or self.uniform:
                word.space = 2 if word.final else 1
            if self.word_limit == MAXWORDS - 2:
                self.set_other_indent(True)
                self.flush_paragraph()
            self.word_limit += 1
            if c in (10, EOF):
                break
        return self.get_prefix()

    def get_prefix(self) -> int:
        self.in_column = 0
        c = self.get_space(self.getc())
        if self.prefix_length == 0:
            self.next_prefix_indent = min(self.prefix_lead_space, self.in_column)
        else:
            self.next_prefix_indent = self.in_column
            for byte in self.prefix:
                if c != byte:
                    return c
                self.in_column += 1
                c = self.getc()
            c = self.get_space(c)
        return c

    def get_space(self, c: int) -> int:
        while True:
            if c == 32:
                self.in_column += 1
            elif c == 9:
                self.tabs = True
                self.in_column = (self.in_column // TABWIDTH + 1) * TABWIDTH
            else:
                return c
            c = self.getc()

    def check_punctuation(self, word: Word) -> None:
        text = self.parabuf[word.start:word.start + word.length]
        word.paren = text[0] in _OPEN
        word.punct = text[-1] in _PUNCT
        finish = len(text) - 1
        while finish > 0 and text[finish] in _CLOSE:
            finish -= 1
        word.period = text[finish] in _PERIOD

    # -- the optimisation
    def flush_paragraph(self) -> None:
        if self.word_limit == 0:
            self.out += self.parabuf[:self.wptr]
            self.wptr = 0
            return
        self.fmt_paragraph()
        words = self.words
        split_point = self.word_limit
        best_break = MAXCOST
        w = words[0].next_break
        while w != self.word_limit:
            difference = words[w].best_cost - words[words[w].next_break].best_cost
            if difference < best_break:
                split_point = w
                best_break = difference
            if best_break <= MAXCOST - LINE_CREDIT:
                best_break += LINE_CREDIT
            w = words[w].next_break
        self.put_paragraph(split_point)
        shift = words[split_point].start
        self.parabuf[0:self.wptr - shift] = self.parabuf[shift:self.wptr]
        self.wptr -= shift
        for index in range(split_point, self.word_limit + 1):
            words[index].start -= shift
        moved = words[split_point:self.word_limit + 1]
        for offset, word in enumerate(moved):
            target = words[offset]
            for name in Word.__slots__:
                setattr(target, name, getattr(word, name))
        for offset in range(len(moved)):
            words[offset].next_break -= split_point
        self.word_limit -= split_point

    def fmt_paragraph(self) -> None:
        words = self.words
        limit = self.word_limit
        words[limit].best_cost = 0
        saved = words[limit].length
        words[limit].length = self.max_width
        for start in range(limit - 1, -1, -1):
            best = MAXCOST
            length = self.first_indent if start == 0 else self.other_indent
            w = start
            length += words[w].length
            while True:
                w += 1
                cost = self.line_cost(w, length) + words[w].best_cost
                if start == 0 and self.last_line_length > 0:
                    cost += _ragged_cost(length - self.last_line_length)
                if cost < best:
                    best = cost
                    words[start].next_break = w
                    words[start].line_length = length
                if w == limit:
                    break
                length += words[w - 1].space + words[w].length
                if length >= self.max_width:
                    break
            words[start].best_cost = best + self.base_cost(start)
        words[limit].length = saved

    def base_cost(self, this: int) -> int:
        words = self.words
        cost = LINE_COST
        if this > 0:
            before = words[this - 1]
            if before.period:
                cost += -SENTENCE_BONUS if before.final else NOBREAK_COST
            elif before.punct:
                cost -= PUNCT_BONUS
            elif this > 1 and words[this - 2].final:
                cost += _widow_cost(before.length)
        if words[this].paren:
            cost -= PAREN_BONUS
        elif words[this].final:
            cost += _orphan_cost(words[this].length)
        return cost

    def line_cost(self, following: int, length: int) -> int:
        if following == self.word_limit:
            return 0
        cost = _short_cost(self.goal_width - length)
        word = self.words[following]
        if word.next_break != self.word_limit:
            cost += _ragged_cost(length - word.line_length)
        return cost

    # -- output
    def put_paragraph(self, finish: int) -> None:
        self.put_line(0, self.first_indent)
        w = self.words[0].next_break
        while w != finish:
            self.put_line(w, self.other_indent)
            w = self.words[w].next_break

    def put_line(self, w: int, indent: int) -> None:
        self.out_column = 0
        self.put_space(self.prefix_indent)
        self.out += self.prefix
        self.out_column += self.prefix_length
        self.put_space(indent - self.out_column)
        end = self.words[w].next_break - 1
        while w != end:
            self.put_word(w)
            self.put_space(self.words[w].space)
            w += 1
        self.put_word(w)
        self.last_line_length = self.out_column
        self.out.append(10)

    def put_word(self, w: int) -> None:
        word = self.words[w]
        self.out += self.parabuf[word.start:word.start + word.length]
        self.out_column += word.length

    def put_space(self, space: int) -> None:
        target = self.out_column + space
        if self.tabs:
            tab_target = target // TABWIDTH * TABWIDTH
            if self.out_column + 1 < tab_target:
                while self.out_column < tab_target:
                    self.out.append(9)
                    self.out_column = (self.out_column // TABWIDTH + 1) * TABWIDTH
        while self.out_column < target:
            self.out.append(32)
            self.out_column += 1


def _width(text: str, high: int) -> int:
    match = re.fullmatch(r"[ \t\n\v\f\r]*\+?([0-9]+)", text)
    if not match:
        raise _failure(f"fmt: invalid width: '{text}'")
    value = int(match.group(1))
    if value > high:
        raise _failure(f"fmt: invalid width: '{text}': Numerical result out of range")
    return value


def parse_args(args: list[str]) -> tuple[Formatter, list[str]]:
    width_text: str | None = None
    if args and len(args[0]) > 1 and args[0][0] == "-" and args[0][1].isdigit():
        width_text, args = args[0][1:], args[1:]
    try:
        raw, paths = gnu_getopt("fmt", USAGE, args, "0123456789cstuw:p:g:", _LONG)
    except CommandFailed as failure:
        raise _failure(failure.result.stderr.split(". Usage: ", 1)[0], TRY) from None
    crown = tagged = split = uniform = False
    prefix, lead, full = b"", 0, 0
    goal_text: str | None = None
    for key, value in raw:
        if key.isdigit():
            raise _failure(f"fmt: invalid option -- {key}; -WIDTH is recognized only when it is the first\n"
                           "option; use -w N instead", TRY)
        if key == "c":
            crown = True
        elif key == "s":
            split = True
        elif key == "t":
            tagged = True
        elif key == "u":
            uniform = True
        elif key == "w":
            width_text = value or ""
        elif key == "g":
            goal_text = value or ""
        elif key == "p":
            raw_prefix = (value or "").encode("utf-8", "surrogateescape")
            stripped = raw_prefix.lstrip(b" ")
            lead = len(raw_prefix) - len(stripped)
            full = len(stripped)
            prefix = stripped.rstrip(b" ")
        elif key in ("help", "version"):
            raise _failure(f"fmt: --{key} is not available here; see: help fmt")
    width = WIDTH
    if width_text is not None:
        width = _width(width_text, MAXCHARS // 2)
    if goal_text is not None:
        goal = _width(goal_text, width)
        if width_text is None:
            width = goal + 10
    else:
        goal = width * (2 * (100 - LEEWAY) + 1) // 200
    return Formatter(width, goal, prefix, lead, full, crown, tagged, split, uniform), paths


async def cmd_fmt(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    formatter, paths = parse_args(args)
    errors: list[str] = []
    for path in paths or ["-"]:
        if path == "-":
            if not (stdin or ctx.stdin_is_pipe):
                raise CommandFailed(no_input_error("fmt"))
            data = stdin
            stdin = b""
        else:
            try:
                data = await read_file_bytes(ctx, "fmt", path)
            except FS_ERRORS as error:
                code = getattr(error, "code", "") if isinstance(error, VFSError) else ""
                if code == "EISDIR":
                    errors.append("fmt: read error")
                else:
                    errors.append(f"fmt: cannot open '{path}' for reading: {GNU_ERRORS.get(code or '', str(error))}")
                continue
        formatter.run(data)
    return CommandResult(bytes(formatter.out), "\n".join(errors), 1 if errors else 0, TEXT)


FMT = CommandSpec(
    name="fmt",
    summary="Fill paragraphs to a width, as GNU fmt.",
    usage=USAGE,
    details=("Refills each paragraph (lines of one indentation, between blank lines) to at most -w WIDTH "
             "columns (default 75), choosing the breaks GNU's fmt chooses (lines near 93% of the width, "
             "breaks after sentences preferred). -s: only split long lines; -u: one space between words, "
             "two after sentences; -c / -t: the first line may / must be indented differently; "
             "-p PREFIX: only lines starting with PREFIX (e.g. '# ', '> '), which is kept; -g GOAL: goal width.\n"
             "Examples:\n  fmt -w 60 notes.txt\n  fmt -p '# ' -w 72 script.sh\n  echo 'a long line' | fmt -w 20"),
    group="text", handler=cmd_fmt,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-",), kind="read",
)

COMMANDS = [FMT]
