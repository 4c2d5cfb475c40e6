"""Process substitution, `<(...)` and `>(...)` (shell/interpreter.py, vfs/pipes.py).

`<(...)` is also in the bash corpus (tests/data/bash_corpus.txt, `procsub-*`). `>(...)` runs
beside the command in bash, so a recording races the shell's exit; the expected values here
were recorded by hand from GNU bash 5.2 with a `sleep 0.3` after the line, LC_ALL=C.
"""
from __future__ import annotations

import asyncio
import time

from onetool_wasm import MemoryVFS, create_agent_cli


def run(line: str, files: dict[str, str] | None = None, **policy):
    async def go():
        vfs = MemoryVFS()
        for path, text in (files or {}).items():
            await vfs.write_bytes(path, text.encode())
        runtime = await create_agent_cli(vfs=vfs, execution_policy=policy or None)
        execution = await runtime.run_detailed(line)
        return execution, vfs
    return asyncio.run(go())


def test_output_substitution_reads_what_the_command_wrote():
    execution, _ = run("echo data | tee >(tr a-z A-Z) > /dev/null")
    assert (execution.stdout, execution.exit_code) == (b"DATA\n", 0)
    execution, _ = run("echo hi > >(cat)")
    assert (execution.stdout, execution.exit_code) == (b"hi\n", 0)


def test_output_substitution_inside_a_pipeline_writes_a_file():
    execution, vfs = run("printf 'b\\na\\n' | tee >(sort > /sorted) | wc -l; cat /sorted")
    assert execution.stdout == b"2\na\nb\n"


def test_the_files_close_when_their_command_ends():
    execution, vfs = run("cat <(echo a); cat /dev/fd/63; echo $?")
    assert execution.stdout == b"a\n1\n"
    assert execution.stderr == "cat: /dev/fd/63: No such file or directory"


def test_nothing_is_written_to_the_file_system():
    _, vfs = run("diff <(echo a) <(echo b) > /out; echo x > >(cat > /got)")
    assert [name for name in asyncio.run(vfs.listdir("/")) if name != ".system/"] == ["got", "out"]


def test_too_many_at_once_is_a_clear_error():
    started = time.monotonic()
    execution, _ = run("cat " + " ".join(["<(echo x)"] * 51))
    assert execution.exit_code != 0
    assert "more than 50 process substitutions open at once" in execution.stderr
    assert time.monotonic() - started < 10
    execution, _ = run("cat " + " ".join(["<(echo x)"] * 50) + " | wc -l")
    assert execution.stdout == b"50\n"


def test_endless_output_hits_the_expansion_limit():
    started = time.monotonic()
    execution, _ = run("wc -l <(yes)", max_expansion_bytes=100_000)
    assert execution.exit_code != 0
    assert "process substitution output" in execution.stderr
    assert time.monotonic() - started < 10


def test_no_consent_is_asked_for_writing_into_an_output_substitution():
    asked = []

    async def go(line):
        def confirm(request):
            asked.append(request.ref)
            return "declined"
        runtime = await create_agent_cli(vfs=MemoryVFS(), policy={"confirm": ["fs:write"]}, confirm=confirm)
        return await runtime.run_detailed(line)
    assert asyncio.run(go("echo hi > /file")).exit_code == 1 and asked == ["fs:write"]  # the policy asks
    execution = asyncio.run(go("echo hi > >(cat)"))
    assert (execution.stdout, execution.exit_code, asked) == (b"hi\n", 0, ["fs:write"])
