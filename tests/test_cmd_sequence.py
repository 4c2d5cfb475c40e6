"""yes, seq, basename and dirname against GNU coreutils 9.1 (outputs and first error lines
recorded under LC_ALL=C), through both handlers; yes and seq stop when their reader goes."""
from __future__ import annotations

import asyncio

import pytest

from onetool_wasm.commands import create_command_registry, invoke_command
from onetool_wasm.commands.text.seq import parse_format
from onetool_wasm.commands.spec import CommandIO
from onetool_wasm.streams import BrokenPipe, BufferWriter, EmptyReader, Pipe
from onetool_wasm.testing import create_test_command_context

from .helpers import conformance_test

REGISTRY = create_command_registry()

# (argv, GNU's stdout)
GNU_OUTPUTS = [
    (['seq', '3'], b'1\n2\n3\n'),
    (['seq', '2', '4'], b'2\n3\n4\n'),
    (['seq', '0', '0.1', '1'], b'0.0\n0.1\n0.2\n0.3\n0.4\n0.5\n0.6\n0.7\n0.8\n0.9\n1.0\n'),
    (['seq', '-w', '1', '10'], b'01\n02\n03\n04\n05\n06\n07\n08\n09\n10\n'),
    (['seq', '-s,', '1', '3'], b'1,2,3\n'),
    (['seq', '-s', '', '1', '3'], b'123\n'),
    (['seq', '-1'], b''),
    (['seq', '--', '-1', '1'], b'-1\n0\n1\n'),
    (['seq', '1', '-1', '-2'], b'1\n0\n-1\n-2\n'),
    (['seq', '1.5', '3'], b'1.5\n2.5\n'),
    (['seq', '-w', '-10', '3', '1'], b'-10\n-07\n-04\n-01\n'),
    (['seq', '-w', '1', '0.5', '3'], b'1.0\n1.5\n2.0\n2.5\n3.0\n'),
    (['seq', '1e2', '1e2'], b'100\n'),
    (['seq', '1.5e-1', '0.15'], b'0.15\n'),
    (['seq', '-0', '0'], b'-0\n'),
    (['seq', '10', '1'], b''),
    (['seq', '-w', '010'], b'001\n002\n003\n004\n005\n006\n007\n008\n009\n010\n'),
    (['seq', '-w', '0.5', '.5', '1'], b'0.5\n1.0\n'),
    (['seq', '0.10', '0.3'], b'0.10\n'),
    (['seq', '-w', '-.5', '1'], b'-0.5\n00.5\n'),
    (['seq', '-w', '1.', '3'], b'1\n2\n3\n'),
    (['seq', '+2', '3'], b'2\n3\n'),
    (['seq', '0x10', '0x11'], b'16\n17\n'),
    (['seq', '99999999999999999999', '100000000000000000001'], b'99999999999999999999\n100000000000000000000\n100000000000000000001\n'),
    (['seq', '-ws,', '1', '2'], b'1,2\n'),
    (['seq', '-w', '5', '-1', '-5'], b'05\n04\n03\n02\n01\n00\n-1\n-2\n-3\n-4\n-5\n'),
    (['seq', '-w', '0', '-0.5', '-1'], b'00.0\n-0.5\n-1.0\n'),
    (['seq', '2', '-0.7', '0'], b'2.0\n1.3\n0.6\n'),
    (['seq', '1', '0.000001', '1.000002'], b'1.000000\n1.000001\n1.000002\n'),
    (['seq', '-f', '%.3f', '1', '2'], b'1.000\n2.000\n'),
    (['seq', '-f', '%g', '0.1', '0.1', '1'], b'0.1\n0.2\n0.3\n0.4\n0.5\n0.6\n0.7\n0.8\n0.9\n1\n'),
    (['seq', '-f', '%5.1f|', '1', '2'], b'  1.0|\n  2.0|\n'),
    (['seq', '-f', '%-5g|', '1', '2'], b'1    |\n2    |\n'),
    (['seq', '-f', '%+e', '1', '1'], b'+1.000000e+00\n'),
    (['seq', '-f', '%#g', '1', '1'], b'1.00000\n'),
    (['seq', '-f', '%.1f', '0.15', '0.15'], b'0.2\n'),
    (['seq', '-f', 'a%%b%ec', '1', '1'], b'a%b1.000000e+00c\n'),
    (['seq', '-f', '%G', '1e-10', '1e-10'], b'1E-10\n'),
    (['seq', '-f', '%.3g', '1234.5', '1234.5'], b'1.23e+03\n'),
    (['seq', '-f', '%010.2f', '-3', '-3'], b'-000003.00\n'),
    (['seq', '-f', '%g', '-0', '-0'], b'-0\n'),
    (['seq', '-f', '%.30f', '0.1', '0.1'], b'0.100000000000000000001355252716\n'),
    (['seq', '-f', 'file-%03g.txt', '1', '3'], b'file-001.txt\nfile-002.txt\nfile-003.txt\n'),
    (['basename', '/a/b/'], b'b\n'),
    (['basename', '/a/b.txt', '.txt'], b'b\n'),
    (['basename', 'b.txt', 'b.txt'], b'b.txt\n'),
    (['basename', '///'], b'/\n'),
    (['basename', ''], b'\n'),
    (['basename', '-a', 'a/b', 'c/d'], b'b\nd\n'),
    (['basename', '-s', '.c', 'a/x.c', 'b/y.c'], b'x\ny\n'),
    (['basename', 'a/', '.'], b'a\n'),
    (['basename', '--', '-x'], b'-x\n'),
    (['basename', '//a'], b'a\n'),
    (['basename', '-as', '.c', 'a.c'], b'a\n'),
    (['basename', '--suffix=.c', 'a.c'], b'a\n'),
    (['basename', '--multiple', 'a', 'b'], b'a\nb\n'),
    (['basename', '-z', 'a/b'], b'b\x00'),
    (['dirname', '/a/b/'], b'/a\n'),
    (['dirname', 'a'], b'.\n'),
    (['dirname', '/'], b'/\n'),
    (['dirname', '//'], b'/\n'),
    (['dirname', '//a'], b'/\n'),
    (['dirname', '///a//b//'], b'///a\n'),
    (['dirname', ''], b'.\n'),
    (['dirname', 'a/b', 'c'], b'a\n.\n'),
    (['dirname', 'a//'], b'.\n'),
    (['dirname', '-z', 'a/b'], b'a\x00'),
]

# (argv, the first line GNU prints on stderr); all exit 1
GNU_ERRORS = [
    (['seq'], 'seq: missing operand'),
    (['seq', 'x'], "seq: invalid floating point argument: 'x'"),
    (['seq', '1', '0', '3'], "seq: invalid Zero increment value: '0'"),
    (['seq', '-f', '%d', '1', '2'], "seq: format '%d' has unknown %d directive"),
    (['seq', '-f', 'x', '1', '2'], "seq: format 'x' has no % directive"),
    (['seq', '-f', '%f%f', '1', '2'], "seq: format '%f%f' has too many % directives"),
    (['seq', '-f', '%', '1', '1'], "seq: format '%' ends in %"),
    (['seq', '1', '2', '3', '4'], "seq: extra operand '4'"),
    (['seq', '-w', '-f', '%g', '1', '2'],
     'seq: format string may not be specified when printing equal width strings'),
    (['seq', 'nan'], "seq: invalid 'not-a-number' argument: 'nan'"),
    (['seq', '-x', '1'], "seq: invalid option -- 'x'"),
    (['basename'], 'basename: missing operand'),
    (['basename', 'a', 'b', 'c'], "basename: extra operand 'c'"),
    (['basename', '-q', 'x'], "basename: invalid option -- 'q'"),
    (['dirname'], 'dirname: missing operand'),
    (['dirname', '-x', 'a'], "dirname: invalid option -- 'x'"),
    (['yes', '-x'], "yes: invalid option -- 'x'"),
]


def run_normal(argv):
    ctx = create_test_command_context(registry=REGISTRY)
    result = asyncio.run(invoke_command(REGISTRY.get(argv[0]), ctx, argv[1:], b""))
    return result.stdout, result.stderr, result.exit_code


async def run_stream(argv, limit=None):
    ctx = create_test_command_context(registry=REGISTRY)
    out, err = BufferWriter(limit), BufferWriter()
    status = await REGISTRY.get(argv[0]).stream(ctx, argv[1:], CommandIO(EmptyReader(), out, err))
    return bytes(out.data), bytes(err.data).decode(), status


@pytest.mark.parametrize("argv, expected", GNU_OUTPUTS, ids=[" ".join(argv) for argv, _ in GNU_OUTPUTS])
def test_output_is_gnu_s(argv, expected):
    assert run_normal(argv) == (expected, "", 0)
    assert asyncio.run(run_stream(argv)) == (expected, "", 0)


@pytest.mark.parametrize("argv, first_line", GNU_ERRORS, ids=[" ".join(argv) for argv, _ in GNU_ERRORS])
def test_errors_say_what_gnu_says(argv, first_line):
    out, err, status = asyncio.run(run_stream(argv))
    assert (out, status) == (b"", 1)
    # GNU's line, then (for usage mistakes) where to read the usage instead of --help
    assert err == first_line + "\n" or err.startswith(first_line + ". Usage: "), err
    assert run_normal(argv)[1] == err.rstrip("\n")


def test_yes_repeats_its_operands_until_the_pipe_closes():
    async def go(argv, count):
        pipe = Pipe()
        ctx = create_test_command_context(registry=REGISTRY)
        producer = asyncio.ensure_future(REGISTRY.get("yes").stream(
            ctx, argv, CommandIO(EmptyReader(), pipe.writer(), BufferWriter())))
        lines = []
        async for line in pipe.lines():
            lines.append(line)
            if len(lines) == count:
                break
        pipe.close()
        with pytest.raises(BrokenPipe):
            await asyncio.wait_for(producer, timeout=5)
        return lines
    # GNU: yes | head -n 2; yes a b | head -n 2; yes -- x | head -n 1; yes '' | head -n 2
    assert asyncio.run(go([], 2)) == [b"y\n", b"y\n"]
    assert asyncio.run(go(["a", "b"], 2)) == [b"a b\n", b"a b\n"]
    assert asyncio.run(go(["--", "x"], 1)) == [b"x\n"]
    assert asyncio.run(go([""], 2)) == [b"\n", b"\n"]


def test_yes_stops_when_the_run_is_cancelled():
    async def go():
        ctx = create_test_command_context(registry=REGISTRY)
        ctx.cancelled = lambda: True
        return await REGISTRY.get("yes").stream(ctx, [], CommandIO(EmptyReader(), BufferWriter(), BufferWriter()))
    assert asyncio.run(go()) == 130


def test_the_normal_yes_handler_refuses_endless_output():
    assert run_normal(["yes"]) == (b"", "yes: its output never ends: pipe it into a command that stops "
                                        "reading, e.g. yes | head -n 3", 1)


def test_seq_to_infinity_streams_until_its_limit():
    # GNU: seq 1 inf | head -n 2
    async def go():
        with pytest.raises(Exception) as caught:
            await run_stream(["seq", "1", "inf"], limit=1 << 16)
        return caught.typename
    assert asyncio.run(go()) == "StreamLimit"


def test_the_normal_seq_handler_refuses_huge_output():
    out, err, status = run_normal(["seq", "100000000"])
    assert (out, status) == (b"", 1)
    assert err.startswith("seq: output is larger than 16777216 bytes")


def test_seq_batches_its_writes():
    class Counting(BufferWriter):
        writes = 0

        async def write(self, data):
            Counting.writes += 1
            await super().write(data)

    async def go():
        out = Counting()
        ctx = create_test_command_context(registry=REGISTRY)
        await REGISTRY.get("seq").stream(ctx, ["100000"], CommandIO(EmptyReader(), out, BufferWriter()))
        return bytes(out.data)
    data = asyncio.run(go())
    assert data == b"".join(b"%d\n" % n for n in range(1, 100001))
    assert Counting.writes < 15


def test_a_format_has_exactly_one_float_directive():
    before, directive, after = parse_format("a%%b%-08.3Lec")
    assert (before, directive.flags, directive.width, directive.precision, directive.conversion, after) == \
        ("a%b", "-0", 8, 3, "e", "c")


test_conformance = conformance_test("yes", "seq", "basename", "dirname")
