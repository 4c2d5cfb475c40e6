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


def test_the_output_of_a_stopped_command_is_lost():
    # GNU keeps what the command wrote before it was killed ("partial"); run_argv collects a
    # command's output and hands it over only when the command ends (see DIFFERENCES.md)
    execution, _ = run_line("timeout 0.2 sh -c 'echo partial; sleep 5'; echo $?")
    assert execution.stdout == b"124\n"


def test_a_command_that_never_waits_is_stopped_only_by_the_run_deadline():
    # sed's loop polls ctx.cancelled, which is the run's deadline, not timeout's: the limit
    # cannot interrupt it (a change to the interpreter's run_argv would be needed)
    execution, took = run_line("timeout 0.2 sed ':a;ba' /f; echo $?", {"/f": b"x\n"},
                               execution_policy={"deadline_ms": 1500})
    assert execution.stdout == b"" and execution.exit_code == 124 and "1.5 s limit" in execution.stderr
    assert 1.4 < took < 5


def test_the_command_runs_behind_the_policy_and_presets():
    execution, _ = run_line("timeout 5 rm /f; echo $?; cat /f", {"/f": b"kept\n"},
                            builtin_commands={"preset": "readOnly"})
    assert execution.stdout.endswith(b"kept\n") and not execution.stdout.startswith(b"0")


def test_verbose_says_which_signal_was_sent():
    execution, _ = run_line("timeout -v -s INT 0.2 sleep 5")
    assert execution.exit_code == 124 and execution.stderr == "timeout: sending signal INT to command 'sleep'"


def test_missing_operand_is_said():
    execution, _ = run_line("timeout 5")
    assert execution.exit_code == 125
    assert execution.stderr == "timeout: missing operand\nTry 'timeout --help' for more information."


def test_not_found_is_worded_as_gnu():
    execution, _ = run_line("timeout 5 nosuch")
    assert execution.exit_code == 127
    assert execution.stderr == "timeout: failed to run command 'nosuch': No such file or directory"


def test_outside_the_shell_it_says_where_to_use_it():
    result = call("timeout", ["5", "echo", "x"])
    assert result.exit_code == 125 and "inside the shell" in result.stderr


# -- parsing and kind --------------------------------------------------------------------------------

@pytest.mark.parametrize("text,seconds", [("5", 5), ("0.5s", 0.5), ("2m", 120), ("1h", 3600), ("1d", 86400), ("0", 0),
                                          (" 1", 1), ("1e-1", 0.1), (".5", 0.5), ("1.", 1), ("0x10", 16), ("INF", float("inf")), ("1E0", 1)])
def test_durations(text, seconds):
    assert parse_duration(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text", ["x", "5x", "-1", "1ms", "", "nan", "1 s", "s", "1M", "1S"])
def test_invalid_durations(text):
    with pytest.raises(Exception) as raised:
        parse_duration(text)
    assert raised.value.result.exit_code == 125
    assert raised.value.result.stderr.startswith(f"timeout: invalid time interval '{text}'")


@pytest.mark.parametrize("text,expected", [("TERM", ("TERM", 15)), ("sigkill", ("KILL", 9)), ("9", ("KILL", 9)),
                                           ("HUP", ("HUP", 1)), ("RTMIN+2", ("RTMIN+2", 36))])
def test_signals(text, expected):
    assert parse_signal(text) == expected


def test_kind_is_the_kind_of_the_command_it_runs():
    spec = create_command_registry().get("timeout")
    assert spec.group == "system" and "\nExamples:\n  timeout" in spec.details
    assert spec.kind_for(["5", "cat", "f"]) == "read"
    assert spec.kind_for(["-s", "KILL", "5", "rm", "f"]) == "write"
    assert spec.kind_for(["5", "sed", "-i", "s/a/b/", "f"]) == "write"
    assert spec.kind_for(["5", "sh", "-c", "ls"]) == "write"
    assert spec.kind_for(["5", "timeout", "1", "grep", "x", "f"]) == "read"
    assert spec.kind_for(["5", "sleep", "1"]) == "read"
    assert spec.kind_for(["-z"]) == "read"


# -- property: random arguments never crash ------------------------------------------------------------

WORDS = ["-s", "-k", "-v", "--preserve-status", "--foreground", "--signal=HUP", "KILL", "0", "0.01", "1e-9", "inf",
         "echo", "true", "false", "cat", "/f", "sleep", "0.001", "--", "-", "nosuch", "sh", "-c", "exit 3"]


@fuzz_settings(80)
@given(args=st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=4)), max_size=6))
def test_random_arguments_never_crash(args):
    async def go():
        vfs = MemoryVFS()
        await vfs.write_bytes("/f", b"x\n")
        runtime = await create_agent_cli(vfs=vfs, execution_policy={"deadline_ms": 5000})
        return await runtime.run_detailed("timeout " + " ".join("'" + a.replace("'", "'\\''") + "'" for a in args))
    execution = asyncio.run(go())
    assert "internal runtime error" not in execution.stderr
