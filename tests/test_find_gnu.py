"""GNU find's expressions in the bash language (the recorded cases are in the bash corpus,
`find-gnu-*`): hostile expressions end cleanly, limits hold."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli

from .helpers import arun

TOKENS = ["-name", "-iname", "-path", "-regex", "-type", "f", "d", "x", "-size", "+1", "-2k", "3c",
          "-empty", "-mtime", "-1", "-mmin", "+5", "-newer", "/w/a", "-maxdepth", "-mindepth", "1", "0",
          "-print", "-print0", "-printf", "%p %s %f\\n", "-exec", "echo", "{}", ";", "+", "-delete", "-prune",
          "-quit", "!", "-not", "-a", "-o", "(", ")", "*.txt", "[", "-bogus", "-depth", "-true", "-false"]


def run(line: str):
    async def go():
        vfs = MemoryVFS()
        for path in ("/w/a", "/w/b.txt", "/w/d/c.txt", "/w/d/e/f.log"):
            await vfs.write_bytes(path, b"data\n")
        runtime = await create_agent_cli(vfs=vfs, execution_policy={"deadline_ms": 5000})
        return await runtime.run_detailed(line)
    return arun(go())


@given(st.lists(st.sampled_from(TOKENS), max_size=10))
def test_random_expressions_end_cleanly(words):
    quoted = " ".join("'" + word.replace("'", "'\\''") + "'" for word in words)
    execution = run(f"find /w {quoted}")
    assert execution.exit_code in (0, 1)
    assert "internal runtime error" not in execution.stderr
    if execution.exit_code == 1:
        assert execution.stderr.startswith("find: ") or "echo" in words


def test_deeply_nested_parentheses_are_refused_clearly():
    execution = run("find /w " + "'(' " * 100 + "-true" + " ')'" * 100)
    assert (execution.exit_code, execution.stderr) == (1, "find: too many nested parentheses")


def test_exec_runs_through_the_shell_and_reports_failures():
    execution = run("find /w -name '*.txt' -exec cat {} \\; -exec false \\;")
    assert execution.stdout == b"data\ndata\n"
    assert execution.exit_code == 0  # -exec's status is a test result, not find's
    assert run("find /w -name '*.txt' -exec false {} +").exit_code == 1
