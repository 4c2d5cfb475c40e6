"""Hostile input for the bash language: random scripts never raise out of `run`, never print
an internal error or a Python traceback, and always end within the run's limits."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli

from .helpers import arun

TOKENS = [
    "echo", "cat", "grep", "sort", "seq", "yes", "head", "wc", "tr", "cut", "sed", "uniq", "printf", "read",
    "x", "a", "1", "3", "-n", "-l", "-c", "-v", "-f", "/tmp", "/tmp/f", "f.txt", "*", "?", "[ab]", "~", "..",
    "$x", '"$x"', "$1", "$@", '"$@"', "$?", "$#", "${x:-d}", "${x#a}", "${x//a/b}", "${#x}", "${x:1:2}",
    "$((1+2))", "$((x/0))", "$(echo a)", "`echo b`", "${a[@]}", "a=(1 2)", "x=1", "x+=2", "IFS=:",
    "'s q'", '"d q"', "$'\\n'", "{1..3}", "{a,b}",
    "|", "|&", "&&", "||", ";", "\n", "!", ">", ">>", "<", "2>&1", "&>", ">&2", "<<<", "2>/dev/null",
    "(", ")", "{", "}", "if", "then", "elif", "else", "fi", "for", "in", "do", "done", "while", "until",
    "case", "esac", ";;", "x)", "*)", "[[", "]]", "==", "=~", "-eq", "[", "]", "test", "((", "))",
    "f()", "function", "local", "return", "break", "continue", "shift", "set", "-e", "-u", "-o", "pipefail",
    "export", "unset", "cd", "pwd", "eval", "source", "exit", "true", "false", ":", "declare", "let",
    "<<EOF", "EOF", "<<-'E'", "E", "#", "\\",
]

SCRIPTS = st.lists(st.sampled_from(TOKENS), min_size=1, max_size=24).map(" ".join)
LIMITS = {"deadline_ms": 3000, "max_loop_iterations": 2000, "max_commands": 2000,
          "max_output_bytes": 200_000, "max_function_depth": 20}


def run(line: str):
    async def go():
        vfs = MemoryVFS()
        await vfs.write_bytes("/tmp/f", b"a b\nc\n")
        runtime = await create_agent_cli(vfs=vfs, execution_policy=LIMITS)
        return await runtime.run_detailed(line)
    return arun(go())


@given(SCRIPTS)
def test_random_scripts_end_cleanly(line):
    execution = run(line)
    assert 0 <= execution.exit_code <= 255
    assert "internal runtime error" not in execution.stderr
    assert "Traceback" not in execution.stderr
    assert execution.presentation.text.endswith("]")


@given(st.text(alphabet="$(){}[]<>|&;'\"`\\\n #=!*?~ab1", max_size=40))
def test_random_characters_end_cleanly(line):
    execution = run(line)
    assert 0 <= execution.exit_code <= 255
    assert "internal runtime error" not in execution.stderr
