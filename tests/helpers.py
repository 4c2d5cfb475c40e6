"""Small shared helpers for the test suite (runs on CPython and inside Pyodide): runtimes and
command contexts over seeded worlds, and the conformance and fuzzing scaffolding that the
command test modules share."""
from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Callable, Iterable

import pytest

from onetool_wasm import CommandSpec, create_agent_cli
from onetool_wasm.commands import create_command_registry
from onetool_wasm.testing import (create_command_conformance_cases, create_test_command_context,
                                  run_registered_command)
from onetool_wasm.testing.world import populate_vfs
from onetool_wasm.vfs import MemoryVFS, VFSError

FIRST_TICK = 1700000000001  # the recorder's first Date.now()


def arun(coro):
    return asyncio.run(coro)


def command(name, handler, **meta):
    return CommandSpec(name=name, summary=f"{name} for tests", usage=f"{name} [args]",
                       details=f"Examples:\n  {name}", handler=handler, **meta)


def run_line(line, **options):
    """Present one command line on a fresh runtime, footer timing zeroed."""
    async def go():
        runtime = await create_agent_cli(vfs=options.pop("vfs", MemoryVFS()), **options)
        return await runtime.run(line)
    return zero_duration(arun(go()))


def zero_duration(text):
    return re.sub(r"\[exit:(\d+) \| [^\]]+\]", r"[exit:\1 | 0ms]", text)


IN_PYODIDE = __import__("os").environ.get("ONETOOL_RUNTIME") == "pyodide"


def examples(count: int) -> int:
    """Hypothesis example count: as asked on CPython, a sixth inside Pyodide (WebAssembly is slower)."""
    return max(10, count // 6) if IN_PYODIDE else count


# -- command contexts -------------------------------------------------------------------------

def counter_clock(start: int = FIRST_TICK) -> Callable[[], int]:
    """A clock that ticks like upstream's recorder: `start`, then +1 a call."""
    ticks = itertools.count(start)
    return lambda: next(ticks)


def command_context(files=None, *, policy=None, clock=None, **options):
    """A command context over a fresh MemoryVFS seeded with `files` (any form populate_vfs
    takes) and a counter clock; `options` go to create_test_command_context."""
    vfs = MemoryVFS(now_ms=clock or counter_clock(), resource_policy=policy)
    arun(populate_vfs(vfs, files or {}))
    return create_test_command_context(vfs=vfs, **options)


def call(name, args=(), *, ctx=None, files=None, stdin=b""):
    """One registered command's result (stdin may be text), on `ctx` or a fresh context over `files`."""
    ctx = ctx if ctx is not None else command_context(files)
    return arun(run_registered_command(name, list(args), ctx=ctx, stdin=stdin)).result


def outcome(result):
    return result.stdout.decode("utf-8"), result.stderr, result.exit_code


def read(ctx, path):
    return arun(ctx.vfs.read_bytes(path))


def vfs_raises(code: str, path: str, coro) -> VFSError:
    """Run `coro`, which must fail with a VFSError of this code and path; returns the error."""
    with pytest.raises(VFSError) as caught:
        arun(coro)
    assert (caught.value.code, caught.value.path) == (code, path)
    return caught.value


# -- conformance and fuzzing ------------------------------------------------------------------

def conformance_cases(*names: str):
    """The conformance cases of these commands; each command must have some."""
    cases = [case for case in create_command_conformance_cases(create_command_registry())
             if case.command_name in names]
    assert {case.command_name for case in cases} == set(names)
    return cases


def conformance_test(*names: str):
    """A test running every conformance case of these commands: `test_conformance = conformance_test("x")`."""
    cases = conformance_cases(*names)

    @pytest.mark.parametrize("case", cases, ids=[case.id for case in cases])
    def test_conformance(case):
        arun(case.run())
    return test_conformance


def fuzz_settings(count: int):
    """Hypothesis settings for a property test that calls commands `count` times (fewer in Pyodide)."""
    from hypothesis import HealthCheck, settings  # imported here: only property tests need hypothesis
    return settings(max_examples=examples(count), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_args(*vocabularies: Iterable[str], numbers: tuple[int, int] = (-2, 5), text_size: int = 6,
                max_size: int = 6, extra: Iterable[str] = ("",)):
    """Argument lists mixing words of the vocabularies (flags, paths...), small numbers,
    the `extra` words (the empty one by default) and random text."""
    from hypothesis import strategies as st
    word = st.one_of(*(st.sampled_from(list(words)) for words in vocabularies),
                     st.integers(*numbers).map(str), st.sampled_from(list(extra)), st.text(max_size=text_size))
    return st.lists(word, max_size=max_size)


def random_stdin(max_size: int, samples: Iterable[bytes] = (b"",)):
    """stdin: one of the samples (empty by default), random bytes, or random UTF-8 text."""
    from hypothesis import strategies as st
    return st.one_of(st.sampled_from(list(samples)), st.binary(max_size=max_size),
                     st.text(max_size=max_size).map(str.encode))


def check_no_crash(result, args, prefix: str, exit_codes: Iterable[int] = (0, 1)) -> None:
    """A fuzzed call ended as a command should: an expected exit code, never an internal
    error, and any error line starts with `prefix` (the command's name)."""
    assert result.exit_code in tuple(exit_codes), (args, result)
    assert "internal runtime error" not in result.stderr, (args, result.stderr)
    if result.exit_code and result.stderr:
        assert result.stderr.startswith(prefix), (args, result.stderr)
