"""The streaming handlers (CommandSpec.stream) of cat, head, tail, grep, wc, tee, cut, tr,
uniq and echo: they stop reading as soon as they can, they keep memory bounded, and they
print byte for byte what the normal handler prints for the same input, however the input
is cut into chunks. Expected values of GNU behaviour were recorded from GNU coreutils 9.1
and grep under LC_ALL=C."""
from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm.commands import create_command_registry, invoke_command
from onetool_wasm.commands.spec import CommandIO
from onetool_wasm.streams import BrokenPipe, BufferWriter, BytesReader, EmptyReader, Pipe, Reader
from onetool_wasm.testing import create_test_command_context
from onetool_wasm.vfs import MemoryVFS

from .helpers import fuzz_settings

REGISTRY = create_command_registry()


class ChunkReader(Reader):
    """Input that arrives `size` bytes at a time, so lines and runs span chunks."""

    def __init__(self, data: bytes, size: int) -> None:
        super().__init__()
        self._data, self._size, self._offset = data, size, 0

    async def _next(self) -> bytes:
        chunk = self._data[self._offset:self._offset + self._size]
        self._offset += len(chunk)
        return chunk


def context(files=None, grammar="bash"):
    vfs = MemoryVFS()
    for path, data in (files or {}).items():
        asyncio.run(vfs.write_bytes(path, data))
    ctx = create_test_command_context(vfs=vfs, registry=REGISTRY)
    ctx.grammar = grammar
    return ctx


async def run_stream(name, args, stdin=b"", *, pipe=True, chunk=None, ctx=None):
    """(stdout, stderr, status) of the streaming handler."""
    ctx = ctx or context()
    if isinstance(stdin, Reader):
        reader = stdin
    elif not pipe:
        reader = EmptyReader()
    else:
        reader = ChunkReader(stdin, chunk) if chunk else BytesReader(stdin)
    out, err = BufferWriter(), BufferWriter()
    status = await REGISTRY.get(name).stream(ctx, list(args), CommandIO(reader, out, err, stdin_is_pipe=pipe))
    return bytes(out.data), bytes(err.data).decode(), status


def stream(name, args, stdin=b"", **options):
    return asyncio.run(run_stream(name, args, stdin, **options))


def normal(name, args, stdin=b"", ctx=None):
    result = asyncio.run(invoke_command(REGISTRY.get(name), ctx or context(), list(args), stdin))
    return result.stdout, result.stderr, result.exit_code


async def endless(pipe: Pipe, line: bytes = b"y\n") -> None:
    """A producer that never stops on its own (until the reader closes the pipe)."""
    writer = pipe.writer()
    block = line * 8192
    while True:
        await writer.write(block)


async def run_against_endless(name, args, line=b"y\n"):
    """The command reading an endless pipe: its result, and how the producer ended."""
    pipe = Pipe()
    producer = asyncio.ensure_future(endless(pipe, line))
    result = await asyncio.wait_for(run_stream(name, args, pipe), timeout=5)
    pipe.close()  # what the shell does when the stage is over
    with pytest.raises(BrokenPipe):
        await asyncio.wait_for(producer, timeout=5)
    return result


# -- stopping early ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, args, expected", [
    ("head", ["-n", "3"], (b"y\ny\ny\n", "", 0)),
    ("head", ["-c", "5"], (b"y\ny\ny", "", 0)),
    ("grep", ["-q", "y"], (b"", "", 0)),
    ("grep", ["-m", "2", "y"], (b"y\ny\n", "", 0)),
    ("grep", ["-m", "1", "-A", "2", "y"], (b"y\ny\ny\n", "", 0)),
    ("grep", ["-l", "y"], (b"(standard input)\n", "", 0)),
    ("tail", ["-n", "0"], (b"", "", 0)),
])
def test_a_reader_that_has_enough_returns_at_once_from_an_endless_pipe(name, args, expected):
    assert asyncio.run(run_against_endless(name, args)) == expected


def test_yes_ends_with_broken_pipe_when_its_reader_has_three_lines():
    async def go():
        pipe = Pipe()
        writer = pipe.writer()
        producer = asyncio.ensure_future(REGISTRY.get("yes").stream(
            context(), [], CommandIO(EmptyReader(), writer, BufferWriter())))
        lines = []
        async for line in pipe.lines():
            lines.append(line)
            if len(lines) == 3:
                break
        pipe.close()
        with pytest.raises(BrokenPipe):
            await asyncio.wait_for(producer, timeout=5)
        return lines
    assert asyncio.run(go()) == [b"y\n"] * 3


def test_seq_to_a_billion_into_head_returns_at_once():
    async def go():
        pipe = Pipe()
        producer = asyncio.ensure_future(REGISTRY.get("seq").stream(
            context(), ["1", "1000000000"], CommandIO(EmptyReader(), pipe.writer(), BufferWriter())))
        result = await asyncio.wait_for(run_stream("head", ["-n", "2"], pipe), timeout=5)
        pipe.close()
        with pytest.raises(BrokenPipe):
            await asyncio.wait_for(producer, timeout=5)
        return result
    assert asyncio.run(go()) == (b"1\n2\n", "", 0)


def test_writes_come_in_big_pieces_not_one_per_line():
    class CountingWriter(BufferWriter):
        writes = 0

        async def write(self, data):
            CountingWriter.writes += 1
            await super().write(data)

    async def go():
        out = CountingWriter()
        data = b"line\n" * 100_000
        await REGISTRY.get("cat").stream(context(), [], CommandIO(BytesReader(data), out, BufferWriter(), True))
        return bytes(out.data) == data
    assert asyncio.run(go())
    assert CountingWriter.writes < 20


def test_head_leaves_the_rest_of_a_file_for_the_next_reader():
    # bash: `{ head -n1; cat; } < f` prints every line: GNU head seeks back on a file.
    reader = BytesReader(b"a\nb\nc\n")
    assert stream("head", ["-n", "1"], reader) == (b"a\n", "", 0)
    assert asyncio.run(reader.read_all()) == b"b\nc\n"


def test_tail_keeps_only_the_last_lines_of_a_long_input():
    data = b"".join(b"%d\n" % n for n in range(200_000))
    assert stream("tail", ["-n", "2"], data) == (b"199998\n199999\n", "", 0)
    assert stream("tail", ["-n", "+199999"], data) == (b"199998\n199999\n", "", 0)
    assert stream("head", ["-n", "-199998"], data) == (b"0\n1\n", "", 0)


# -- empty pipes and missing input (bash grammar) ------------------------------------------------

@pytest.mark.parametrize("name, args, expected", [
    ("wc", [], (b"      0       0       0\n", "", 0)),   # GNU: printf '' | wc
    ("wc", ["-l"], (b"0\n", "", 0)),                      # GNU: printf '' | wc -l
    ("grep", ["x"], (b"", "", 1)),
    ("head", [], (b"", "", 0)),
    ("tail", [], (b"", "", 0)),
    ("cut", ["-f", "1"], (b"", "", 0)),
    ("tr", ["a", "b"], (b"", "", 0)),
    ("uniq", [], (b"", "", 0)),
    ("cat", [], (b"", "", 0)),
])
def test_an_empty_pipe_is_valid_input(name, args, expected):
    assert stream(name, args, b"") == expected


@pytest.mark.parametrize("name, args", [("wc", []), ("head", []), ("tail", []), ("grep", ["x"]),
                                        ("cut", ["-f", "1"]), ("uniq", [])])
def test_without_a_pipe_or_a_file_there_is_no_input(name, args):
    assert stream(name, args, pipe=False) == (b"", f"{name}: no input provided. Usage: see 'help {name}'\n", 1)


def test_cat_without_input_or_operands_prints_its_usage():
    assert stream("cat", [], pipe=False) == (b"", "cat: usage: cat [path ...|-]\n", 1)


def test_wc_pads_stdin_counts_to_seven_beside_a_file():
    # GNU: printf 'ab\n' > f; printf 'x y\n' | wc f -
    ctx = context({"/f": b"ab\n"})
    assert stream("wc", ["/f", "-"], b"x y\n", ctx=ctx) == (
        b"      1       1       3 /f\n      1       2       4 -\n      2       3       7 total\n", "", 0)


def test_grep_reports_binary_stdin_as_the_normal_handler_does():
    expected = normal("grep", ["a"], b"a\0b\nab\n")
    out, err, status = stream("grep", ["a"], b"a\0b\nab\n")
    assert (out, err.rstrip("\n"), status) == expected


def test_tee_copies_to_files_and_passes_input_through():
    ctx = context({"/log": b"old\n"})
    assert stream("tee", ["/t", "/u"], b"one\ntwo\n", chunk=3, ctx=ctx) == (b"one\ntwo\n", "", 0)
    assert asyncio.run(ctx.vfs.read_bytes("/t")) == b"one\ntwo\n"
    assert stream("tee", ["-a", "/log"], b"new\n", ctx=ctx) == (b"new\n", "", 0)
    assert asyncio.run(ctx.vfs.read_bytes("/log")) == b"old\nnew\n"


def test_tee_keeps_what_it_read_when_its_reader_goes_away():
    async def go(ctx):
        pipe = Pipe()
        pipe.close()
        io = CommandIO(BytesReader(b"kept\n"), pipe.writer(), BufferWriter(), True)
        with pytest.raises(BrokenPipe):
            await REGISTRY.get("tee").stream(ctx, ["/t"], io)
        return await ctx.vfs.read_bytes("/t")
    assert asyncio.run(go(context())) == b"kept\n"


def test_tr_squeezes_a_run_that_spans_chunks():
    assert stream("tr", ["-s", "a"], b"xaaaaaay", chunk=2) == (b"xay", "", 0)


def test_uniq_counts_a_run_that_spans_blocks():
    assert stream("uniq", ["-c"], b"a\na\na\nb\n", chunk=2) == (b"      3 a\n      1 b\n", "", 0)


def test_echo_streams_its_line():
    assert stream("echo", ["-n", "hi"], pipe=False) == (b"hi", "", 0)


@pytest.mark.parametrize("name, args, before", [
    ("mkdir", ["/d"], {}),
    ("touch", ["/t"], {}),
    ("cp", ["/f", "/g"], {"/f": b"x"}),
    ("mv", ["/f", "/g"], {"/f": b"x"}),
    ("rm", ["/f"], {"/f": b"x"}),
])
def test_tree_changes_are_silent_in_the_bash_grammar(name, args, before):
    assert normal(name, args, ctx=context(before, grammar="bash")) == (b"", "", 0)
    assert normal(name, args, ctx=context(before, grammar="strict"))[0] != b""


# -- same output as the normal handler ----------------------------------------------------------

# Non-empty: for an empty pipe the streaming handlers answer as GNU does (see above), where
# the normal handler, which cannot tell it from no input, says "no input provided".
TEXT = st.text(alphabet="ab:x \t\n", min_size=1, max_size=60).map(str.encode)
CHUNKS = st.integers(min_value=1, max_value=9)
NUMBERS = st.sampled_from(["0", "1", "2", "3", "+1", "+2", "-1", "-2"])


def _flags(*choices):
    return st.lists(st.sampled_from(list(choices)), max_size=3, unique=True).map(lambda words: [w for w in words])


def _counted(flag):
    return NUMBERS.map(lambda number: [flag, number])


ARGUMENTS = {
    "cat": st.sampled_from([[], ["-"]]),
    "head": st.one_of(_counted("-n"), _counted("-c"), st.just([])),
    "tail": st.one_of(_counted("-n"), _counted("-c"), st.just([])),
    "wc": _flags("-l", "-w", "-c", "-m"),
    "cut": st.one_of(st.sampled_from([["-f", "1"], ["-f", "2-"], ["-d", ":", "-f", "1,3"], ["-c", "1-2"],
                                      ["-b", "2"], ["-d", ":", "-s", "-f", "2"]])),
    "tr": st.sampled_from([["a", "b"], ["-s", "a"], ["-d", "x"], ["-s", "ab", "x"], ["-c", "a", "z"],
                           ["-ds", "x", "a"]]),
    "uniq": _flags("-c", "-d", "-u", "-i", "-D").filter(lambda flags: not {"-c", "-D"} <= set(flags)),
    "grep": st.tuples(_flags("-v", "-n", "-c", "-o", "-x", "-w", "-l", "-L", "-q", "-H"),
                      st.sampled_from([[], ["-m", "1"], ["-m", "2"], ["-A", "1"], ["-B", "2"], ["-C", "1"],
                                       ["-m", "1", "-A", "1"], ["-B", "1", "-A", "2"]]),
                      st.sampled_from(["a", "x", "^a", "b$", "a.b", ":"])).map(
                          lambda parts: parts[0] + parts[1] + [parts[2]]),
}


@pytest.mark.parametrize("name", sorted(ARGUMENTS))
def test_streaming_prints_what_the_normal_handler_prints(name):
    @fuzz_settings(60)
    @given(data=TEXT, args=ARGUMENTS[name], chunk=CHUNKS)
    def check(data, args, chunk):
        expected_out, expected_err, expected_status = normal(name, args, data)
        out, err, status = stream(name, args, data, chunk=chunk)
        assert (out, status) == (expected_out, expected_status), (args, data, chunk)
        assert err.rstrip("\n") == expected_err, (args, data, chunk)
    check()


def test_grep_context_groups_continue_across_files_and_stdin():
    ctx = context({"/a": b"x\ny\nx\n"})
    args = ["-n", "-C", "1", "x", "/a", "-"]
    expected = normal("grep", args, b"y\ny\nx\ny\n", ctx=ctx)
    out, err, status = stream("grep", args, b"y\ny\nx\ny\n", chunk=2, ctx=ctx)
    assert (out, err, status) == expected
    assert out == b"/a:1:x\n/a-2-y\n/a:3:x\n--\n(standard input)-2-y\n(standard input):3:x\n(standard input)-4-y\n"
