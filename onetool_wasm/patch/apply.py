"""Applying hunks to a file's lines as GNU patch does (patch.c's locate_hunk, apply_hunk,
copy_till, and the reject formats of abort_hunk): offsets searched outward from where the
hunk says it goes, fuzz dropping context lines from the ends, and the out-of-place hunks
written back as unified or context diffs."""
from __future__ import annotations

from .reader import NEW_CONTEXT_DIFF, UNI_DIFF, Hunk, PatchFatal


def split_lines(data: bytes) -> list[bytes]:
    """Lines with their newlines; the last one may lack it."""
    lines = data.split(b"\n")
    tail = lines.pop()
    out = [line + b"\n" for line in lines]
    if tail:
        out.append(tail)
    return out


class Applier:
    """One file's patching: the input lines, the output so far and GNU's counters."""

    def __init__(self, data: bytes) -> None:
        self.input = split_lines(data)
        self.out: list[bytes] = []
        self.after_newline = True
        self.zero_output = True
        self.last_frozen_line = 0
        self.in_offset = 0
        self.out_offset = 0

    @property
    def input_lines(self) -> int:
        return len(self.input)

    def ifetch(self, line: int) -> bytes:
        if line < 1 or line > len(self.input):
            return b""
        return self.input[line - 1]

    # -- locating ---------------------------------------------------------------------------

    def patch_match(self, hunk: Hunk, base: int, offset: int, prefix_fuzz: int, suffix_fuzz: int) -> bool:
        start = base + offset + prefix_fuzz
        pattern = hunk.old[prefix_fuzz:len(hunk.old) - suffix_fuzz]
        if start >= 1 and start - 1 + len(pattern) <= len(self.input):
            window = self.input[start - 1:start - 1 + len(pattern)]
            return all(text == line for (_, text), line in zip(pattern, window))
        return all(text == self.ifetch(start + index) for index, (_, text) in enumerate(pattern))

    def locate_hunk(self, hunk: Hunk, fuzz: int) -> int:
        first_guess = hunk.first + self.in_offset
        pat_lines = hunk.ptrn_lines
        prefix_context, suffix_context = hunk.prefix_context, hunk.suffix_context
        context = max(prefix_context, suffix_context)
        prefix_fuzz = fuzz + prefix_context - context
        suffix_fuzz = fuzz + suffix_context - context
        max_where = self.input_lines - (pat_lines - suffix_fuzz) + 1
        min_where = self.last_frozen_line + 1
        max_pos_offset = max_where - first_guess
        max_neg_offset = first_guess - min_where
        max_offset = max(max_pos_offset, max_neg_offset)
        if not pat_lines:
            return first_guess
        if first_guess <= max_neg_offset:
            max_neg_offset = first_guess - 1
        if prefix_fuzz < 0 and hunk.first <= 1:
            # Can only match the start of the file.
            if suffix_fuzz < 0 and (pat_lines != self.input_lines or prefix_context < self.last_frozen_line):
                return 0
            offset = 1 - first_guess
            if (self.last_frozen_line <= prefix_context and offset <= max_pos_offset
                    and self.patch_match(hunk, first_guess, offset, 0, max(suffix_fuzz, 0))):
                self.in_offset += offset
                return first_guess + offset
            return 0
        if prefix_fuzz < 0:
            prefix_fuzz = 0
        if suffix_fuzz < 0:
            # Can only match the end of the file.
            offset = first_guess - (self.input_lines - pat_lines + 1)
            if offset <= max_neg_offset and self.patch_match(hunk, first_guess, -offset, prefix_fuzz, 0):
                self.in_offset -= offset
                return first_guess - offset
            return 0
        if max_pos_offset < 0:
            min_offset = first_guess - max_where
        elif max_neg_offset < 0:
            min_offset = first_guess - min_where
        else:
            min_offset = 0
        for offset in range(min_offset, max_offset + 1):
            if offset <= max_pos_offset and self.patch_match(hunk, first_guess, offset, prefix_fuzz, suffix_fuzz):
                self.in_offset += offset
                return first_guess + offset
            if offset <= max_neg_offset and self.patch_match(hunk, first_guess, -offset, prefix_fuzz, suffix_fuzz):
                self.in_offset -= offset
                return first_guess - offset
        return 0

    # -- applying ---------------------------------------------------------------------------

    def _write(self, text: bytes) -> None:
        if text:
            self.out.append(text)
            self.after_newline = text.endswith(b"\n")
        self.zero_output = False

    def copy_till(self, lastline: int) -> bool:
        if self.last_frozen_line > lastline:
            return False
        while self.last_frozen_line < lastline:
            self.last_frozen_line += 1
            text = self.ifetch(self.last_frozen_line)
            if text:
                if not self.after_newline:
                    self.out.append(b"\n")
                self.out.append(text)
                self.after_newline = text.endswith(b"\n")
                self.zero_output = False
        return True

    def apply_hunk(self, hunk: Hunk, where: int) -> tuple[bool, str | None]:
        """(applied, message): False with GNU's "misordered hunks" line when the hunk would
        go before text already written."""
        old, new = hunk.old, hunk.new
        i = j = 0
        where -= 1
        while i < len(old):
            mark = old[i][0]
            if mark == "-":
                if not self.copy_till(where + i):
                    return False, "misordered hunks! output would be garbled\n"
                self.last_frozen_line += 1
                i += 1
            elif j >= len(new):
                break
            elif new[j][0] == "+":
                if not self.copy_till(where + i):
                    return False, "misordered hunks! output would be garbled\n"
                self._write(new[j][1])
                self.after_newline = new[j][1].endswith(b"\n")
                j += 1
            elif new[j][0] != mark:
                raise PatchFatal(f"Out-of-sync patch, lines {hunk.hunk_beg + i + 1},{hunk.hunk_beg + len(old) + 1 + j}"
                                 " -- mangled text or line numbers, maybe?")
            elif mark == "!":
                if not self.copy_till(where + i):
                    return False, "misordered hunks! output would be garbled\n"
                while i < len(old) and old[i][0] == "!":
                    self.last_frozen_line += 1
                    i += 1
                while j < len(new) and new[j][0] == "!":
                    self._write(new[j][1])
                    self.after_newline = new[j][1].endswith(b"\n")
                    j += 1
            else:
                i += 1
                j += 1
        if j < len(new) and new[j][0] == "+":
            if not self.copy_till(where + i):
                return False, "misordered hunks! output would be garbled\n"
            while j < len(new) and new[j][0] == "+":
                if not self.after_newline:
                    self.out.append(b"\n")
                self._write(new[j][1])
                self.after_newline = new[j][1].endswith(b"\n")
                j += 1
        self.out_offset += hunk.repl_lines - hunk.ptrn_lines
        return True, None

    def spew_output(self) -> bytes:
        if self.last_frozen_line < self.input_lines:
            self.copy_till(self.input_lines)
        return b"".join(self.out)

    def line_endings_differ(self, hunk: Hunk, where: int) -> bool:
        """check_line_endings: the patch's first pattern line and the file's line at
        `where` end differently (CRLF against LF)."""
        if not hunk.old or not hunk.old[0][1]:
            return False
        patch_crlf = hunk.old[0][1].endswith(b"\r\n")
        if not self.input_lines:
            return False
        text = self.ifetch(min(where, self.input_lines))
        if not text:
            return False
        return patch_crlf != text.endswith(b"\r\n")


# -- rejects ----------------------------------------------------------------------------------

def _unidiff_range(start: int, count: int) -> bytes:
    if count == 0:
        return b"%d,0" % (start - 1)
    if count == 1:
        return b"%d" % start
    return b"%d,%d" % (start, count)


def reject_header(diff_type: int, old_name: bytes, new_name: bytes, index_name: bytes | None) -> bytes:
    """The two header lines (names with their time stamps) a reject file starts with."""
    head = b"Index: " + index_name + b"\n" if index_name is not None else b""
    if diff_type == UNI_DIFF:
        return head + b"--- " + old_name + b"\n+++ " + new_name + b"\n"
    return head + b"*** " + old_name + b"\n--- " + new_name + b"\n"


def reject_hunk(diff_type: int, hunk: Hunk, out_offset: int) -> bytes:
    """A rejected hunk in the format of the patch (unified, or context)."""
    if diff_type == UNI_DIFF:
        return _reject_unified(hunk, out_offset)
    return _reject_context(diff_type, hunk, out_offset)


def _reject_unified(hunk: Hunk, out_offset: int) -> bytes:
    parts = [b"@@ -", _unidiff_range(hunk.first + out_offset, hunk.ptrn_lines), b" +",
             _unidiff_range(hunk.newfirst + out_offset, hunk.repl_lines), b" @@",
             hunk.c_function or b"", b"\n"]
    old = [("-" if c == "!" else c, t) for c, t in hunk.old]
    new = [("+" if c == "!" else c, t) for c, t in hunk.new]
    i = j = 0
    while True:
        while i < len(old) and old[i][0] == "-":
            parts += [b"-", old[i][1]]
            i += 1
        while j < len(new) and new[j][0] == "+":
            parts += [b"+", new[j][1]]
            j += 1
        if i >= len(old):
            break
        if j >= len(new) or new[j][0] != old[i][0]:
            raise PatchFatal(f"Out-of-sync patch, lines {hunk.hunk_beg + i + 1},{hunk.hunk_beg + j + 1}"
                             " -- mangled text or line numbers, maybe?")
        parts += [b" ", old[i][1]]
        i += 1
        j += 1
    return b"".join(parts)


def _reject_context(diff_type: int, hunk: Hunk, out_offset: int) -> bytes:
    stars = b" ****" if diff_type >= NEW_CONTEXT_DIFF else b""
    minuses = b" ----" if stars else b" -----"
    oldfirst = hunk.first + out_offset
    newfirst = hunk.newfirst + out_offset
    oldlast = oldfirst + hunk.ptrn_lines - 1
    newlast = newfirst + hunk.repl_lines - 1
    parts = [b"***************", hunk.c_function or b"", b"\n"]
    parts.append(_context_range(b"***", oldfirst, oldlast, stars))
    parts += [c.encode() + b" " + t for c, t in hunk.old]
    parts.append(_context_range(b"---", newfirst, newlast, minuses))
    parts += [c.encode() + b" " + t for c, t in hunk.new]
    return b"".join(parts)


def _context_range(tag: bytes, first: int, last: int, tail: bytes) -> bytes:
    if last < first:
        return tag + b" 0" + tail + b"\n"
    if last == first:
        return tag + b" %d" % first + tail + b"\n"
    return tag + b" %d,%d" % (first, last) + tail + b"\n"
