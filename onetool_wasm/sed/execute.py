"""Running a parsed sed program over lines of bytes, with GNU sed's cycle.

Each cycle reads a line into the pattern space, runs the commands, prints the pattern
space unless -n, then the queued `a`/`r` text. A last input line without "\\n" is
printed without one, and the next output first supplies the missing newline (GNU).
Endless `b`/`t` loops and runaway growth are stopped by a step budget and a size cap.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..regex import Regex
from .script import Address, Command, Program, Replacement, Substitution

MAX_STEPS = 10_000_000  # commands executed in one sed run beyond one pass per input line
MAX_SPACE = 64 * 1024 * 1024  # bytes in the pattern or hold space


class SedRuntimeError(Exception):
    pass


@dataclass
class Line:
    text: bytes
    terminated: bool


def split_input(data: bytes, delimiter: bytes = b"\n") -> list[Line]:
    """Lines ended by `delimiter` (NUL with -z); the last one may lack it."""
    if not data:
        return []
    parts = data.split(delimiter)
    last_terminated = parts[-1] == b""
    if last_terminated:
        parts.pop()
    lines = [Line(part, True) for part in parts]
    lines[-1].terminated = last_terminated
    return lines


@dataclass
class Output:
    chunks: list[bytes] = field(default_factory=list)
    missing_newline: bool = False
    delimiter: bytes = b"\n"

    def write(self, data: bytes, newline: bool = True, end: bytes | None = None) -> None:
        """`data`, then the line delimiter (or `end`) unless `newline` is False."""
        if self.missing_newline:
            self.chunks.append(self.delimiter)
        self.chunks.append(data)
        if newline:
            self.chunks.append(self.delimiter if end is None else end)
        self.missing_newline = not newline and bool(data)

    def raw(self, data: bytes) -> None:
        """Text that carries its own newlines (queued `a` text, `r` files)."""
        if data.endswith(b"\n"):
            self.write(data[:-1], True, end=b"\n")
        elif data:
            self.write(data, False)

    def value(self) -> bytes:
        return b"".join(self.chunks)


class SedMachine:
    """Pattern space, hold space and range state; persists across the files of -s/-i."""

    def __init__(self, program: Program, quiet: bool, files: dict[str, bytes],
                 cancelled: Callable[[], bool] = lambda: False, *, delimiter: bytes = b"\n",
                 line_wrap: int = 70, posix: bool = False, gnu: bool = False) -> None:
        """`files`: what `r`/`R` read, by name (the command reads them); what `w`/`W` write
        collects in `written` by name (the command writes it), `/dev/stdout` goes to the
        output and `/dev/stderr` to `errors`. `delimiter`: b"\0" with -z; `line_wrap`: `l`'s
        default width (-l); `posix`: `N` on the last line prints nothing (--posix)."""
        self.commands = program.commands
        self.quiet = quiet or program.quiet
        self.files = files
        self.cancelled = cancelled
        self.delimiter = delimiter
        self.line_wrap = line_wrap
        self.posix = posix
        self.gnu = gnu
        self.written = {name: Output(delimiter=delimiter) for name in program.write_files
                        if name not in _SPECIAL_OUTPUTS}
        self.errors = Output(delimiter=delimiter)
        self.stdout: Output | None = None  # where /dev/stdout goes when it is not the output (-i)
        self.names: list[str] | None = None
        self.read_cursors: dict[str, list] = {}
        self.hold = b""
        self.hold_chomped = True
        self.last_regex: Regex | None = None
        self.quit = False
        self.exit_code = 0
        self.steps = 0
        self.budget = MAX_STEPS
        for command in self.commands:  # `0,/re/` is in its range before line 1
            command.active = command.addr1 is not None and command.addr1.kind == "zero"

    # -- the stream -----------------------------------------------------------------------
    def run(self, lines: list[Line], name: str, out: Output, names: list[str] | None = None) -> None:
        """One stream of lines; `names`: each line's file name, for `F` (else `name`)."""
        self.lines, self.pos, self.name, self.out, self.names = lines, 0, name, out, names
        self.line_no = 0
        self.budget += len(lines) * len(self.commands)
        while not self.quit and self._read(append=False):
            self._cycle()

    def _read(self, append: bool) -> bool:
        if self.pos >= len(self.lines):
            return False
        line = self.lines[self.pos]
        self.pos += 1
        self.line_no += 1
        self.space = self.space + self.delimiter + line.text if append else line.text
        self.chomped = line.terminated
        self.replaced = False
        self._check_size(self.space)
        return True

    def _is_last(self) -> bool:
        return self.pos >= len(self.lines)

    def _cycle(self) -> None:
        self.queue: list[bytes] = []
        pc = 0
        while pc < len(self.commands):
            self._tick()
            command = self.commands[pc]
            if self._selected(command) == command.negate:
                pc = command.target if command.name == "{" else pc + 1
                continue
            step = self._execute(command)
            if step is _END:
                return
            if step is _RESTART:
                self.queue, pc = [], 0
                continue
            pc = pc + 1 if step is None else step
        self._end_cycle()

    def _end_cycle(self) -> None:
        if not self.quiet:
            self.out.write(self.space, self.chomped)
        self._flush_queue()

    def _flush_queue(self) -> None:
        for item in self.queue:
            self.out.raw(item)
        self.queue = []

    def _tick(self) -> None:
        self.steps += 1
        if self.steps > self.budget:
            raise SedRuntimeError(f"script stopped after {self.steps - 1} steps (an endless b/t loop?)")
        if self.steps % 4096 == 0 and self.cancelled():
            raise SedRuntimeError("interrupted")

    def _check_size(self, data: bytes) -> None:
        if len(data) > MAX_SPACE:
            raise SedRuntimeError(f"pattern or hold space exceeds {MAX_SPACE} bytes")

    # -- addresses -----------------------------------------------------------------------
    def _selected(self, command: Command) -> bool:
        first, second = command.addr1, command.addr2
        if first is None:
            return True
        if second is None:
            return self._matches(first)
        if command.active:
            ended = self._range_ends(command, second)
            if ended is not None:
                return ended
        if first.kind == "zero" or not (self._matches(first) or self._skipped_start(command, first)):
            return False
        self._start_range(command, second)
        if not command.active and first.kind == "line":
            command.done = True  # a line-number start happens once
        return True

    def _skipped_start(self, command: Command, first: Address) -> bool:
        """GNU: a range whose first address is a line number opens on a later line when that
        line never reached this command (`1d;1,3p`, or consumed by `n`), but only once."""
        return first.kind == "line" and not command.done and self.line_no > first.number

    def _range_ends(self, command: Command, second: Address) -> bool | None:
        """While a range is active: True (still selected), or None when a line-number
        end was skipped over (by n/N), so the line is judged afresh."""
        line = self.line_no
        if second.kind == "line":
            command.active = line < second.number
            if line > second.number:
                return None
        elif second.kind in ("plus", "mult"):
            command.active = line < command.range_end
        elif second.kind == "last":
            command.active = not self._is_last()
        elif self._search(second.regex):
            command.active = False
        if not command.active and command.addr1 is not None and command.addr1.kind in ("zero", "line"):
            command.done = True
        return True

    def _start_range(self, command: Command, second: Address) -> None:
        line = self.line_no
        if second.kind == "line":
            command.active = second.number > line
        elif second.kind == "plus":
            command.range_end = line + second.number
            command.active = second.number > 0
        elif second.kind == "mult":
            if self.gnu:  # GNU: up to the next multiple after the first line
                command.range_end = (line // second.number + 1) * second.number if second.number > 0 else line
            else:
                command.range_end = -(-line // second.number) * second.number if second.number > 0 else line
            command.active = command.range_end > line
        elif second.kind == "last":
            command.active = not self._is_last()
        else:
            command.active = True  # a regex end is looked for from the next line on

    def _matches(self, address: Address) -> bool:
        line = self.line_no
        if address.kind == "line":
            return line == address.number
        if address.kind == "last":
            return self._is_last()
        if address.kind == "step":
            if address.step <= 0:
                return line == address.number
            return line >= address.number and (line - address.number) % address.step == 0
        if address.kind == "regex":
            return self._search(address.regex)
        return False

    def _search(self, regex: Regex | None) -> bool:
        return self._regex(regex).test(self.space, self.cancelled)

    def _regex(self, regex: Regex | None) -> Regex:
        if regex is None:
            if self.last_regex is None:
                raise SedRuntimeError("no previous regular expression")
            return self.last_regex
        self.last_regex = regex
        return regex

    # -- commands ------------------------------------------------------------------------
    def _execute(self, command: Command):
        handler = _HANDLERS.get(command.name)
        return handler(self, command) if handler is not None else None

    def _next(self, command: Command):
        if self._is_last():  # GNU: print as at the end of the script, and stop this input
            self._end_cycle()
            return _END
        if not self.quiet:
            self.out.write(self.space, self.chomped)
        self._flush_queue()
        self._read(append=False)
        return None

    def _append_next(self, command: Command):
        if self._is_last():
            if self.posix:  # POSIX: N on the last line quits without printing
                self._flush_queue()
                return _END
            self._end_cycle()
            return _END
        self._flush_queue()
        self._read(append=True)
        return None

    def _change(self, command: Command):
        if command.negate or command.addr2 is None or not command.active:
            if command.text:
                self.out.write(command.text, end=b"\n")
        self._flush_queue()
        return _END

    def _delete_first(self, command: Command):
        cut = self.space.find(self.delimiter)
        if cut < 0:
            self._flush_queue()
            return _END
        self.space = self.space[cut + 1:]
        self._flush_queue()
        return _RESTART

    def _quit(self, command: Command):
        self.quit = True
        self.exit_code = command.number or 0
        if command.name == "q":
            self._end_cycle()
        return _END

    def _substitute(self, command: Command):
        subst = command.subst
        assert subst is not None
        result = substitute(self._regex(subst.regex), subst, self.space, self.cancelled)
        if result is not None:
            self._check_size(result)
            self.space = result
            self.replaced = True
            if subst.print_:
                self.out.write(self.space, self.chomped)
            if subst.write_to:
                target = self._output_for(subst.write_to)
                target.write(self.space, self.chomped)
        return None

    def _branch(self, command: Command):
        if command.name == "b":
            return command.target
        taken = self.replaced if command.name == "t" else not self.replaced
        self.replaced = False  # t resets the flag when it jumps, T when it does not
        return command.target if taken else None

    def _hold_command(self, command: Command):
        # Whether a final newline is owed travels with the text (GNU): the hold space
        # starts with one, g/G take the hold's, h/H give the pattern space's.
        name = command.name
        if name == "g":
            self.space, self.chomped = self.hold, self.hold_chomped
        elif name == "G":
            self.space, self.chomped = self.space + self.delimiter + self.hold, self.hold_chomped
        elif name == "h":
            self.hold, self.hold_chomped = self.space, self.chomped
        elif name == "H":
            self.hold, self.hold_chomped = self.hold + self.delimiter + self.space, self.chomped
        elif name == "x":
            self.space, self.hold = self.hold, self.space
            self.chomped, self.hold_chomped = self.hold_chomped, self.chomped
        self._check_size(self.space)
        self._check_size(self.hold)
        return None

    def _print(self, command: Command):
        name = command.name
        if name == "p":
            self.out.write(self.space, self.chomped)
        elif name == "P":
            first, newline, _ = self.space.partition(self.delimiter)
            self.out.write(first, bool(newline) or self.chomped)
        elif name == "=":
            self.out.write(str(self.line_no).encode("ascii"))
        elif name == "l":
            width = self.line_wrap if command.number is None else command.number
            self.out.write(unambiguous(self.space, width, self.gnu))
        elif name == "F":
            current = self.names[self.pos - 1] if self.names and 0 < self.pos <= len(self.names) else self.name
            self.out.write(current.encode("utf-8", "surrogateescape"))
        elif name == "i" and command.text:
            self.out.write(command.text, end=b"\n")
        return None

    def _queue(self, command: Command):
        if command.name == "a":
            if command.text:
                self.queue.append(command.text + b"\n")
        elif command.name == "R":
            line = self._read_line_of(command.filename)
            if line is not None:
                self.queue.append(line)
        else:
            self.queue.append(self.files.get(command.filename, b""))
        return None

    def _read_line_of(self, name: str) -> bytes | None:
        """`R`: the next line of the file (with its newline), None at its end."""
        cursor = self.read_cursors.setdefault(name, [split_input(self.files.get(name, b"")), 0])
        lines, position = cursor
        if position >= len(lines):
            return None
        cursor[1] += 1
        return lines[position].text + b"\n"

    def _write(self, command: Command):
        """`w FILE`, `W FILE` (the first line), the `w` flag of `s`."""
        target = self._output_for(command.filename)
        if command.name == "W":
            first, newline, _ = self.space.partition(self.delimiter)
            target.write(first, bool(newline) or self.chomped)
        else:
            target.write(self.space, self.chomped)
        return None

    def _output_for(self, name: str) -> Output:
        if name == "/dev/stdout":
            return self.stdout or self.out
        if name == "/dev/stderr":
            return self.errors
        return self.written.setdefault(name, Output(delimiter=self.delimiter))

    def _edit(self, command: Command):
        if command.name == "y":
            assert command.table is not None
            self.space = self.space.translate(command.table)
        else:  # z
            self.space = b""
        return None


_END = object()
_RESTART = object()
_HANDLERS: dict[str, Callable] = {
    "n": SedMachine._next, "N": SedMachine._append_next, "c": SedMachine._change,
    "d": lambda machine, command: (machine._flush_queue(), _END)[1], "D": SedMachine._delete_first,
    "q": SedMachine._quit, "Q": SedMachine._quit, "s": SedMachine._substitute,
    "b": SedMachine._branch, "t": SedMachine._branch, "T": SedMachine._branch,
    "g": SedMachine._hold_command, "G": SedMachine._hold_command, "h": SedMachine._hold_command,
    "H": SedMachine._hold_command, "x": SedMachine._hold_command,
    "p": SedMachine._print, "P": SedMachine._print, "=": SedMachine._print, "l": SedMachine._print,
    "F": SedMachine._print, "i": SedMachine._print, "a": SedMachine._queue, "r": SedMachine._queue,
    "y": SedMachine._edit, "z": SedMachine._edit, "R": SedMachine._queue,
    "w": SedMachine._write, "W": SedMachine._write,
}
_SPECIAL_OUTPUTS = ("/dev/stdout", "/dev/stderr")


def substitute(regex: Regex, subst: Substitution, data: bytes, cancelled: Callable[[], bool] | None = None) -> bytes | None:
    """`s`: replace the Nth match (and, with g, every later one); None when nothing matched."""
    first = regex.search(data, cancelled=cancelled)
    if first is None:
        return None
    if subst.occurrence == 1 and not subst.global_:
        return data[:first.start()] + render(subst.replacement, first) + data[first.end():]
    out = bytearray()
    last = count = 0
    changed = False
    for match in regex.finditer(data, cancelled=cancelled):
        count += 1
        if count < subst.occurrence:
            continue
        out += data[last:match.start()]
        out += render(subst.replacement, match)
        last = match.end()
        changed = True
        if not subst.global_:
            break
    if not changed:
        return None
    out += data[last:]
    return bytes(out)


def render(replacement: Replacement, match) -> bytes:
    out = bytearray()
    mode = one = None
    for kind, value in replacement.parts:
        if kind == "case":
            if value in ("L", "U"):
                mode = value
                if replacement.gnu:  # GNU: \L and \U cancel a pending \u or \l
                    one = None
            elif value == "E":
                mode = one = None
            else:
                one = value
            continue
        chunk = value if kind == "lit" else _group(match, value)
        if not chunk:
            continue
        if mode == "L":
            chunk = chunk.lower()
        elif mode == "U":
            chunk = chunk.upper()
        if one is not None:
            chunk = (chunk[:1].upper() if one == "u" else chunk[:1].lower()) + chunk[1:]
            one = None
        out += chunk
    return bytes(out)


def _group(match, index) -> bytes:
    try:
        return match.group(index) or b""
    except IndexError:
        return b""


_L_ESCAPES = {0x5C: b"\\\\", 7: b"\\a", 8: b"\\b", 12: b"\\f", 10: b"\\n", 13: b"\\r", 9: b"\\t", 11: b"\\v"}


def unambiguous(data: bytes, width: int, gnu: bool = False) -> bytes:
    """`l`: escapes and octal for unprintable bytes, lines wrapped with `\\`, `$` at the end.
    A width of 0 never wraps (and of 1 neither, in the strict grammar; GNU wraps every byte)."""
    pieces = [_L_ESCAPES.get(b) or (bytes((b,)) if 32 <= b < 127 else b"\\%03o" % b) for b in data]
    if width <= 0 or (width == 1 and not gnu):
        return b"".join(pieces) + b"$"
    lines: list[bytes] = []
    current = b""
    for piece in pieces:
        if len(current) + len(piece) > width - 1:
            lines.append(current + b"\\")
            current = b""
        current += piece
    lines.append(current + b"$")
    return b"\n".join(lines)
