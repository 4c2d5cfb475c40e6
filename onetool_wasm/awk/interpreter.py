"""The awk runtime: records and fields, the main input loop, getline, redirections, and the
host interface through which it reaches files, commands and output.

`compile_program(text)` parses and generates code once (AwkProgram); `AwkProgram.run(host,
operands, assignments)` executes it. The host supplies: `environ` (dict), `cancelled()`,
and async `read_stdin()`, `read_file(path)`, `write_file(path, data, append)`,
`run(command, stdin)`, `stdout(data)`, `stderr(data)` (see commands/awk.py).

rand() is Python's Mersenne Twister seeded by srand (seed 0 at start): the same program
gives the same numbers every run, but not gawk's numbers.
"""
from __future__ import annotations

import asyncio
import inspect
import random
import re
import time

from ..regex import Regex, RegexError, compile_regex
from . import builtins as bi
from .builtins import AwkError
from .compiler import generate
from .format import UNINIT, FormatError, StrNum, compare, num, number_text, sprintf, truth
from .lexer import BUILTINS, KEYWORDS, AwkSyntaxError, unescape
from .parser import parse

MAX_STEPS = 100_000_000
CHECK_EVERY = 10_000
MAX_DEPTH = 200
MAX_FIELDS = 1_000_000
BATCH = 64 * 1024
# Whitespace str.split() cuts at that awk's default FS does not: where a buffer has none,
# `text.split()` gives the same fields as the regex [^ \t\n]+ (and is much faster).
_ODD_SPACE = re.compile("[\x0b\x0c\r\x1c-\x1f\x85\xa0]")
MAX_REDIRECT_BYTES = 64 * 1024 * 1024

PRELUDE = '''
def _fmt(value):
    return value if isinstance(value, str) else "%.6g"

def tos(v):
    if type(v) is float:
        if v.is_integer():
            return "%d" % v
        return number_text(v, _fmt(v_CONVFMT))
    return v

def outs(v):
    if type(v) is float:
        if v.is_integer():
            return "%d" % v
        return number_text(v, _fmt(v_OFMT))
    return v

key = tos

def lt(a, b):
    if type(a) is float and type(b) is float:
        return 1.0 if a < b else 0.0
    return 1.0 if compare(a, b, tos) < 0 else 0.0

def le(a, b):
    if type(a) is float and type(b) is float:
        return 1.0 if a <= b else 0.0
    return 1.0 if compare(a, b, tos) <= 0 else 0.0

def gt(a, b):
    if type(a) is float and type(b) is float:
        return 1.0 if a > b else 0.0
    return 1.0 if compare(a, b, tos) > 0 else 0.0

def ge(a, b):
    if type(a) is float and type(b) is float:
        return 1.0 if a >= b else 0.0
    return 1.0 if compare(a, b, tos) >= 0 else 0.0

def eq(a, b):
    if type(a) is float and type(b) is float:
        return 1.0 if a == b else 0.0
    return 1.0 if compare(a, b, tos) == 0 else 0.0

def ne(a, b):
    if type(a) is float and type(b) is float:
        return 1.0 if a != b else 0.0
    return 1.0 if compare(a, b, tos) != 0 else 0.0

def aget(array, k):
    return array.setdefault(k, UNINIT)

def aset(array, k, v):
    array[k] = v
    return v

def aset_v(v, array, k):
    array[k] = v
    return v

def aupdate(v, array, k, sym):
    result = arith(sym, num(array.get(k, UNINIT)), v)
    array[k] = result
    return result
'''


class NextRecord(Exception):
    pass


class NextFile(Exception):
    pass


class OutputClosed(Exception):
    """The reader of stdout is gone and the program can have no other effect: stop reading
    (as SIGPIPE would end it at its next write)."""


class AwkExit(Exception):
    def __init__(self, value: object) -> None:
        super().__init__()
        self.value = value


class RecordSource:
    """Records cut from a byte source by RS (one character, or "" for paragraphs)."""

    def __init__(self, read) -> None:
        self.read = read          # async () -> bytes, b"" at the end
        self.buf = ""
        self.pos = 0
        self.done = False
        self.clean = True         # the buffer has no _ODD_SPACE

    async def _more(self) -> bool:
        if self.done:
            return False
        chunk = await self.read()
        if not chunk:
            self.done = True
            return False
        self.buf = self.buf[self.pos:] + chunk.decode("latin-1")
        self.pos = 0
        self.clean = _ODD_SPACE.search(self.buf) is None
        return True

    async def next(self, rs: str) -> str | None:
        if rs == "":
            return await self._paragraph()
        sep = rs[0]
        while True:
            end = self.buf.find(sep, self.pos)
            if end >= 0:
                record = self.buf[self.pos:end]
                self.pos = end + 1
                return record
            if not await self._more():
                if self.pos < len(self.buf):
                    record = self.buf[self.pos:]
                    self.pos = len(self.buf)
                    return record
                return None

    async def _paragraph(self) -> str | None:
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] == "\n":
                self.pos += 1
            if self.pos < len(self.buf) or not await self._more():
                break
        while True:
            end = self.buf.find("\n\n", self.pos)
            if end >= 0:
                record = self.buf[self.pos:end]
                self.pos = end + 2
                return record
            if not await self._more():
                if self.pos < len(self.buf):
                    record = self.buf[self.pos:].rstrip("\n")
                    self.pos = len(self.buf)
                    return record
                return None


def _bytes_reader(data: bytes):
    state = [data]

    async def read() -> bytes:
        chunk, state[0] = state[0], b""
        return chunk
    return read


def host_path(name: str) -> str:
    """An awk string (latin-1 bytes) as a file name or command for the host (UTF-8)."""
    return name.encode("latin-1", "replace").decode("utf-8", "surrogateescape")


def awk_text(text: str) -> str:
    """Host text (UTF-8) as an awk string of bytes."""
    return text.encode("utf-8", "surrogateescape").decode("latin-1")


class Runtime:
    def __init__(self, program: "AwkProgram", host, ns: dict) -> None:
        self.program = program
        self.host = host
        self.ns = ns
        self.tos = ns["tos"]
        self.buf: list[str] = []
        self.size = 0
        self.rec0: StrNum | None = StrNum("")
        self.fields: list | None = []
        self.raw = False          # fields holds the split's plain strs (each a StrNum when read)
        self.nf = 0
        self.fs = " "
        self.clean = False        # rec0 came from a RecordSource buffer without _ODD_SPACE
        self.ranges = [False] * len(program.tree.rules)
        self.depth = 0
        self.max_depth = MAX_DEPTH
        self.steps = CHECK_EVERY
        self.total = 0
        self.dynamic_cache: dict[str, Regex] = {}
        self.subst_cache: dict[str, list] = {}
        self.files: dict[str, list] = {}        # name -> [append, parts, size]
        self.pipes: dict[str, list] = {}        # command -> [parts, size]
        self.inputs: dict[str, RecordSource] = {}
        self.commands: dict[str, tuple[RecordSource, int]] = {}
        self.main: RecordSource | None = None
        self.stdin_source: RecordSource | None = None
        self.argi = 1
        self.used_file = False
        self.buf_err: list[str] = []
        self.random = random.Random(0)
        self.seed = 0.0

    # -- limits --------------------------------------------------------------------------
    async def check(self) -> None:
        self.total += CHECK_EVERY - self.steps
        self.steps = CHECK_EVERY
        if self.total > MAX_STEPS:
            raise AwkError(f"awk: fatal: the program ran more than {MAX_STEPS} steps (a loop that never ends?): "
                           "bound the loop or process less input")
        if self.host.cancelled():
            raise AwkError("awk: fatal: interrupted", 130)
        if self.size:
            await self.flush()
        await asyncio.sleep(0)

    def too_deep(self) -> None:
        self.depth -= 1
        raise AwkError(f"awk: fatal: function calls nested more than {MAX_DEPTH} levels deep "
                       "(runaway recursion?): add a base case or iterate")

    def array_length(self) -> float:
        raise AwkError("awk: cmd. line:1: fatal: length: received array argument (POSIX awk counts "
                       "elements with: for (k in a) n++)")

    def warn(self, message: str) -> None:
        """A warning line, written to stderr with the next flush."""
        self.buf_err.append(message)

    # -- records and fields --------------------------------------------------------------
    def set_record(self, text: str) -> str:
        self.rec0 = text if type(text) is StrNum else StrNum(text)
        self.fields = None
        self.fs = self.ns["v_FS"]
        self.clean = False
        return text

    def get0(self) -> StrNum:
        if self.rec0 is None:
            tos = self.tos
            # A rebuilt record is a string, not input: "  0" is true.
            self.rec0 = tos(self.ns["v_OFS"]).join([tos(f) for f in self.fields])  # type: ignore
        return self.rec0

    def _split(self) -> None:
        fs = self.fs
        if fs == " ":  # the common case first
            parts = self.rec0.split() if self.clean else bi.split_default(self.rec0)  # type: ignore
        else:
            parts = self.split_text(self.rec0, self.tos(fs), self.ns["v_RS"] == "")  # type: ignore[arg-type]
        self.fields = parts  # wrapped as StrNum when read (field) or changed (_own)
        self.raw = True
        self.nf = len(parts)

    def _own(self) -> list:
        """The fields, split and each a value of its own, about to be changed."""
        if self.fields is None:
            self._split()
        if self.raw:
            self.fields = list(map(StrNum, self.fields))  # type: ignore[arg-type]
            self.raw = False
        return self.fields  # type: ignore[return-value]

    def split_text(self, text: str, fs: str, paragraph: bool = False) -> list[str]:
        if fs == " ":
            return bi.split_default(text)
        if not text:
            return []
        if len(fs) == 1 and fs != "\\":
            if paragraph and fs != "\n":
                return re.split("[\n" + re.escape(fs) + "]", text)
            return text.split(fs)
        regex = self.dynamic(fs if not paragraph else "(" + fs + ")|\n")
        return self.regex_split(text, regex)

    def regex_split(self, text: str, regex: Regex) -> list[str]:
        if not text:
            return []
        data = text.encode("latin-1")
        parts, start, pos, n = [], 0, 0, len(data)
        while pos <= n:
            found = regex.search(data, pos, groups=False, cancelled=self.host.cancelled)
            if found is None:
                break
            begin, end = found.start(), found.end()
            if end == begin:
                pos = begin + 1
                continue
            parts.append(text[start:begin])
            start = pos = end
        parts.append(text[start:])
        return parts

    def field(self, index: float | int) -> object:
        i = int(index)
        if i > 0:
            fields = self.fields
            if fields is None:
                self._split()
                fields = self.fields
            if i <= self.nf:
                return StrNum(fields[i - 1]) if self.raw else fields[i - 1]  # type: ignore[index]
            return ""  # a field past NF is an empty string (gawk: `$9 == 0` is false)
        if i == 0:
            return self.get0()
        raise AwkError(f"awk: cmd. line:1: fatal: attempt to access field {i}")

    def set_field(self, index: float, value: object) -> object:
        i = int(index)
        if i == 0:
            self.set_record(self.tos(value))
            return value
        if i < 0 or i > MAX_FIELDS:
            raise AwkError(f"awk: cmd. line:1: fatal: attempt to access field {i}")
        fields = self._own()
        if i > self.nf:
            fields.extend([""] * (i - self.nf))  # created fields are empty strings  # type: ignore[union-attr]
            self.nf = i
        fields[i - 1] = value  # type: ignore[index]
        self.rec0 = None
        return value

    def field_lvalue(self, index: float) -> object:
        """A field about to be assigned by sub/gsub: created (NF grows) when past NF."""
        i = int(index)
        if 0 < i <= MAX_FIELDS and self.get_nf() < i:
            # NF grows, but $0 is rebuilt only if something else changed a field (gawk).
            self._own().extend([""] * (i - self.nf))  # type: ignore[union-attr]
            self.nf = i
        return self.field(i)

    def set_field_v(self, value: object, index: float) -> object:
        return self.set_field(index, value)

    def update_field(self, value: float, index: float, sym: str) -> float:
        return self.set_field(index, bi.arith(sym, num(self.field(index)), value))  # type: ignore[return-value]

    def get_nf(self) -> float:
        if self.fields is None:
            self._split()
        return float(self.nf)

    def set_nf(self, value: object) -> object:
        n = int(num(value))
        if n < 0 or n > MAX_FIELDS:
            raise AwkError(f"awk: cmd. line:1: fatal: NF set to value {n}")
        self._own()
        if n > self.nf:
            self.fields.extend([""] * (n - self.nf))  # created fields are empty strings  # type: ignore[union-attr]
        else:
            del self.fields[n:]  # type: ignore[index]
        self.nf = n
        self.rec0 = None
        return value

    # -- regexes and string functions ------------------------------------------------------
    def dynamic(self, source: str) -> Regex:
        regex = self.dynamic_cache.get(source)
        if regex is None:
            regex = compile_awk_regex(source)
            if len(self.dynamic_cache) > 512:
                self.dynamic_cache.clear()
            self.dynamic_cache[source] = regex
        return regex

    @staticmethod
    def test(regex: Regex, text: str) -> bool:
        return regex.test(text.encode("latin-1"))

    @staticmethod
    def matches(text: str, regex: Regex) -> bool:
        return regex.test(text.encode("latin-1"))

    def match(self, text: str, regex: Regex) -> float:
        found = regex.search(text.encode("latin-1"), 0, groups=False, cancelled=self.host.cancelled)
        if found is None:
            self.ns["v_RSTART"], self.ns["v_RLENGTH"] = 0.0, -1.0
        else:
            self.ns["v_RSTART"] = float(found.start() + 1)
            self.ns["v_RLENGTH"] = float(found.end() - found.start())
        return self.ns["v_RSTART"]

    def _replacement(self, repl: str) -> list:
        pieces = self.subst_cache.get(repl)
        if pieces is None:
            pieces, text, i = [], [], 0
            while i < len(repl):
                c = repl[i]
                if c == "\\" and i + 1 < len(repl) and repl[i + 1] in "&\\":
                    text.append(repl[i + 1])
                    i += 2
                    continue
                if c == "&":
                    pieces.append("".join(text))
                    pieces.append(None)
                    text = []
                else:
                    text.append(c)
                i += 1
            pieces.append("".join(text))
            if len(self.subst_cache) > 256:
                self.subst_cache.clear()
            self.subst_cache[repl] = pieces
        return pieces

    def substitute(self, regex: Regex, repl: str, text: str, everywhere: bool) -> tuple[float, str]:
        data = text.encode("latin-1")
        if everywhere:
            matches = regex.finditer(data, groups=False, cancelled=self.host.cancelled)
        else:
            first = regex.search(data, 0, groups=False, cancelled=self.host.cancelled)
            matches = [first] if first is not None else []
        pieces = self._replacement(repl)
        out: list[str] = []
        last = count = 0
        for found in matches:
            begin, end = found.start(), found.end()
            out.append(text[last:begin])
            matched = text[begin:end]
            out.append("".join(matched if p is None else p for p in pieces))
            last = end
            count += 1
        if not count:
            return 0.0, text
        out.append(text[last:])
        return float(count), bi.concat(tuple(out))

    @staticmethod
    def substitute_count(result: tuple[float, str]) -> float:
        return result[0]

    def split(self, text: str, array: dict, sep: object) -> float:
        array.clear()
        if sep is None:
            parts = self.split_text(text, self.tos(self.ns["v_FS"]))
        elif isinstance(sep, Regex):
            parts = self.regex_split(text, sep)
        elif sep == "":
            parts = list(text)
        else:
            parts = self.split_text(text, sep)  # type: ignore[arg-type]
        for i, part in enumerate(parts, 1):
            array[str(i)] = StrNum(part)
        return float(len(parts))

    def format(self, fmt: str, args: list) -> str:
        try:
            return sprintf(fmt, args, self.tos)
        except FormatError as error:
            raise AwkError(str(error)) from None

    def rand(self) -> float:
        return self.random.random()

    def srand(self, seed: object) -> float:
        previous = self.seed
        self.seed = float(int(time.time())) if seed is None else bi.trunc(seed)
        self.random.seed(self.seed)
        return previous

    # -- output -------------------------------------------------------------------------------
    def put(self, text: str) -> bool:
        self.buf.append(text)
        self.size += len(text)
        return self.size >= BATCH

    async def flush(self) -> None:
        errors = self.buf_err
        if errors:
            self.buf_err = []
            await self.host.stderr(("\n".join(errors) + "\n").encode("latin-1", "replace"))
        if self.buf:
            data = "".join(self.buf).encode("latin-1", "replace")
            self.buf.clear()
            self.size = 0
            await self.host.stdout(data)

    async def put_to(self, kind: str, name: str, text: str) -> None:
        if kind == "|":
            entry = self.pipes.setdefault(name, [[], 0])
            entry[0].append(text)
            entry[1] += len(text)
            if entry[1] > MAX_REDIRECT_BYTES:
                raise AwkError(f"awk: fatal: more than {MAX_REDIRECT_BYTES} bytes printed to command `{name}'")
            return
        if name == "/dev/stdout" or name == "-":
            if self.put(text):
                await self.flush()
            return
        if name == "/dev/stderr":
            await self.flush()
            await self.host.stderr(text.encode("latin-1", "replace"))
            return
        entry = self.files.get(name)
        if entry is None:
            entry = self.files[name] = [kind == ">>", [], 0]
        entry[1].append(text)
        entry[2] += len(text)
        if entry[2] > MAX_REDIRECT_BYTES:
            await self._write_file(name, entry)
            entry[0], entry[1], entry[2] = True, [], 0

    async def _write_file(self, name: str, entry: list) -> bool:
        data = "".join(entry[1]).encode("latin-1", "replace")
        problem = await self.host.write_file(host_path(name), data, entry[0])
        if problem:
            raise AwkError(f"awk: cmd. line:1: fatal: can't redirect to `{name}': {problem}")
        return True

    async def _run_pipe(self, name: str, entry: list) -> float:
        await self.flush()
        status, out, errors = await self.host.run(host_path(name), "".join(entry[0]).encode("latin-1", "replace"))
        if out:
            await self.host.stdout(out)
        if errors:
            await self.host.stderr(errors)
        return float(status)

    async def close(self, name: str) -> float:
        result = -1.0
        if name in self.files:
            await self._write_file(name, self.files.pop(name))
            result = 0.0
        if name in self.pipes:
            await self._run_pipe(name, self.pipes.pop(name))
            result = 0.0
        if name in self.inputs:
            del self.inputs[name]
            result = 0.0
        if name in self.commands:
            del self.commands[name]
            result = 0.0
        return result

    async def close_all(self) -> None:
        await self.flush()
        for name in list(self.files):
            await self._write_file(name, self.files.pop(name))
        for name in list(self.pipes):
            await self._run_pipe(name, self.pipes.pop(name))
        await self.flush()

    async def fflush(self) -> float:
        await self.flush()
        return 0.0

    async def system(self, command: str) -> float:
        await self.flush()
        for name in list(self.files):
            entry = self.files[name]
            await self._write_file(name, entry)
            entry[0], entry[1], entry[2] = True, [], 0
        status, out, errors = await self.host.run(host_path(command), b"")
        if out:
            await self.host.stdout(out)
        if errors:
            await self.host.stderr(errors)
        return float(status * 256)  # gawk --posix returns the wait status

    # -- input ----------------------------------------------------------------------------------
    def _stdin(self) -> RecordSource:
        if self.stdin_source is None:
            self.stdin_source = RecordSource(self.host.read_stdin)
        return self.stdin_source

    def _rs(self) -> str:
        rs = self.ns["v_RS"]
        return rs if type(rs) is str else self.tos(rs)

    def _count(self, main: bool) -> None:
        ns = self.ns
        nr = ns["v_NR"]
        ns["v_NR"] = nr + 1.0 if type(nr) is float else num(nr) + 1.0
        if main:
            fnr = ns["v_FNR"]
            ns["v_FNR"] = fnr + 1.0 if type(fnr) is float else num(fnr) + 1.0

    async def _open_next(self) -> bool:
        """Opens the next main input (ARGV operands, assignments applied), False at the end."""
        ns, argv = self.ns, self.ns["A_ARGV"]
        while self.argi < int(num(ns["v_ARGC"])):
            arg = argv.get(str(self.argi))
            self.argi += 1
            if arg is None:
                continue
            text = self.tos(arg)
            if text == "":
                continue
            if self.program.assign_operand(ns, text):
                continue
            self.used_file = True
            ns["v_FILENAME"] = StrNum(text) if type(arg) is StrNum else text
            ns["v_FNR"] = 0.0
            if text == "-" or text == "/dev/stdin":
                self.main = self._stdin()
                return True
            data = await self.host.read_file(host_path(text))
            if isinstance(data, str):
                await self.flush()
                raise AwkError(f"awk: cmd. line:1: fatal: cannot open file `{text}' for reading: {data}")
            self.main = RecordSource(_bytes_reader(data))
            return True
        if not self.used_file:
            self.used_file = True
            ns["v_FNR"] = 0.0
            ns["v_FILENAME"] = "-"
            self.main = self._stdin()
            return True
        return False

    async def next_main(self) -> str | None:
        while True:
            if self.main is None and not await self._open_next():
                return None
            record = await self.main.next(self._rs())  # type: ignore[union-attr]
            if record is not None:
                self._count(True)
                return record
            self.main = None

    async def getline_main(self) -> tuple[float, object]:
        record = await self.next_main()
        if record is None:
            return 0.0, None
        return 1.0, StrNum(record)

    async def getline_file(self, name: str) -> tuple[float, object]:
        source = self.inputs.get(name)
        if source is None:
            if name == "-" or name == "/dev/stdin":
                source = self._stdin()
            else:
                if name in self.files:
                    await self._write_file(name, self.files[name])
                    self.files[name] = [True, [], 0]
                data = await self.host.read_file(host_path(name))
                if isinstance(data, str):
                    return -1.0, None
                source = RecordSource(_bytes_reader(data))
            self.inputs[name] = source
        record = await source.next(self._rs())
        if record is None:
            return 0.0, None
        return 1.0, StrNum(record)

    async def getline_command(self, command: str) -> tuple[float, object]:
        entry = self.commands.get(command)
        if entry is None:
            await self.flush()
            status, out, errors = await self.host.run(host_path(command), b"")
            if errors:
                await self.host.stderr(errors)
            entry = self.commands[command] = (RecordSource(_bytes_reader(out)), status)
        record = await entry[0].next(self._rs())
        if record is None:
            return 0.0, None
        return 1.0, StrNum(record)  # gawk --posix leaves NR alone here

    # -- the run ----------------------------------------------------------------------------------
    async def run(self) -> int:
        ns, tree = self.ns, self.program.tree
        status = 0
        in_end = False
        try:
            try:
                await ns["begin_rules"](self)
                if tree.rules or tree.end:
                    await self.main_loop()
            except AwkExit as done:
                status = self.exit_status(done, status)
            in_end = True
            try:
                await ns["end_rules"](self)
            except AwkExit as done:
                status = self.exit_status(done, status)
        except (NextRecord, NextFile):
            await self.flush()
            raise AwkError("awk: cmd. line:1: fatal: `next' used in " + ("END" if in_end else "BEGIN") + " action")
        finally:
            if self.buf_err:
                await self.flush()
        await self.close_all()
        return status

    def exit_status(self, done: AwkExit, status: int) -> int:
        if done.value is None:
            return status
        return int(num(done.value)) & 255

    async def main_loop(self) -> None:
        ns = self.ns
        main = ns["main_rules"]
        # The compiler makes main_rules a plain function when its code never waits.
        sync = not inspect.iscoroutinefunction(main)
        while True:
            source, rs = self.main, ns["v_RS"]
            if source is not None and type(rs) is str and len(rs) == 1:
                # Fast path: the records already in the buffer, one after another, for as
                # long as nothing changes the source, its buffer or RS.
                buf, clean = source.buf, source.clean
                find = buf.find
                while True:
                    pos = source.pos
                    end = find(rs, pos)
                    if end < 0:
                        break
                    source.pos = end + 1
                    nr = ns["v_NR"]
                    ns["v_NR"] = nr + 1.0 if type(nr) is float else num(nr) + 1.0
                    fnr = ns["v_FNR"]
                    ns["v_FNR"] = fnr + 1.0 if type(fnr) is float else num(fnr) + 1.0
                    self.rec0 = StrNum(buf[pos:end])
                    self.fields = None
                    self.fs = ns["v_FS"]
                    self.clean = clean
                    try:
                        if sync:
                            main(self)
                        else:
                            await main(self)
                    except NextRecord:
                        pass
                    except NextFile:
                        self.main = None
                    self.steps -= 1
                    if self.steps < 0 or self.size >= BATCH:
                        await self.check()
                        if self.program.stdout_only and self.host.output_gone():
                            raise OutputClosed()
                    if self.main is not source or source.buf is not buf or ns["v_RS"] is not rs:
                        break
                if self.main is not source or source.buf is not buf or ns["v_RS"] is not rs:
                    continue  # something changed: look again
            record = await self.next_main()
            if record is None:
                return
            self.rec0 = StrNum(record)
            self.fields = None
            self.fs = self.ns["v_FS"]
            main_source = self.main
            self.clean = main_source is not None and main_source.clean
            try:
                if sync:
                    main(self)
                else:
                    await main(self)
            except NextRecord:
                pass
            except NextFile:
                self.main = None
            self.steps -= 1
            if self.steps < 0 or self.size >= BATCH:
                await self.check()
                if self.program.stdout_only and self.host.output_gone():
                    raise OutputClosed()


def compile_awk_regex(source: str) -> Regex:
    """An awk ERE (text of latin-1 bytes) compiled by the project's POSIX engine."""
    try:
        return compile_regex(source.encode("latin-1", "replace"), extended=True, sed=True)
    except RegexError as error:
        raise AwkError(f"awk: cmd. line:1: fatal: invalid regexp /{source}/: {error}") from None


_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)\Z", re.DOTALL)


class AwkProgram:
    """A parsed and compiled program; run it any number of times."""

    def __init__(self, text: str) -> None:
        self.tree = parse(awk_text(text))
        self.warnings = list(self.tree.warnings)
        source, regexes, self.scalars, self.arrays = generate(self.tree)
        self.source = source
        self.regexes = [compile_awk_regex(r) for r in regexes]
        # Only stdout can show what it does: no files, commands or shared input.
        self.stdout_only = not any(word in source for word in ("rt.put_to(", "rt.system(", "rt.getline_command(",
                                                                "rt.getline_file("))
        try:
            self.code = compile(source, "<awk>", "exec")
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            raise AwkSyntaxError("awk: program is too complex to compile: split it into functions") from None

    def namespace(self) -> dict:
        ns: dict = {"UNINIT": UNINIT, "StrNum": StrNum, "num": num, "truth": truth, "compare": compare,
                    "number_text": number_text, "NextRecord": NextRecord, "NextFile": NextFile,
                    "AwkExit": AwkExit, "strnum": StrNum}
        for name in bi.__all__:
            ns[name] = getattr(bi, name)
        for i, regex in enumerate(self.regexes):
            ns[f"R{i}"] = regex
        exec(compile(PRELUDE, "<awk-prelude>", "exec"), ns)
        for name in self.scalars:
            ns["v_" + name] = UNINIT
        ns.update({"v_FS": " ", "v_OFS": " ", "v_ORS": "\n", "v_RS": "\n", "v_NR": 0.0, "v_FNR": 0.0,
                   "v_FILENAME": "", "v_SUBSEP": "\x1c", "v_RSTART": 0.0, "v_RLENGTH": 0.0,
                   "v_CONVFMT": "%.6g", "v_OFMT": "%.6g"})
        return ns

    def assign_operand(self, ns: dict, text: str) -> bool:
        """`var=value` (an operand or -v): sets the variable and returns True."""
        match = _ASSIGNMENT.match(text)
        if not match:
            return False
        name, value = match.group(1), match.group(2)
        if name in KEYWORDS or name in BUILTINS or name in self.tree.functions:
            return False
        if f"A_{name}" in ns:
            raise AwkError(f"awk: fatal: cannot use array `{name}' as a scalar variable")
        warnings: list[str] = []
        text_value = bi.strnum(unescape(value, warnings))
        if name == "NF":
            ns["__rt__"].set_nf(text_value)
        else:
            ns[f"v_{name}"] = text_value
        return True

    async def run(self, host, operands: list[str], assignments: list[str]) -> int:
        """Runs the program; returns the exit status. AwkError for fatal errors."""
        ns = self.namespace()
        exec(self.code, ns)
        ns["A_ENVIRON"] = {awk_text(k): StrNum(awk_text(v)) for k, v in host.environ.items()}
        ns["A_ARGV"] = {"0": "awk", **{str(i): StrNum(awk_text(arg)) for i, arg in enumerate(operands, 1)}}
        ns["v_ARGC"] = float(len(operands) + 1)
        for name in self.arrays:
            ns.setdefault("A_" + name, {})
        runtime = Runtime(self, host, ns)
        ns["__rt__"] = runtime
        if self.warnings:
            runtime.buf_err = list(self.warnings)
        for assignment in assignments:
            if not self.assign_operand(ns, awk_text(assignment)):
                raise AwkError(f"awk: fatal: `{assignment}' is not a legal variable assignment (use -v name=value)")
        try:
            return await runtime.run()
        except AwkError:
            await runtime.flush()
            raise


def compile_program(text: str) -> AwkProgram:
    """Parse and compile `text`; AwkSyntaxError or AwkError when it is not a valid program."""
    return AwkProgram(text)


__all__ = ["AwkError", "AwkProgram", "OutputClosed", "AwkSyntaxError", "compile_program"]
