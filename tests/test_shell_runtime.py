"""The bash language inside the runtime: fresh state or a session, the tool description,
streaming pipelines that end early, every stage's stderr, traces, the strict grammar beside it."""
from __future__ import annotations

import asyncio
import time

import pytest

from onetool_wasm import MemoryVFS, create_agent_cli

from .helpers import arun


def runtime(**options):
    return arun(create_agent_cli(vfs=options.pop("vfs", MemoryVFS()), **options))


def run(rt, line):
    return arun(rt.run_detailed(line))


def test_each_run_starts_a_fresh_shell_over_the_same_files():
    rt = runtime()
    first = run(rt, "x=1; f() { echo hi; }; mkdir -p /w; cd /w; echo data > file.txt")
    assert first.exit_code == 0
    second = run(rt, 'echo "[${x-unset}]"; pwd; type -t f; cat /w/file.txt')
    assert second.stdout == b"[unset]\n/\ndata\n"
    assert second.exit_code == 0


def test_a_session_keeps_variables_functions_and_the_cwd():
    rt = runtime(shell_session=True)
    run(rt, "x=1; f() { echo hi from f; }; mkdir -p /w && cd /w")
    assert run(rt, 'echo "$x"; f; pwd').stdout == b"1\nhi from f\n/w\n"
    assert "carry over from one call to the next" in rt.build_tool_description()


def test_the_description_says_which_language_the_tool_speaks():
    bash = runtime().build_tool_description()
    strict = runtime(grammar="strict").build_tool_description()
    assert bash.startswith("Run bash command lines over registered commands")
    assert "Each call starts a fresh shell in /" in bash
    assert strict.startswith("Run CLI-style commands over registered tools")
    assert "No env expansion, no globbing, no command substitution, no redirection." in strict
    for variant in ("minimal-tool-description", "terse"):
        assert runtime().build_tool_description(variant).startswith("Run bash command lines")


def test_unknown_grammar_is_refused():
    with pytest.raises(ValueError, match="grammar must be one of bash, strict"):
        runtime(grammar="zsh")


def test_strict_grammar_refuses_what_bash_runs():
    rt = runtime(grammar="strict")
    execution = run(rt, "echo $HOME > /x")
    assert execution.exit_code == 2
    assert "variable expansion '$HOME' is not supported" in execution.stderr


@pytest.mark.parametrize("line, stdout", [
    ("yes | head -n 3", b"y\ny\ny\n"),
    ("seq 1 1000000000 | head -n 2", b"1\n2\n"),
    ("while true; do echo loop; done | head -n 2", b"loop\nloop\n"),
    ("cat /big.log | grep ERROR | head -n 1", b"0 ERROR\n"),
])
def test_a_consumer_that_stops_early_ends_its_producers(line, stdout):
    vfs = MemoryVFS()
    arun(vfs.write_bytes("/big.log", b"".join(b"%d %s\n" % (i, b"ERROR" if i % 3 == 0 else b"INFO")
                                              for i in range(300_000))))
    rt = runtime(vfs=vfs)
    started = time.perf_counter()
    execution = run(rt, line)
    assert (execution.stdout, execution.exit_code, execution.stderr) == (stdout, 0, "")
    assert time.perf_counter() - started < 10  # far below the 30 s deadline: nothing ran to its end


def test_every_stage_stderr_reaches_the_model_and_the_last_stage_decides():
    execution = run(runtime(), "cat /nope | wc -l")
    assert (execution.stdout, execution.exit_code) == (b"0\n", 0)
    assert execution.stderr == "cat: /nope: No such file or directory"
    assert execution.presentation.text.startswith("0\n\n[stderr] cat: /nope: No such file or directory")


def test_pipefail_takes_the_last_failing_status():
    assert run(runtime(), "set -o pipefail; cat /nope 2>/dev/null | wc -l").exit_code == 1
    assert run(runtime(), "false | true; echo ${PIPESTATUS[@]}").stdout == b"1 0\n"


def test_trace_has_each_top_level_pipeline_with_its_commands():
    execution = run(runtime(), "echo a | wc -l && false || echo b; true && echo c")
    shape = [(p.relation_from_previous, p.executed, p.exit_code, [c.argv[0] for c in p.commands]) for p in execution.trace]
    assert shape == [(None, True, 0, ["echo", "wc"]), ("&&", True, 1, ["false"]), ("||", True, 0, ["echo"]),
                     (";", True, 0, ["true"]), ("&&", True, 0, ["echo"])]
    skipped = run(runtime(), "true || echo never").trace[1]
    assert (skipped.executed, skipped.skipped_reason) == (False, "previous_succeeded")


def test_syntax_errors_name_the_position_and_earlier_lines_still_run():
    execution = run(runtime(), "echo before\nif true; then echo x\nfi fi")
    assert execution.stdout == b"before\n"
    assert execution.exit_code == 2
    assert execution.stderr == "bash: line 3, column 4: syntax error near unexpected token `fi'"


def test_background_jobs_are_refused_with_what_to_do():
    execution = run(runtime(), "sleep 1 &")
    assert execution.exit_code == 2
    assert "background jobs ('&') are not supported: run the command in the foreground" in execution.stderr


def test_relative_paths_resolve_against_the_cwd_for_every_command():
    rt = runtime()
    execution = run(rt, "mkdir -p /p/q && cd /p && echo hi > q/f.txt && cat q/f.txt && ls q && find . -type f "
                        "&& grep -r hi . && wc -c q/f.txt && cd q && cat ../q/f.txt")
    assert execution.stdout == b"hi\nf.txt\n./q/f.txt\n./q/f.txt:hi\n3 q/f.txt\nhi\n"


def test_host_command_replaces_a_shell_builtin_of_the_same_name():
    from onetool_wasm import CommandSpec, ok
    loud = CommandSpec(name="echo", summary="s", usage="echo", details="d",
                       handler=lambda ctx, args, stdin: ok("LOUD\n"))
    assert run(runtime(commands=[loud]), "echo hi").stdout == b"LOUD\n"
