"""GNU patch 2.7.6's main loop (patch.c main, pch.c intuit_diff_type and
there_is_another_patch) as a generator: it yields file-system requests and receives their
answers, so the engine stays pure and the caller decides how files are read and written.

Requests (tuples), and what is sent back:
  ("stat", name)            -> None (missing) or ("file" | "dir" | "other", size)
  ("read", name)            -> bytes, or None when it cannot be read
  ("write", name, data)     -> None (parents are created)
  ("delete", name)          -> None
  ("rmdir", name)           -> None (only when the directory is empty)
The generator returns an Outcome: GNU's stdout and stderr bytes and the exit status.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .apply import Applier, reject_header, reject_hunk
from .reader import (CONTEXT_DIFF, GIT_BINARY_DIFF, NEW_CONTEXT_DIFF, NO_DIFF, NORMAL_DIFF, UNI_DIFF, PatchFatal,
                     PatchInput)

OLD, NEW, INDEX = 0, 1, 2
_SAFE = re.compile(rb"[A-Za-z0-9_./,:+@%-]+")
_EPOCH = re.compile(rb"(1970-01-01|1969-12-31)|(Jan\s+1\s+\S+\s+1970)|(Dec\s+31\s+\S+\s+1969)")


@dataclass
class Options:
    strip: int = -1
    reverse: bool = False
    noreverse: bool = False
    inname: str | None = None
    outfile: str | None = None
    dry_run: bool = False
    make_backups: bool = False
    backup_if_mismatch: bool = True
    silent: bool = False
    force: bool = False
    batch: bool = False
    maxfuzz: int = 2
    rejname: str | None = None
    remove_empty_files: bool = False
    diff_type: int = NO_DIFF
    suffix: str = ".orig"
    cwd_is_root: bool = False


@dataclass
class Outcome:
    stdout: list[bytes] = field(default_factory=list)
    stderr: list[bytes] = field(default_factory=list)
    status: int = 0


def quote(name: bytes | str) -> bytes:
    """quotearg's shell style: plain names as they are, others in single quotes."""
    if isinstance(name, str):
        name = name.encode("utf-8", "surrogateescape")
    if name and _SAFE.fullmatch(name):
        return name
    return b"'" + name.replace(b"'", b"'\\''") + b"'"


def _decode(name: bytes) -> str:
    return name.decode("utf-8", "surrogateescape")


def _strip_leading_slashes(name: bytes, strip: int) -> bytes | None:
    remaining = strip
    start = 0
    index = 0
    while index < len(name):
        if name[index] == 47:
            while index + 1 < len(name) and name[index + 1] == 47:
                index += 1
            remaining -= 1
            if strip < 0 or remaining >= 0:
                start = index + 1
        index += 1
    if (strip < 0 or remaining <= 0) and start < len(name):
        return name[start:]
    return None


def _parse_c_string(text: bytes) -> tuple[bytes | None, int]:
    out = bytearray()
    index = 1
    escapes = {ord("a"): 7, ord("b"): 8, ord("f"): 12, ord("n"): 10, ord("r"): 13, ord("t"): 9, ord("v"): 11,
               ord("\\"): 92, ord('"'): 34}
    while index < len(text):
        char = text[index]
        index += 1
        if char == 34:
            return bytes(out), index
        if char != 92:
            out.append(char)
            continue
        if index >= len(text):
            return None, index
        char = text[index]
        index += 1
        if char in escapes:
            out.append(escapes[char])
        elif 48 <= char <= 51 and index + 1 < len(text) and all(48 <= c <= 55 for c in text[index:index + 2]):
            out.append(((char - 48) << 6) | ((text[index] - 48) << 3) | (text[index + 1] - 48))
            index += 2
        else:
            return None, index
    return None, index


def parse_name(text: bytes, strip: int) -> tuple[bytes | None, int]:
    """A name at the start of `text` (quoted or up to white space), stripped; and where it ends."""
    index = 0
    while index < len(text) and text[index:index + 1].isspace():
        index += 1
    if text[index:index + 1] == b'"':
        name, end = _parse_c_string(text[index:])
        end += index
    else:
        end = index
        while end < len(text) and not text[end:end + 1].isspace():
            end += 1
        name = text[index:end]
    if name is None:
        return None, end
    return _strip_leading_slashes(name, strip), end


def fetchname(text: bytes, strip: int, want_stamp: bool) -> tuple[bool, bytes | None, bytes | None, int]:
    """(set?, name, time string, stamp): stamp -1 none, 0 the epoch, 1 another time."""
    at = 0
    while at < len(text) and text[at:at + 1].isspace() and text[at] != 10:
        at += 1
    if at < len(text) and text[at] == 10:
        return False, None, None, -1
    text = text[at:]
    if text.startswith(b'"'):
        name, end = _parse_c_string(text)
        if name is None:
            return False, None, None, -1
    else:
        end = 0
        while end < len(text):
            if text[end:end + 1].isspace():
                u = end
                while text[u] != 9 and u + 1 < len(text) and text[u + 1:u + 2].isspace():
                    u += 1
                if text[u] != 9 and (b"\t" if want_stamp else b"\n") in text[u + 1:]:
                    end += 1
                    continue
                break
            end += 1
        name = text[:end]
    if name == b"/dev/null":
        return True, None, None, 0 if want_stamp else -1
    stripped = _strip_leading_slashes(name, strip)
    if stripped is None:
        return False, None, None, -1
    rest = text[end:]
    timestr = rest[:-1] if rest.endswith(b"\n") else rest
    if timestr.endswith(b"\r"):
        timestr = timestr[:-1]
    stamp = -1
    if rest[:1] != b"\n" and rest:
        stamp = 0 if _EPOCH.search(rest) else (1 if re.search(rb"\d", rest) else -1)
    return True, stripped, timestr, stamp


class Session:
    """One run of patch over one patch input."""

    def __init__(self, data: bytes, options: Options) -> None:
        self.o = options
        self.out = Outcome()
        self.pin = PatchInput(data, self.say)
        self.base = 0
        self.base_line = 1
        self.diff_type = options.diff_type
        self.reverse = options.reverse
        self.skip_rest_of_patch = False
        self.inname: bytes | None = options.inname.encode("utf-8", "surrogateescape") if options.inname else None
        self.explicit_inname = options.inname is not None
        self.inerrno = -1
        self.instat: tuple[str, int] | None = None
        self.invalid_names: list[bytes] = []
        self.backed_up: set[bytes] = set()
        self.created: set[bytes] = set()
        self.rej_written: set[bytes] = set()
        self.written_to_rejname = False
        self.output_parts: list[bytes] = []

    def say(self, text: str | bytes) -> None:
        self.out.stdout.append(text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text)

    def ask(self, prompt: str) -> bytes:
        """No terminal: print the prompt and a newline, as if the user pressed Enter."""
        self.say(prompt)
        self.say("\n")
        return b"\n"

    # -- the file system -----------------------------------------------------------------

    def stat(self, name: bytes):
        return (yield ("stat", _decode(name)))

    # -- intuit ----------------------------------------------------------------------------

    def ok_to_reverse(self, message: bytes) -> bool:
        o = self.o
        if o.noreverse or not (o.force and o.silent):
            self.say(message)
        if o.noreverse:
            self.say("  Skipping patch.\n")
            self.skip_rest_of_patch = True
            return False
        if o.force:
            if not o.silent:
                self.say("  Applying it anyway.\n")
            return False
        if o.batch:
            self.say("  Ignoring -R.\n" if self.reverse else "  Assuming -R.\n")
            return True
        answer = self.ask("  Ignore -R? [n] " if self.reverse else "  Assume -R? [n] ")
        if answer.startswith(b"y"):
            return True
        answer = self.ask("Apply anyway? [n] ")
        if not answer.startswith(b"y"):
            if not o.silent:
                self.say("Skipping patch.\n")
            self.skip_rest_of_patch = True
        return False

    def maybe_reverse(self, name: bytes, nonexistent: bool, is_empty: bool) -> bool:
        says = self.says_nonexistent
        looks_reversed = int(not is_empty) < says[int(self.reverse) ^ int(is_empty)]
        if is_empty and says[int(self.reverse) ^ int(nonexistent)] == 1 \
                and says[int(not self.reverse) ^ int(nonexistent)] == 2:
            return False
        if looks_reversed:
            action = b"delete" if nonexistent else b"empty out" if is_empty else b"create"
            state = b"does not exist" if nonexistent else b"is already empty" if is_empty else b"already exists"
            message = (b"The next patch" + (b", when reversed," if self.reverse else b"") + b" would " + action
                       + b" the file " + quote(name) + b",\nwhich " + state + b"!")
            if self.ok_to_reverse(message):
                self.reverse = not self.reverse
        return looks_reversed

    def name_is_valid(self, name: bytes) -> bool:
        if name in self.invalid_names:
            return False
        safe = not name.startswith(b"/") and b".." not in name.split(b"/")
        if not safe and self.o.cwd_is_root:
            safe = True
        if not safe:
            self.say(b"Ignoring potentially dangerous file name " + quote(name) + b"\n")
            if len(self.invalid_names) < 2:
                self.invalid_names.append(name)
        return safe

    def prefix_components(self, name: bytes, checkdirs: bool):
        count = 0
        for index in range(1, len(name)):
            if name[index] == 47 and name[index - 1] != 47:
                if checkdirs:
                    info = yield from self.stat(name[:index])
                    if info is None or info[0] != "dir":
                        break
                count += 1
        return count

    def best_name(self, names: list[bytes | None], ignore: list[int]):
        components = [0, 0, 0]
        base_len = [0, 0, 0]
        length = [0, 0, 0]
        components_min = base_min = len_min = 1 << 62
        for i in range(3):
            name = names[i]
            if name is None or ignore[i]:
                continue
            components[i] = yield from self.prefix_components(name, False)
            if components_min < components[i]:
                continue
            components_min = components[i]
            base_len[i] = len(name.rstrip(b"/").rsplit(b"/", 1)[-1])
            if base_min < base_len[i]:
                continue
            base_min = base_len[i]
            length[i] = len(name)
            if len_min < length[i]:
                continue
            len_min = length[i]
        for i in range(3):
            name = names[i]
            if name is not None and not ignore[i] and self.name_is_valid(name) \
                    and components[i] == components_min and base_len[i] == base_min and length[i] == len_min:
                return i
        return None

    def intuit_diff_type(self, need_header: bool):
        pin = self.pin
        self.names: list[bytes | None] = [None, None, None]
        self.timestr: list[bytes | None] = [None, None]
        self.stamp = [-1, -1]
        self.says_nonexistent = [0, 0]
        self.git_diff = False
        self.rename = [False, False]
        self.copy = [False, False]
        self.invalid_names = []
        self.p_indent = 0
        pin.strip_cr = False
        pin.indent = 0
        extended_headers = False
        if self.diff_type in (NORMAL_DIFF,):
            need_header = False
        pin.pos, pin.input_line = self.base, self.base_line - 1
        this_line = pin.pos
        this_is_a_command = False
        stars_this_line = False
        first_command_line = -1
        strip = self.o.strip
        retval = NO_DIFF
        while True:
            previous_line = this_line
            last_line_was_command = this_is_a_command
            stars_last_line = stars_this_line
            this_line = pin.pos
            line = pin.pget_line(0, False)
            if line is None:
                self.p_start, self.p_sline = this_line, pin.input_line
                if extended_headers:
                    retval = UNI_DIFF
                    break
                return NO_DIFF
            strip_cr = len(line) >= 2 and line[-2:] == b"\r\n"
            indent = 0
            at = 0
            while at < len(line) and line[at] in (32, 9, 88):
                indent = (indent + 8) & ~7 if line[at] == 9 else indent + 1
                at += 1
            s = line[at:]
            this_is_a_command = False
            m = re.match(rb"[0-9][0-9,]*[acd][0-9,]*[ \t]*\r?\n", s)
            if m:
                this_is_a_command = True
            if not need_header and first_command_line < 0 and this_is_a_command:
                first_command_line = this_line
                self.p_indent = indent
                pin.strip_cr = strip_cr
            if not stars_last_line and s.startswith(b"*** "):
                got, name, timestr, stamp = fetchname(s[4:], strip, True)
                if got:
                    self.names[OLD], self.timestr[OLD], self.stamp[OLD] = name, timestr, stamp
                need_header = False
            elif s.startswith(b"+++ "):
                got, name, timestr, stamp = fetchname(s[4:], strip, True)
                if got:
                    self.names[OLD], self.timestr[OLD], self.stamp[OLD] = name, timestr, stamp
                need_header = False
                pin.strip_cr = strip_cr
            elif s.startswith(b"Index:"):
                got, name, _, _ = fetchname(s[6:], strip, False)
                if got:
                    self.names[INDEX] = name
                need_header = False
                pin.strip_cr = strip_cr
            elif s.startswith(b"diff --git "):
                if extended_headers:
                    self.p_start, self.p_sline = this_line, pin.input_line
                    retval = UNI_DIFF
                    break
                old, end = parse_name(s[11:], strip)
                new, end2 = parse_name(s[11 + end:], strip) if old is not None else (None, 0)
                tail = s[11 + end + end2:]
                if old is not None and new is not None and s[11 + end:11 + end + 1].isspace() and not tail.strip():
                    self.names[OLD], self.names[NEW] = old, new
                else:
                    self.names[OLD] = self.names[NEW] = None
                self.git_diff = True
            elif self.git_diff and s.startswith(b"index "):
                m = re.match(rb"index ([0-9a-f]+)\.\.([0-9a-f]+)(\s|$)", s)
                if m:
                    for which, sha in ((OLD, m.group(1)), (NEW, m.group(2))):
                        if not sha.strip(b"0"):
                            self.says_nonexistent[which] = 2
                        else:
                            self.says_nonexistent[which] = int(b"e69de29bb2d1d6434b8b29ae775ad8c2e48c5391".startswith(sha))
                    extended_headers = True
            elif self.git_diff and s.startswith((b"old mode ", b"new mode ")):
                extended_headers = True
            elif self.git_diff and s.startswith(b"deleted file mode "):
                self.says_nonexistent[NEW] = 2
                extended_headers = True
            elif self.git_diff and s.startswith(b"new file mode "):
                self.says_nonexistent[OLD] = 2
                extended_headers = True
            elif self.git_diff and s.startswith(b"rename from "):
                self.rename[OLD] = True
                extended_headers = True
            elif self.git_diff and s.startswith(b"rename to "):
                self.rename[NEW] = True
                extended_headers = True
            elif self.git_diff and s.startswith(b"copy from "):
                self.copy[OLD] = True
                extended_headers = True
            elif self.git_diff and s.startswith(b"copy to "):
                self.copy[NEW] = True
                extended_headers = True
            elif self.git_diff and s.startswith(b"GIT binary patch"):
                self.p_start, self.p_sline = this_line, pin.input_line
                retval = GIT_BINARY_DIFF
                break
            else:
                t = s
                while t.startswith(b"- "):
                    t = t[2:]
                if t.startswith(b"--- "):
                    got, name, timestr, stamp = fetchname(t[4:], strip, True)
                    if got:
                        self.names[NEW], self.timestr[NEW] = name, timestr
                        if stamp != -1:
                            self.stamp[NEW] = stamp
                    need_header = False
                    pin.strip_cr = strip_cr
            if need_header:
                continue
            if self.diff_type in (NO_DIFF, UNI_DIFF) and s.startswith(b"@@ -"):
                self.stamp[OLD], self.stamp[NEW] = self.stamp[NEW], self.stamp[OLD]
                self.names[OLD], self.names[NEW] = self.names[NEW], self.names[OLD]
                self.timestr[OLD], self.timestr[NEW] = self.timestr[NEW], self.timestr[OLD]
                rest = s[4:]
                if rest[:1] == b"0" and not rest[1:2].isdigit():
                    self.says_nonexistent[OLD] = 1 + (self.stamp[OLD] == 0)
                parts = rest.split(b" ", 1)
                after = parts[1].lstrip(b" ") if len(parts) > 1 else b""
                if after[:2] == b"+0" and not after[2:3].isdigit():
                    self.says_nonexistent[NEW] = 1 + (self.stamp[NEW] == 0)
                self.p_indent = indent
                self.p_start, self.p_sline = this_line, pin.input_line
                retval = UNI_DIFF
                if not ((self.names[OLD] or self.stamp[OLD] == 0) and (self.names[NEW] or self.stamp[NEW] == 0)) \
                        and self.names[INDEX] is None and need_header:
                    self.say(f"missing header for unified diff at line {self.p_sline} of patch\n")
                break
            stars_this_line = s.startswith(b"********")
            if self.diff_type in (NO_DIFF, CONTEXT_DIFF, NEW_CONTEXT_DIFF) and stars_last_line \
                    and s.startswith(b"*** "):
                if s[4:5] == b"0" and not s[5:6].isdigit():
                    self.says_nonexistent[OLD] = 1 + (self.stamp[OLD] == 0)
                body = s.rstrip(b"\n").rstrip(b"\r")
                self.p_indent = indent
                pin.strip_cr = strip_cr
                self.p_start, self.p_sline = previous_line, pin.input_line - 1
                retval = NEW_CONTEXT_DIFF if body.endswith(b"*") else CONTEXT_DIFF
                saved = pin.pos, pin.input_line
                pin.pos, pin.input_line = previous_line, pin.input_line - 2
                pin.indent = indent
                try:
                    hunk = pin.another_hunk(retval)
                except PatchFatal:
                    hunk = None
                if hunk is not None and not hunk.repl_lines and hunk.newfirst == 1:
                    self.says_nonexistent[NEW] = 1 + (self.stamp[NEW] == 0)
                pin.pos, pin.input_line = saved
                break
            if self.diff_type in (NO_DIFF, NORMAL_DIFF) and last_line_was_command \
                    and s.startswith((b"< ", b"> ")):
                self.p_start, self.p_sline = previous_line, pin.input_line - 1
                self.p_indent = indent
                retval = NORMAL_DIFF
                break
        # -- which file to patch ------------------------------------------------------------
        chosen = None
        if self.inname is None:
            names = self.names
            if names[OLD] is not None or names[NEW] is not None:
                names[INDEX] = None
            stats: list = [None, None, None]
            errors = [1, 1, 1]
            first_named = None
            for i in range(3):
                if names[i] is None:
                    continue
                if first_named is not None and names[first_named] == names[i]:
                    stats[i], errors[i] = stats[first_named], errors[first_named]
                else:
                    info = yield from self.stat(names[i])
                    stats[i], errors[i] = info, int(info is None)
                first_named = i
            chosen = yield from self.best_name(names, errors)
            if first_named is not None and (chosen is None or stats[chosen][0] == "file") \
                    and self.maybe_reverse(names[first_named if chosen is None else chosen], chosen is None,
                                           chosen is None or stats[chosen][1] == 0) and chosen is None:
                chosen = first_named
            if chosen is None and self.says_nonexistent[int(self.reverse)]:
                newdirs = [0, 0, 0]
                for i in range(3):
                    if names[i] is not None:
                        total = yield from self.prefix_components(names[i], False)
                        existing = yield from self.prefix_components(names[i], True)
                        newdirs[i] = total - existing
                least = min(newdirs[i] for i in range(3) if names[i] is not None) if any(
                    n is not None for n in names) else 0
                distance = [newdirs[i] - least if names[i] is not None else 0 for i in range(3)]
                chosen = yield from self.best_name(names, distance)
            if (self.rename[OLD] and self.rename[NEW] or self.copy[OLD] and self.copy[NEW]) \
                    and not (chosen in (OLD, NEW) and names[int(not self.reverse)] is not None
                             and self.name_is_valid(names[int(not self.reverse)])):
                kind = "rename" if self.rename[OLD] and self.rename[NEW] else "copy"
                self.say(f"Cannot {kind} file without two valid file names\n")
                self.skip_rest_of_patch = True
            if chosen is None:
                self.inerrno = -1
            else:
                self.inname = names[chosen]
                self.inerrno = errors[chosen]
                self.instat = stats[chosen]
        else:
            info = yield from self.stat(self.inname)
            self.inerrno = int(info is None)
            self.instat = info
            if self.inerrno or info[0] == "file":
                self.maybe_reverse(self.inname, bool(self.inerrno), bool(self.inerrno) or info[1] == 0)
        return retval

    def there_is_another_patch(self, need_header: bool):
        pin = self.pin
        if self.base != 0 and pin.at_end(self.base):
            return False
        diff_type = yield from self.intuit_diff_type(need_header)
        self.diff_type = diff_type
        if diff_type == NO_DIFF:
            if self.base == 0 and pin.size:
                raise PatchFatal("Only garbage was found in the patch input.")
            return False
        if self.skip_rest_of_patch:
            pin.pos, pin.input_line = self.p_start, self.p_sline - 1
            pin.indent = self.p_indent
            return True
        pin.indent = self.p_indent
        if not self.o.silent:
            if self.p_indent:
                self.say(f"(Patch is indented {self.p_indent} space{'' if self.p_indent == 1 else 's'}.)\n")
            if pin.strip_cr:
                self.say("(Stripping trailing CRs from patch; use --binary to disable.)\n")
            if self.inname is None:
                self.say(f"can't find file to patch at input line {self.p_sline}\n")
                if diff_type != NORMAL_DIFF:
                    self.say("Perhaps you should have used the -p or --strip option?\n" if self.o.strip == -1
                             else "Perhaps you used the wrong -p or --strip option?\n")
        # skip_to: show the text leading up to the patch when no file was found
        if self.inname is None and self.base < self.p_start:
            self.say("The text leading up to this was:\n--------------------------\n")
            for index in range(self.base, self.p_start):
                self.say(b"|" + pin.raw(index))
            self.say("--------------------------\n")
        pin.pos, pin.input_line = self.p_start, self.p_sline - 1
        if self.inname is None:
            if self.o.force or self.o.batch:
                self.say("No file to patch.  Skipping patch.\n")
                self.skip_rest_of_patch = True
                return True
            self.ask("File to patch: ")
            self.ask("Skip this patch? [y] ")
            if not self.o.silent:
                self.say("Skipping patch.\n")
            self.skip_rest_of_patch = True
        return True

    # -- the main loop ---------------------------------------------------------------------------

    def run(self):
        o = self.o
        somefailed = False
        apply_empty_patch = self.explicit_inname and o.outfile is not None
        while True:
            found = yield from self.there_is_another_patch(not self.explicit_inname)
            if not found and not apply_empty_patch:
                break
            if not found:
                self.diff_type = NO_DIFF
            apply_empty_patch = False
            failed = yield from self.one_patch()
            somefailed = somefailed or failed
            # reinitialize_almost_everything
            if self.pin.pos <= self.base and found:
                break  # no progress through the patch: stop rather than loop
            self.base, self.base_line = self.pin.pos, self.pin.input_line + 1
            if not self.explicit_inname:
                self.inname = None
            self.diff_type = NO_DIFF
            self.reverse = o.reverse
            self.skip_rest_of_patch = False
        if o.outfile is not None:
            yield ("write", o.outfile, b"".join(self.output_parts))
        if somefailed:
            self.out.status = 1

    def one_patch(self):
        """Apply the current file's patch; True when something failed."""
        o = self.o
        pin = self.pin
        somefailed = self.skip_rest_of_patch
        hunk_no = 0
        failed = 0
        mismatch = False
        outname: bytes | None = None
        inname = self.inname
        if not self.skip_rest_of_patch:
            if o.outfile is not None:
                outname = o.outfile.encode("utf-8", "surrogateescape")
            elif self.is_copy() or self.is_rename():
                outname = self.names[int(not self.reverse)]
            else:
                outname = inname
        data = b""
        if not self.skip_rest_of_patch:
            if self.instat is not None and self.inerrno == 0 and self.instat[0] != "file":
                self.say(b"File " + quote(inname) + b" is not a regular file -- refusing to patch\n")
                self.skip_rest_of_patch = True
                somefailed = True
                outname = inname
            elif self.inerrno == 0:
                read = yield ("read", _decode(inname))
                if read is None:
                    raise PatchFatal(f"Can't open file {_decode(quote(inname))} : Permission denied")
                data = read
        if not self.skip_rest_of_patch and self.diff_type == GIT_BINARY_DIFF:
            self.say(b"File " + quote(outname) + b": git binary diffs are not supported.\n")
            self.skip_rest_of_patch = True
            somefailed = True
        applier = Applier(data)
        if not self.skip_rest_of_patch and not o.silent:
            renamed = inname != outname
            skip_rename = not renamed and self.is_rename()
            line = (b"checking" if o.dry_run else b"patching") + b" file " + quote(outname)
            if renamed or skip_rename:
                how = b"copied" if self.is_copy() else b"renamed" if self.is_rename() else b"read"
                origin = inname if not skip_rename else self.names[int(inname == self.names[OLD])]
                line += b" (" + (b"already " if skip_rename else b"") + how + b" from " + origin + b")"
            self.say(line + b"\n")
        rejects: list[bytes] = []
        apply_anyway = False
        reverse_flag = o.reverse
        while True:
            hunk = pin.another_hunk(self.diff_type)
            if hunk is None:
                break
            if self.reverse:
                hunk = hunk.swapped()
            context = max(hunk.prefix_context, hunk.suffix_context)
            mymaxfuzz = min(o.maxfuzz, context)
            hunk_no += 1
            where = 0
            fuzz = 0
            if not self.skip_rest_of_patch:
                while True:
                    where = applier.locate_hunk(hunk, fuzz)
                    if not where or fuzz or applier.in_offset:
                        mismatch = True
                    if hunk_no == 1 and not where and not (o.force or apply_anyway) \
                            and self.reverse == reverse_flag:
                        swapped = hunk.swapped()
                        where = applier.locate_hunk(swapped, fuzz)
                        message = (b"Unreversed" if self.reverse else b"Reversed (or previously applied)") \
                            + b" patch detected!"
                        if where and self.ok_to_reverse(message):
                            self.reverse = not self.reverse
                            hunk = swapped
                        elif where:
                            apply_anyway = True
                            fuzz -= 1
                            where = 0
                    if self.skip_rest_of_patch or where:
                        break
                    fuzz += 1
                    if fuzz > mymaxfuzz:
                        break
            newwhere = (where if where else hunk.first) + applier.out_offset
            applied = False
            if not self.skip_rest_of_patch and where and not (
                    where == 1 and self.says_nonexistent[int(self.reverse)] == 2 and len(data)):
                applied, message = applier.apply_hunk(hunk, where)
                if message:
                    self.say(message)
            if not applied:
                header = b""
                if not failed:
                    header = reject_header(self.diff_type, self._header_name(self.reverse),
                                           self._header_name(not self.reverse), self.names[INDEX])
                rejects.append(header + reject_hunk(self.diff_type, hunk, applier.out_offset))
                failed += 1
                if not self.skip_rest_of_patch and not o.silent:
                    endings = b" (different line endings)" if applier.line_endings_differ(hunk, newwhere) else b""
                    self.say(b"Hunk #%d FAILED at %d" % (hunk_no, newwhere) + endings + b".\n")
            elif not o.silent and (fuzz or applier.in_offset):
                text = b"Hunk #%d succeeded at %d" % (hunk_no, newwhere)
                if fuzz:
                    text += b" with fuzz %d" % fuzz
                if applier.in_offset:
                    text += b" (offset %d line%s)" % (applier.in_offset, b"" if applier.in_offset == 1 else b"s")
                self.say(text + b".\n")
        result = b""
        if not self.skip_rest_of_patch:
            result = applier.spew_output()
            if o.outfile is not None:
                self.output_parts.append(result)
        if not self.skip_rest_of_patch and o.outfile is None:
            backup = o.make_backups or (o.backup_if_mismatch and (mismatch or bool(failed)))
            new_nonexistent = self.says_nonexistent[int(not self.reverse)] == 2
            if applier.zero_output and (o.remove_empty_files or new_nonexistent):
                if not o.dry_run:
                    if self.inerrno == 0:
                        yield from self.backup(outname, backup, data)
                        yield ("delete", _decode(outname))
                        yield from self.removedirs(outname)
            else:
                if not applier.zero_output and new_nonexistent:
                    mismatch = True
                    somefailed = True
                    if not o.silent:
                        self.say(b"Not deleting file " + quote(outname) + b" as content differs from patch\n")
                if not o.dry_run:
                    if failed < hunk_no or self.is_copy() or self.is_rename():
                        yield from self.backup(outname, backup, data if inname == outname else None)
                        yield ("write", _decode(outname), result)
                        if self.inerrno:
                            self.created.add(outname)
                        if self.is_rename():
                            yield from self.backup(inname, backup, data)
                            yield ("delete", _decode(inname))
                    elif backup:
                        if self.inerrno:
                            raise PatchFatal(f"Can't reopen file {_decode(quote(outname))} : No such file or directory")
                        yield from self.backup(outname, True, data)
        if failed:
            somefailed = True
            word = b"ignored" if self.skip_rest_of_patch else b"FAILED"
            self.say(b"%d out of %d hunk%s %s" % (failed, hunk_no, b"" if hunk_no == 1 else b"s", word))
            if outname is not None and o.rejname != "-":
                rej = o.rejname.encode("utf-8", "surrogateescape") if o.rejname is not None else outname + b".rej"
                if not o.dry_run:
                    self.say(b" -- saving rejects to file " + quote(rej) + b"\n")
                    body = b"".join(rejects)
                    if o.rejname is not None:
                        if self.written_to_rejname:
                            previous = yield ("read", _decode(rej))
                            body = (previous or b"") + body
                        self.written_to_rejname = True
                    elif rej in self.rej_written:
                        previous = yield ("read", _decode(rej))
                        body = (previous or b"") + body
                    self.rej_written.add(rej)
                    yield ("write", _decode(rej), body)
                else:
                    self.say("\n")
            else:
                self.say("\n")
        return somefailed

    def _header_name(self, which: bool) -> bytes:
        name = self.names[int(which)]
        timestr = self.timestr[int(which)]
        return (name if name is not None else b"/dev/null") + (timestr or b"")

    def is_rename(self) -> bool:
        return self.rename[OLD] and self.rename[NEW]

    def is_copy(self) -> bool:
        return self.copy[OLD] and self.copy[NEW]

    def backup(self, name: bytes, wanted: bool, data: bytes | None):
        """Keep the file's first version of this run as NAME.orig."""
        if not wanted or name in self.backed_up or name in self.created:
            return
        self.backed_up.add(name)
        if data is None:
            info = yield from self.stat(name)
            data = (yield ("read", _decode(name))) if info is not None and info[0] == "file" else b""
        yield ("write", _decode(name) + self.o.suffix, data or b"")

    def removedirs(self, name: bytes):
        parts = name.split(b"/")
        for end in range(len(parts) - 1, 0, -1):
            directory = b"/".join(parts[:end])
            if directory and directory not in (b".", b".."):
                yield ("rmdir", _decode(directory))


def run_patch(data: bytes, options: Options):
    """The generator: yields requests, returns the Outcome."""
    session = Session(data, options)
    try:
        yield from session.run()
    except PatchFatal as fatal:
        session.out.stderr.append(b"patch: **** " + str(fatal).encode("utf-8", "surrogateescape") + b"\n")
        session.out.status = 2
    return session.out
