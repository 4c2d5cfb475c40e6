"""The patch text as GNU patch reads it: lines, comments, indentation, trailing CRs, and
the hunks of unified, context and normal diffs (pch.c's another_hunk).

Positions are line indexes into the patch; a fatal parse error raises PatchFatal with
GNU's words. Every loop advances through the finite list of lines: nothing recurses."""
from __future__ import annotations

from dataclasses import dataclass, field

NO_DIFF, CONTEXT_DIFF, NORMAL_DIFF, ED_DIFF, NEW_CONTEXT_DIFF, UNI_DIFF, GIT_BINARY_DIFF = range(7)
LINENUM_MAX = 2 ** 63 - 1


class PatchFatal(Exception):
    """patch: **** <message> (exit 2)."""


@dataclass
class Hunk:
    """One hunk: the old lines (' ', '-', '!') and the new lines (' ', '+', '!'), each
    line's bytes with its newline (none when the patch marked it incomplete)."""
    first: int
    ptrn_lines: int
    newfirst: int
    repl_lines: int
    old: list[tuple[str, bytes]] = field(default_factory=list)
    new: list[tuple[str, bytes]] = field(default_factory=list)
    prefix_context: int = 0
    suffix_context: int = 0
    c_function: bytes | None = None
    hunk_beg: int = 0

    def swapped(self) -> "Hunk":
        """pch_swap: the hunk that undoes this one."""
        flip = {"+": "-", "-": "+"}
        return Hunk(first=self.newfirst, ptrn_lines=self.repl_lines, newfirst=self.first,
                    repl_lines=self.ptrn_lines,
                    old=[(flip.get(c, c), text) for c, text in self.new],
                    new=[(flip.get(c, c), text) for c, text in self.old],
                    prefix_context=self.prefix_context, suffix_context=self.suffix_context,
                    c_function=self.c_function, hunk_beg=self.hunk_beg)


def _scan_linenum(text: bytes, at: int, line_no: int, buf: bytes) -> tuple[int, int]:
    end = at
    while end < len(text) and 48 <= text[end] <= 57:
        end += 1
    if end == at:
        raise PatchFatal(f"missing line number at line {line_no}: {_show(buf)}")
    value = int(text[at:end])
    if value > LINENUM_MAX:
        raise PatchFatal(f"line number {text[at:end].decode()} is too large at line {line_no}: {_show(buf)}")
    return value, end


def _show(buf: bytes) -> str:
    return buf.decode("utf-8", "surrogateescape")


class PatchInput:
    """The patch file with GNU's reading position (a line index) and line counter."""

    def __init__(self, data: bytes, say) -> None:
        parts = data.split(b"\n")
        self.lines = [part + b"\n" for part in parts[:-1]]
        self.partial = parts[-1]  # bytes after the last newline
        self.size = len(data)
        self.say = say
        self.pos = 0
        self.input_line = 0
        self.indent = 0
        self.strip_cr = False
        self.buf = b""

    def at_end(self, index: int) -> bool:
        return index >= len(self.lines) + (1 if self.partial else 0)

    def raw(self, index: int) -> bytes:
        return self.lines[index] if index < len(self.lines) else self.partial

    def pget_line(self, indent: int, strip_cr: bool) -> bytes | None:
        """A line with up to `indent` columns of indentation removed; '#' lines skipped;
        None at the end (an unterminated last line is reported and dropped)."""
        while True:
            if self.pos >= len(self.lines):
                if self.partial and self.pos == len(self.lines):
                    self.say("patch unexpectedly ends in middle of line\n")
                    self.pos += 1  # read to the end
                return None
            line = self.lines[self.pos]
            self.pos += 1
            column = 0
            start = 0
            while start < len(line) - 1 and column < indent:
                char = line[start]
                if char in (32, 88):  # ' ' 'X'
                    column += 1
                elif char == 9:
                    column = (column + 8) & ~7
                else:
                    break
                start += 1
            line = line[start:]
            self.input_line += 1
            if line.startswith(b"#"):
                continue
            if strip_cr and len(line) >= 2 and line[-2:] == b"\r\n":
                line = line[:-2] + b"\n"
            self.buf = line
            return line

    def get_line(self) -> bytes | None:
        return self.pget_line(self.indent, self.strip_cr)

    def incomplete_line(self) -> bool:
        """Consume a following `\\ No newline at end of file` line."""
        if self.pos < len(self.lines) and self.lines[self.pos].startswith(b"\\"):
            self.pos += 1
            return True
        if self.pos == len(self.lines) and self.partial.startswith(b"\\"):
            self.pos += 1
            return True
        return False

    def malformed(self) -> PatchFatal:
        return PatchFatal(f"malformed patch at line {self.input_line}: {_show(self.buf)}")

    # -- hunks -------------------------------------------------------------------------

    def another_hunk(self, diff_type: int) -> Hunk | None:
        """The next hunk of the current file's patch, or None when its hunks are done (the
        reading position is then where the next patch's search starts)."""
        if diff_type == UNI_DIFF:
            return self._unified()
        if diff_type in (CONTEXT_DIFF, NEW_CONTEXT_DIFF):
            return self._context(diff_type)
        if diff_type == NORMAL_DIFF:
            return self._normal()
        return None

    def _unified(self) -> Hunk | None:
        beginning, line_no = self.pos, self.input_line
        line = self.get_line()
        if line is None or len(line) <= 4 or not line.startswith(b"@@ -"):
            self.pos, self.input_line = beginning, line_no
            return None
        buf = line
        n = self.input_line
        first, at = _scan_linenum(line, 4, n, buf)
        ptrn = 1
        if at < len(line) and line[at] == 44:
            ptrn, at = _scan_linenum(line, at + 1, n, buf)
        if at < len(line) and line[at] == 32:
            at += 1
        if at >= len(line) or line[at] != 43:
            raise self.malformed()
        newfirst, at = _scan_linenum(line, at + 1, n, buf)
        repl = 1
        if at < len(line) and line[at] == 44:
            repl, at = _scan_linenum(line, at + 1, n, buf)
        if at < len(line) and line[at] == 32:
            at += 1
        if at >= len(line) or line[at] != 64:
            raise self.malformed()
        at += 1
        c_function = None
        if at < len(line) and line[at] == 64 and at + 1 < len(line) and line[at + 1] == 32:
            c_function = line[at + 1:].rstrip(b"\n")
        if not ptrn:
            first += 1
        if not repl:
            newfirst += 1
        hunk = Hunk(first=first, ptrn_lines=ptrn, newfirst=newfirst, repl_lines=repl, c_function=c_function,
                    hunk_beg=self.input_line + 1)
        self.buf = b"--- %d,%d ----\n" % (newfirst, newfirst + repl - 1)  # GNU reuses its line buffer
        p_max = ptrn + repl + 1
        filldst = ptrn + 2  # GNU's index of the next new line
        p_end = ptrn + 1 + repl
        prefix_context = -1
        context = 0
        while len(hunk.old) < ptrn or filldst <= p_end:
            line = self.get_line()
            if line is None:
                if p_max - filldst < 3:
                    line = b" \n"  # assume blank lines got chopped
                    self.buf = line
                else:
                    raise PatchFatal("unexpected end of file in patch")
            if line[:1] in (b"\t", b"\n"):
                char, text = " ", line  # assume the space got eaten
            else:
                char, text = chr(line[0]), line[1:]
            if char == "-":
                if len(hunk.old) >= ptrn:
                    raise self.malformed()
                if len(hunk.old) == ptrn - 1 and self.incomplete_line():
                    text = text[:-1]
                hunk.old.append(("-", text))
            elif char in " =":
                char = " "
                if len(hunk.old) >= ptrn:
                    raise self.malformed()
                context += 1
                if len(hunk.old) == ptrn - 1 and self.incomplete_line():
                    text = text[:-1]
                hunk.old.append((" ", text))
                if filldst > p_end:
                    raise self.malformed()
                if filldst == p_end and self.incomplete_line():
                    text = text[:-1]
                hunk.new.append((" ", text))
                filldst += 1
            elif char == "+":
                if filldst > p_end:
                    raise self.malformed()
                if filldst == p_end and self.incomplete_line():
                    text = text[:-1]
                hunk.new.append(("+", text))
                filldst += 1
            else:
                raise self.malformed()
            if char != " ":
                if prefix_context == -1:
                    prefix_context = context
                context = 0
        if prefix_context == -1:
            raise self.malformed()
        hunk.prefix_context = prefix_context
        hunk.suffix_context = context
        return hunk

    def _context(self, diff_type: int) -> Hunk | None:
        beginning, line_no = self.pos, self.input_line
        line = self.get_line()
        if line is None or len(line) <= 8 or not line.startswith(b"********"):
            self.pos, self.input_line = beginning, line_no
            return None
        rest = line.lstrip(b"*")
        c_function = rest.rstrip(b"\n") if rest.startswith(b" ") else None
        hunk_beg = self.input_line + 1
        line = self.get_line()
        if line is None:
            raise PatchFatal("unexpected end of file in patch")
        if not line.startswith(b"*"):
            raise self.malformed()
        if line.startswith(b"********"):
            raise PatchFatal(f"unexpected end of hunk at line {self.input_line}")
        first, ptrn = self._context_range(line)
        old: list[tuple[str, bytes]] = []
        while True:
            line = self.get_line()
            if line is None:
                raise PatchFatal("unexpected end of file in patch")
            if line.startswith(b"--- ") or line == b"---\n":
                break
            char, text = self._context_line(line, ptrn - len(old))
            if char is None:
                raise self.malformed()
            old.append((char, text))
        if old and len(old) != ptrn:
            word = "Premature" if len(old) < ptrn else "Overdue"
            raise PatchFatal(f"{word} '---' at line {self.input_line}; check line numbers at line {hunk_beg}")
        newfirst, repl = self._context_range(line)
        new: list[tuple[str, bytes]] = []
        while len(new) < repl:
            mark = self.pos, self.input_line
            line = self.get_line()
            char, text = (None, b"") if line is None else self._context_line(line, repl - len(new))
            if char is None:
                if new or line is not None and not line.startswith((b"*", b"diff ", b"Index:", b"--- ")):
                    if line is None:
                        raise PatchFatal("unexpected end of file in patch")
                    raise self.malformed()
                self.pos, self.input_line = mark
                break
            new.append((char, text))
        ptrn_missing = not old and ptrn > 0
        repl_missing = not new and repl > 0
        if ptrn_missing and not any(c == " " for c, _ in new) and ptrn == 1:
            first += 1  # a null hunk with no context: append rather than insert
            ptrn = 0
            ptrn_missing = False
        if ptrn_missing:
            old = [(c, t) for c, t in new if c == " "]
        if repl_missing:
            new = [(c, t) for c, t in old if c == " "]
        if len(old) != ptrn or len(new) != repl:
            raise PatchFatal(f"replacement text or line numbers mangled in hunk at line {hunk_beg}")

        def leading(lines):
            for index, (c, _) in enumerate(lines):
                if c != " ":
                    return index
            return -1

        def trailing(lines):
            count = 0
            for c, _ in reversed(lines):
                if c != " ":
                    break
                count += 1
            return count

        ptrn_prefix = -1 if ptrn_missing else (leading(old) if leading(old) != -1 else len(old))
        ptrn_suffix = -1 if ptrn_missing else trailing(old)
        repl_prefix = -1 if repl_missing else leading(new)
        end_context = trailing(old) if repl_missing else trailing(new)
        prefix = ptrn_prefix if repl_prefix == -1 or (ptrn_prefix != -1 and ptrn_prefix < repl_prefix) \
            else repl_prefix
        suffix = ptrn_suffix if ptrn_suffix != -1 and ptrn_suffix < end_context else end_context
        if prefix == -1 or suffix == -1:
            raise PatchFatal(f"replacement text or line numbers mangled in hunk at line {hunk_beg}")
        return Hunk(first=first, ptrn_lines=ptrn, newfirst=newfirst, repl_lines=repl, old=old, new=new,
                    prefix_context=prefix, suffix_context=suffix, c_function=c_function, hunk_beg=hunk_beg)

    def _context_line(self, line: bytes, remaining: int) -> tuple[str | None, bytes]:
        """A context-diff hunk line: its mark (' ', '-', '+', '!') and text."""
        char = chr(line[0])
        if char in " -+!" and line[1:2] in (b" ", b"\t"):
            text = line[2:]
        elif char in " -+!" and line[1:2] == b"\n":
            text = line[1:]
        elif char in "\t\n":
            char, text = " ", line[1:] if char == "\t" else line
        else:
            return None, b""
        if remaining == 1 and self.incomplete_line():
            text = text[:-1]
        return char, text

    def _context_range(self, line: bytes) -> tuple[int, int]:
        at = 0
        while at < len(line) and not 48 <= line[at] <= 57:
            at += 1
        if line[at:at + 3] == b"0,0":
            line = line[:at] + line[at + 2:]
        first, at = _scan_linenum(line, at, self.input_line, line)
        if at < len(line) and line[at] == 44:
            while at < len(line) and not 48 <= line[at] <= 57:
                at += 1
            last, _ = _scan_linenum(line, at, self.input_line, line)
            count = last + 1 - first
            if count < 0:
                raise self.malformed()
            return first, count
        if first:
            return first, 1
        return 1, 0

    def _normal(self) -> Hunk | None:
        beginning, line_no = self.pos, self.input_line
        line = self.get_line()
        if line is None or not line[:1].isdigit():
            self.pos, self.input_line = beginning, line_no
            return None
        n = self.input_line
        first, at = _scan_linenum(line, 0, n, line)
        if at < len(line) and line[at] == 44:
            last, at = _scan_linenum(line, at + 1, n, line)
            ptrn = last + 1 - first
        else:
            ptrn = 0 if line[at:at + 1] == b"a" else 1
        kind = line[at:at + 1]
        if kind not in (b"a", b"c", b"d"):
            raise self.malformed()
        if kind == b"a":
            first += 1
        low, at = _scan_linenum(line, at + 1, n, line)
        high = low
        if at < len(line) and line[at] == 44:
            high, at = _scan_linenum(line, at + 1, n, line)
        if low > high:
            raise self.malformed()
        if kind == b"d":
            low += 1
        hunk = Hunk(first=first, ptrn_lines=ptrn, newfirst=low, repl_lines=high - low + 1, hunk_beg=n + 1)
        for index in range(ptrn):
            line = self.get_line()
            if line is None:
                raise PatchFatal(f"unexpected end of file in patch at line {self.input_line}")
            if not line.startswith((b"< ", b"<\t")):
                raise PatchFatal(f"'<' expected at line {self.input_line} of patch")
            text = line[2:]
            if index == ptrn - 1 and self.incomplete_line():
                text = text[:-1]
            hunk.old.append(("-", text))
        if kind == b"c":
            line = self.get_line()
            if line is None:
                raise PatchFatal(f"unexpected end of file in patch at line {self.input_line}")
            if not line.startswith(b"-"):
                raise PatchFatal(f"'---' expected at line {self.input_line} of patch")
        for index in range(hunk.repl_lines):
            line = self.get_line()
            if line is None:
                raise PatchFatal(f"unexpected end of file in patch at line {self.input_line}")
            if not line.startswith((b"> ", b">\t")):
                raise PatchFatal(f"'>' expected at line {self.input_line} of patch")
            text = line[2:]
            if index == hunk.repl_lines - 1 and self.incomplete_line():
                text = text[:-1]
            hunk.new.append(("+", text))
        return hunk
