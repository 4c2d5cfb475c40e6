"""Every limit of the shell: hit it, get a clear error, in bounded time (docs/ARCHITECTURE.md, limits of a run)."""
from __future__ import annotations

import asyncio
import time

import pytest

from onetool_wasm import MemoryVFS, create_agent_cli


def run(line: str, **policy):
    async def go():
        runtime = await create_agent_cli(vfs=MemoryVFS(), execution_policy=policy or None)
        return await runtime.run_detailed(line)
    return asyncio.run(go())


def test_endless_loop_ends_at_the_deadline():
    execution = run("while true; do :; done", deadline_ms=300)
    assert execution.exit_code == 124
    assert "took longer than its 0.3 s limit" in execution.stderr
    assert execution.duration_ms < 5000


def test_endless_loop_ends_at_the_iteration_limit():
    execution = run("i=0; while true; do i=$((i+1)); done", max_loop_iterations=1000)
    assert execution.exit_code == 124
    assert execution.stderr == ("loops ran more than 1000 iterations in one run; check the loop's "
                                "condition, or bound it.")


def test_command_limit():
    execution = run("for i in 1 2 3 4 5 6; do echo $i; done", max_commands=3)
    assert execution.stdout == b"1\n2\n3\n"
    assert execution.exit_code == 124
    assert execution.stderr.startswith("more than 3 commands ran in one run")


def test_runaway_recursion_hits_the_function_depth():
    execution = run("f() { f; }; f")
    assert execution.exit_code == 124
    assert "maximum function depth" in execution.stderr


def test_function_depth_is_configurable_and_deep_recursion_works_below_it():
    line = "f() { if [ $1 -gt 0 ]; then f $(($1 - 1)); else echo bottom; fi; }; f 45"
    assert run(line).stdout == b"bottom\n"
    assert run(line, max_function_depth=10).exit_code == 124


def test_expansion_limit():
    execution = run('x=$(seq 1 1000); echo "${#x}"', max_expansion_bytes=100)
    assert execution.exit_code == 1
    assert "command substitution output is larger than 100 bytes" in execution.stderr


def test_here_document_limit():
    body = "a" * 200
    execution = run(f"cat <<EOF\n{body}\nEOF", max_heredoc_bytes=100)
    assert execution.exit_code == 1
    assert "here-document is larger than 100 bytes" in execution.stderr


def test_output_limit_stops_an_endless_producer():
    execution = run("yes", max_output_bytes=1000)
    assert execution.exit_code == 1
    assert "the run's output is larger than 1000 bytes" in execution.stderr
    assert len(execution.stdout) == 1000


def test_source_depth_limit():
    execution = run("echo 'source /a.sh' > /a.sh; source /a.sh")
    assert execution.exit_code == 124
    assert "source/eval nested more than 32 levels" in execution.stderr


def test_sleep_past_the_deadline_is_stopped():
    execution = run("sleep 5; echo after", deadline_ms=200)
    assert execution.exit_code == 124
    assert execution.stdout == b""
    assert execution.duration_ms < 3000


def test_sleep_stops_soon_after_the_host_cancels():
    # interrupt() in the browser sets the cancel flag while Python waits: no signal reaches it.
    async def go():
        runtime = await create_agent_cli(vfs=MemoryVFS())
        started = time.monotonic()
        runtime.ctx.cancelled = lambda: time.monotonic() - started > 0.2
        return await runtime.run_detailed("sleep 30; echo after")
    execution = asyncio.run(go())
    assert (execution.exit_code, execution.stdout, execution.stderr) == (130, b"", "the run was cancelled")
    assert execution.duration_ms < 3000


@pytest.mark.parametrize("opener, closer", [("( ", " )"), ("{ ", "; }"), ("$(", ")"), ("if true; then ", "; fi")])
def test_deep_nesting_is_a_parse_error_with_a_position(opener, closer):
    line = opener * 1000 + "echo x" + closer * 1000
    execution = run(line)
    assert execution.exit_code == 2
    assert execution.stderr.startswith("bash: line 1, column ")
    assert "nesting too deep" in execution.stderr


def test_ten_megabyte_here_document():
    body = ("x" * 99 + "\n") * 100_000
    execution = run(f"wc -c <<'EOF'\n{body}EOF")
    assert execution.exit_code == 0
    assert execution.stdout == b"10000000\n"


def test_bad_policy_option_is_refused():
    with pytest.raises(ValueError, match="unknown execution_policy option: max_bananas"):
        run("true", max_bananas=1)
    with pytest.raises(ValueError, match="must be a positive integer"):
        run("true", deadline_ms=0)


def test_camel_case_policy_keys():
    execution = run("while :; do :; done", maxLoopIterations=50)
    assert "more than 50 iterations" in execution.stderr


def test_a_command_that_loops_forever_stops_at_the_deadline():
    execution = run("echo x | sed ':a;ba'", deadline_ms=500)
    assert execution.exit_code == 124
    assert "took longer than its 0.5 s limit" in execution.stderr
    assert execution.duration_ms < 10_000


def test_globstar_stops_at_its_path_limit(monkeypatch):
    from onetool_wasm.shell import expansion
    monkeypatch.setattr(expansion, "MAX_GLOBSTAR_PATHS", 20)
    started = time.monotonic()
    line = "mkdir -p /t && cd /t && touch f{1..30}; shopt -s globstar; echo **; echo after"
    execution = run(line)
    assert execution.stdout == b""
    assert execution.stderr == "bash: line 1: **: more than 20 paths; narrow the pattern"
    assert execution.exit_code == 1
    assert time.monotonic() - started < 10
    monkeypatch.setattr(expansion, "MAX_GLOBSTAR_PATHS", 100)
    assert run(line).stdout.split() == [f"f{n}".encode() for n in sorted(range(1, 31), key=str)] + [b"after"]


def test_an_extended_pattern_refuses_a_text_past_its_limit():
    started = time.monotonic()
    execution = run("x=$(printf '%030000d' 0); echo ${#x}; [[ $x == +(0) ]] && echo zeros; echo after")
    assert execution.stdout == b"30000\n"
    assert execution.stderr == ("bash: line 1: extended pattern: the text is longer than 20000 characters; "
                                "use a plain pattern or grep")
    assert time.monotonic() - started < 10
    assert run("x=$(printf '%010000d' 0); [[ $x == +(0) ]] && echo zeros").stdout == b"zeros\n"


def test_deeply_nested_extended_groups_do_not_recurse_without_bound():
    pattern = "@(" * 500 + "a" + ")" * 500
    execution = run(f"[[ a == {pattern} ]]; echo $?")
    assert execution.stdout == b"1\n"  # groups deeper than 16 levels are plain characters
    assert "internal" not in execution.stderr
