"""The execution model: chains, pipelines, exit codes, traces, options."""

# These tests pin the upstream runtime model, which is `grammar="strict"`; the bash
# language has its own tests (test_shell_*.py, test_bash_*.py).
from __future__ import annotations

import pytest

from onetool_wasm import CommandResult, create_agent_cli, err, ok, ok_bytes, run_sync
from onetool_wasm.commands import create_command_registry
from onetool_wasm.vfs import MemoryVFS

from .helpers import arun, command, run_line

UPPER = command("upper", lambda ctx, args, stdin: ok(stdin.decode().upper()), accepts_stdin=True)
FAIL = command("fail", lambda ctx, args, stdin: err("fail: forced failure"))
SAY = command("say", lambda ctx, args, stdin: ok(" ".join(args)))


def custom(line, *specs, **options):
    return run_line(line, builtin_commands=False, commands=list(specs) or [SAY, FAIL, UPPER], grammar="strict",
                    **options)


def test_pipeline_feeds_stdout_to_stdin():
    assert custom("say hello | upper") == "HELLO\n\n[exit:0 | 0ms]"


def test_and_runs_only_after_success():
    assert custom("fail && say no") == "[error] fail: forced failure\n\n[exit:1 | 0ms]"
    assert custom("say yes && say also") == "yes\nalso\n\n[exit:0 | 0ms]"


def test_or_runs_only_after_failure():
    assert custom("fail || say rescued") == "rescued\n\n[exit:0 | 0ms]"
    assert custom("say fine || say skipped") == "fine\n\n[exit:0 | 0ms]"


def test_semicolon_always_runs_and_last_pipeline_sets_exit():
    assert custom("say a; fail") == "a\n\n[error] fail: forced failure\n\n[exit:1 | 0ms]"
    assert custom("fail; say b") == "b\n\n[exit:0 | 0ms]"


def test_trailing_semicolon_is_allowed():
    assert custom("say a;") == "a\n\n[exit:0 | 0ms]"


def test_pipeline_stops_at_first_failing_stage():
    calls = []
    spy = command("spy", lambda ctx, args, stdin: calls.append(stdin) or ok("spied"), accepts_stdin=True)
    assert custom("fail | spy", FAIL, spy) == "[error] fail: forced failure\n\n[exit:1 | 0ms]"
    assert calls == []


def test_unknown_command_exits_127_with_available_list():
    assert custom("nope") == "[error] unknown command: nope\nAvailable: fail, say, upper\n\n[exit:127 | 0ms]"


def test_unknown_command_suggests_closest_names():
    cat, catalog = command("cat", lambda *a: ok("")), command("catalog", lambda *a: ok(""))
    assert custom("cta /x", cat, catalog, SAY) == ("[error] unknown command: cta\ndid you mean: cat?\n"
                                                "Available: cat, catalog, say\n\n[exit:127 | 0ms]")


def test_crashing_handler_becomes_internal_runtime_error():
    def boom(ctx, args, stdin):
        raise RuntimeError("kaput")
    assert custom("boom", command("boom", boom)) == "[error] internal runtime error: kaput\n\n[exit:1 | 0ms]"


def test_async_handlers_are_awaited():
    async def later(ctx, args, stdin):
        return ok("awaited")
    assert custom("later", command("later", later)) == "awaited\n\n[exit:0 | 0ms]"


def test_handler_returning_wrong_type_is_an_internal_error():
    text = custom("bad", command("bad", lambda ctx, args, stdin: "text"))
    assert text == "[error] internal runtime error: command bad returned str, not CommandResult\n\n[exit:1 | 0ms]"


def test_parse_errors_exit_2():
    assert custom("say hi > out") == ("[error] redirection operator '>' is not supported. "
                                     "Use pipes plus write/append instead.\n\n[exit:2 | 0ms]")


def test_stderr_on_success_is_labelled_stderr():
    warn = command("warn", lambda ctx, args, stdin: CommandResult(stdout=b"done", stderr="careful"))
    assert custom("warn", warn) == "done\n\n[stderr] careful\n\n[exit:0 | 0ms]"


def test_outputs_of_a_chain_are_joined_by_single_newlines():
    lined = command("lined", lambda ctx, args, stdin: ok("x\n"))
    assert custom("lined; lined; say y", lined, SAY) == "x\nx\ny\n\n[exit:0 | 0ms]"


def test_run_detailed_traces_skipped_pipelines():
    async def go():
        runtime = await create_agent_cli(grammar="strict", builtin_commands=False, commands=[SAY, FAIL])
        return await runtime.run_detailed("say a || say b; fail && say c")
    execution = arun(go())
    assert [(p.relation_from_previous, p.executed, p.skipped_reason, p.exit_code) for p in execution.trace] == [
        (None, True, None, 0), ("||", False, "previous_succeeded", None),
        (";", True, None, 1), ("&&", False, "previous_failed", None)]
    assert execution.stdout == b"a"
    assert execution.stderr == "fail: forced failure"
    assert execution.exit_code == 1
    assert execution.trace[0].commands[0].argv == ("say", "a")


def test_binary_output_is_held_back_and_saved():
    raw = command("raw", lambda ctx, args, stdin: ok_bytes(b"\x00\x01\x02\x03"))

    async def go():
        runtime = await create_agent_cli(grammar="strict", builtin_commands=False, commands=[raw])
        execution = await runtime.run_detailed("raw")
        return execution, await runtime.ctx.vfs.read_bytes("/.system/cmd-output/cmd-0001.bin")
    execution, saved = arun(go())
    assert execution.presentation.body == (
        "[error] command produced binary output that should not be sent to the model.\n"
        "Saved to: /.system/cmd-output/cmd-0001.bin\nUse: stat /.system/cmd-output/cmd-0001.bin")
    assert execution.presentation.stdout_mode == "binary-guard"
    assert saved == b"\x00\x01\x02\x03"


def test_long_output_is_truncated_and_spilled_with_a_shared_counter():
    many = command("many", lambda ctx, args, stdin: ok("".join(f"line {i}\n" for i in range(1, 6))))

    async def go():
        runtime = await create_agent_cli(grammar="strict", builtin_commands=False, commands=[many],
                                         output_limits={"max_lines": 2})
        first = await runtime.run_detailed("many")
        second = await runtime.run_detailed("many")
        return first, second, await runtime.ctx.vfs.read_text("/.system/cmd-output/cmd-0002.txt")
    first, second, spilled = arun(go())
    assert first.presentation.body == (
        "line 1\nline 2\n\n--- output truncated (5 lines, 35B) ---\n"
        "Full output: /.system/cmd-output/cmd-0001.txt\n"
        "Explore: cat /.system/cmd-output/cmd-0001.txt | grep <pattern>\n"
        "         cat /.system/cmd-output/cmd-0001.txt | tail -n 100")
    assert (first.presentation.total_lines, first.presentation.total_bytes) == (5, 35)
    assert second.presentation.saved_path == "/.system/cmd-output/cmd-0002.txt"
    assert spilled == "".join(f"line {i}\n" for i in range(1, 6))


def test_byte_limit_cuts_the_preview_on_a_character_boundary():
    wide = command("wide", lambda ctx, args, stdin: ok("é" * 10))
    text = custom("wide", wide, output_limits={"max_bytes": 5})
    assert text.startswith("éé\n\n--- output truncated (1 lines, 20B) ---\n")


@pytest.mark.parametrize("limits, message", [
    ({"max_lines": -1}, "output_limits.max_lines must be a non-negative integer"),
    ({"max_bytes": 1.5}, "output_limits.max_bytes must be a non-negative integer"),
    ({"maxLines": True}, "output_limits.max_lines must be a non-negative integer"),
    ({"lines": 3}, "unknown output_limits option: lines"),
])
def test_output_limits_are_validated(limits, message):
    with pytest.raises(ValueError) as caught:
        arun(create_agent_cli(grammar="strict", output_limits=limits))
    assert str(caught.value) == message


def test_execution_policy_is_validated():
    with pytest.raises(ValueError) as caught:
        arun(create_agent_cli(grammar="strict", execution_policy={"max_materialized_bytes": -3}))
    assert str(caught.value) == "execution_policy.max_materialized_bytes must be a non-negative integer"


def test_max_materialized_bytes_refuses_big_inputs():
    async def go():
        vfs = MemoryVFS()
        await vfs.write_bytes("/big.txt", b"x" * 2048)
        runtime = await create_agent_cli(grammar="strict", vfs=vfs, execution_policy={"maxMaterializedBytes": 1024})
        return await runtime.run("wc -c /big.txt")
    assert arun(go()).startswith("[error] wc: input exceeds max materialized size (2.0KB > 1.0KB): /big.txt\n\n")


def test_builtin_selection_and_custom_commands_replace_builtins():
    loud_echo = command("echo", lambda ctx, args, stdin: ok("LOUD"))
    assert run_line("echo hi", commands=[loud_echo], grammar="strict") == "LOUD\n\n[exit:0 | 0ms]"
    assert run_line("echo hi", commands=[loud_echo]) == "LOUD\n\n[exit:0 | 0ms]"
    assert run_line("help", builtin_commands={"include_groups": ["text"]}, grammar="strict").startswith(
        "[error] unknown command: help\n")


def test_registry_option_excludes_selection_options():
    with pytest.raises(ValueError):
        arun(create_agent_cli(grammar="strict", registry=create_command_registry(), builtin_commands=False))


def test_unknown_preset_and_group_are_rejected():
    with pytest.raises(ValueError, match="unknown builtin command preset: tiny"):
        create_command_registry(preset="tiny")
    with pytest.raises(ValueError, match="unknown builtin command group: net"):
        create_command_registry(include_groups=["net"])


def test_run_sync_runs_one_line():
    runtime = arun(create_agent_cli(grammar="strict"))
    assert run_sync(runtime, "echo hi").startswith("hi\n\n[exit:0 | ")


def test_output_directory_exists_after_creation():
    runtime = arun(create_agent_cli(grammar="strict"))
    assert arun(runtime.ctx.vfs.is_dir("/.system/cmd-output")) is True


def test_a_crash_fails_its_stage_and_the_chain_goes_on():
    def boom(ctx, args, stdin):
        raise RuntimeError("kaput")
    assert custom("boom || say rescued", command("boom", boom), SAY) == "rescued\n\n[exit:0 | 0ms]"


def test_readonly_preset_refuses_dynamic_writes_and_has_no_write_commands():
    read_only = {"preset": "readOnly"}
    assert run_line("sed -i s/a/b/ /x", builtin_commands=read_only).startswith(
        "[error] sed: refused: this runtime is read-only (preset readOnly)\n\n[exit:1")
    assert run_line("write /x y", builtin_commands=read_only, grammar="strict").startswith(
        "[error] unknown command: write\n")
    assert run_line("echo hi | memory store", builtin_commands=read_only).startswith(
        "[error] memory: refused: this runtime is read-only (preset readOnly)")
    assert run_line("echo hi > /x", builtin_commands=read_only) == (
        "[error] bash: line 1: /x: refused: this runtime is read-only (preset readOnly)\n\n[exit:1 | 0ms]")


def test_lone_surrogates_in_a_command_line_become_replacement_characters():
    line = "write /\ud800.txt a\udc00b && ls / && cat /\ufffd.txt"
    assert run_line(line) == "wrote 5B to /\ufffd.txt\n\ufffd.txt\na\ufffdb\n\n[exit:0 | 0ms]"
    assert run_line(line, grammar="strict") == "wrote 5B to /\ufffd.txt\n\ufffd.txt\na\ufffdb\n\n[exit:0 | 0ms]"


def test_ok_replaces_each_lone_surrogate_with_one_replacement_character():
    assert ok("a\ud800b\udc00").stdout == "a\ufffdb\ufffd".encode()
