"""timeout: the recorded GNU cases (tests/data/date_fs_more_corpus.json, recorded by
tools/record_date_fs_more.py; limits of 0.2 s) replayed through the runtime, exact checks of
how the limit stops a command (and what it cannot stop), and a property test: random
arguments never crash it."""
from __future__ import annotations

import asyncio
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands import create_command_registry
from onetool_wasm.commands.system.timeout import parse_duration, parse_signal

from .helpers import call, fuzz_settings
from .test_cmd_date import check_case, corpus_cases, params

# Cases where we knowingly differ from GNU (strict xfail; listed in docs/DIFFERENCES.md).
KNOWN_DIFFERENCES: dict[str, str] = {}


@pytest.mark.parametrize("case", params({"timeout"}, KNOWN_DIFFERENCES))
def test_recorded_gnu_case(case):
    check_case(case)


def test_enough_cases_are_recorded():
    assert len(corpus_cases({"timeout"})) >= 40


def run_line(line: str, files: dict[str, bytes] | None = None, **options):
    async def go():
        vfs = MemoryVFS()
        for path, data in (files or {}).items():
            await vfs.write_bytes(path, data)
        runtime = await create_agent_cli(vfs=vfs, **options)
        started = time.monotonic()
        execution = await runtime.run_detailed(line)
        return execution, time.monotonic() - started
    return asyncio.run(go())


# -- stopping the command --------------------------------------------------------------------------

def test_a_waiting_command_is_stopped_at_the_limit():
    execution, took = run_line("timeout 0.2 sleep 5; echo $?")
    assert execution.stdout == b"124\n" and took < 2


def test_a_shell_loop_is_stopped_at_the_limit():
    execution, took = run_line("timeout 0.2 bash -c 'n=0; while :; do n=$((n+1)); done'; echo $?")
    assert execution.stdout == b"124\n" and took < 3


def test_a_pipeline_inside_is_stopped_and_the_shell_goes_on():
    execution, took = run_line("timeout 0.2 sh -c 'yes | while read l; do :; done'; echo $?; echo after")
    assert execution.stdout == b"124\nafter\n" and took < 3


def test_the_inner_shell_state_is_left_clean():
    # a function and variables of the stopped `sh -c` do not leak, and the next commands run
    execution, _ = run_line("X=1; timeout 0.2 sh -c 'X=2; f() { sleep 5; }; f'; echo $? $X; "
                            "for i in 1 2 3; do timeout 5 echo $i; done")
    assert execution.stdout == b"124 1\n1\n2\n3\n"


def test_what_a_stopped_command_wrote_is_kept():
    # GNU: timeout 0.2 sh -c 'echo partial; sleep 5'; echo $?  ->  partial, 124
    execution, took = run_line("timeout 0.2 sh -c 'echo partial; sleep 5'; echo $?")
    assert execution.stdout == b"partial\n124\n" and took < 2


def test_a_command_that_never_waits_is_stopped_at_its_own_limit():
    # The budget the command polls knows timeout's deadline: sed's endless loop ends at 0.2 s,
    # the run goes on, and the stopped command prints nothing of its end (as a killed one).
    execution, took = run_line("timeout 0.2 sed ':a;ba' /f; echo $?", {"/f": b"x\n"},
                               execution_policy={"deadline_ms": 5000})
    assert (execution.stdout, execution.stderr, execution.exit_code) == (b"124\n", "", 0)
    assert 0.2 <= took < 2


def test_nested_timeouts_each_stop_at_their_own_limit():
    execution, took = run_line("timeout 5 timeout 0.2 bash -c 'while :; do :; done'; echo $?; "
                               "timeout 0.2 timeout 5 bash -c 'while :; do :; done'; echo $?")
    assert execution.stdout == b"124\n124\n" and took < 3
