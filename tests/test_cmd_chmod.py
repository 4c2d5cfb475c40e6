"""chmod, and the permission tests of `[`, `test` and `[[`: the GNU cases recorded by
tools/record_modes.py (tests/data/modes_corpus.json) replayed through the runtime, the
VFS backends' modes, exact checks, and a property test that random arguments never crash."""
from __future__ import annotations

import asyncio
import base64
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands import create_command_registry
from onetool_wasm.vfs import DirectoryVFS, VFSError

from .helpers import fuzz_settings


CORPUS = json.loads((Path(__file__).parent / "data" / "modes_corpus.json").read_text(encoding="utf-8"))


def corpus_cases(commands: set[str]) -> list[dict]:
    return [case for case in CORPUS["cases"] if case["command"] in commands]


def expected_stdout(case: dict) -> bytes:
    if "stdout_b64" in case:
        return base64.b64decode(case["stdout_b64"])
    return case["stdout"].encode("utf-8")


async def replay(case: dict):
    vfs = MemoryVFS()
    for path, text in CORPUS["world"].items():
        await vfs.write_bytes(path, text.encode("utf-8"))
    runtime = await create_agent_cli(vfs=vfs)
    # The shell has no `umask` builtin: the VFS always behaves as umask 022, the recorded one.
    prefix = CORPUS["prefix"].replace("umask 022\n", "")
    return await runtime.run_detailed(prefix + case["line"])


def check_case(case: dict) -> None:
    execution = asyncio.run(replay(case))
    got = (execution.stdout, execution.exit_code, bool(execution.stderr))
    want = (expected_stdout(case), case["exit_code"], case["stderr_nonempty"])
    assert got == want, (case["line"], execution.stderr)


def params(commands: set[str], known: dict[str, str]):
    return [pytest.param(case, id=case["id"],
                         marks=[pytest.mark.xfail(strict=True, reason=known[case["id"]])] if case["id"] in known else [])
            for case in corpus_cases(commands)]


# Cases where we knowingly differ from GNU (strict xfail).
KNOWN_DIFFERENCES: dict[str, str] = {
    "chmod-setuid-dropped": "the VFS keeps only the rwx bits: u+s is accepted and dropped (GNU: 4644)",
}


@pytest.mark.parametrize("case", params({"chmod", "test"}, KNOWN_DIFFERENCES))
def test_recorded_gnu_case(case):
    check_case(case)


def test_enough_cases_are_recorded():
    counts = Counter(case["command"] for case in corpus_cases({"chmod", "test"}))
    assert counts["chmod"] >= 15 and counts["test"] >= 15


def test_registered_as_a_write_command_of_the_fs_group():
    spec = create_command_registry().get("chmod")
    assert (spec.group, spec.kind_for(["755", "f"])) == ("fs", "write")
    assert "\nExamples:\n  " in spec.details


# -- units --------------------------------------------------------------------------------------

def run(line: str, files: dict[str, bytes] | None = None, vfs=None):
    async def go():
        target = vfs or MemoryVFS()
        for path, data in (files or {}).items():
            await target.write_bytes(path, data)
        runtime = await create_agent_cli(vfs=target)
        return await runtime.run_detailed(line)
    return asyncio.run(go())


def test_octal_and_symbolic_modes():
    result = run("chmod 755 /f; stat -c %a /f; chmod go-rx /f; stat -c %a /f; chmod a=rwx,o-w /f; stat -c %A /f",
                 {"/f": b"x"})
    assert result.stdout == b"755\n700\n-rwxrwxr-x\n"


def test_memory_vfs_modes_follow_gnu_cp_and_mv():
    async def go():
        vfs = MemoryVFS()
        await vfs.write_bytes("/d/f", b"x")
        assert (await vfs.stat("/d/f")).mode == 0o644 and (await vfs.stat("/d")).mode == 0o755
        await vfs.chmod("/d/f", 0o777)
        await vfs.copy("/d/f", "/g")
        assert (await vfs.stat("/g")).mode == 0o755          # masked by umask 022
        await vfs.copy("/d", "/e")
        assert (await vfs.stat("/e/f")).mode == 0o755
        await vfs.move("/d", "/m")
        assert (await vfs.stat("/m/f")).mode == 0o777        # a move keeps the bits
        await vfs.write_bytes("/m/f", b"new")
        assert (await vfs.stat("/m/f")).mode == 0o777        # an overwrite too
        await vfs.delete("/m/f")
        await vfs.write_bytes("/m/f", b"again")
        assert (await vfs.stat("/m/f")).mode == 0o644        # a new file: the default
        assert (await vfs.stat("/nope")).mode is None
        with pytest.raises(VFSError):
            await vfs.chmod("/nope", 0o600)
        await vfs.chmod("/m", 0o4755)
        assert (await vfs.stat("/m")).mode == 0o755          # only the rwx bits
    asyncio.run(go())


def test_directory_vfs_uses_real_modes(tmp_path):
    async def go():
        vfs = DirectoryVFS(tmp_path / "root")
        await vfs.write_bytes("/f", b"x")
        await vfs.chmod("/f", 0o640)
        assert (await vfs.stat("/f")).mode == 0o640
        assert (tmp_path / "root" / "f").stat().st_mode & 0o777 == 0o640
        (tmp_path / "outside").write_text("x")
        (tmp_path / "root" / "link").symlink_to(tmp_path / "outside")
        with pytest.raises(VFSError) as caught:
            await vfs.chmod("/link", 0o777)
        assert caught.value.code == "EESCAPE"
        assert (tmp_path / "outside").stat().st_mode & 0o777 != 0o777
    asyncio.run(go())


def test_a_vfs_without_modes_is_refused_clearly():
    class NoModes(MemoryVFS):
        def _node_mode(self, p, kind):
            return None
    result = run("chmod 755 /f", {"/f": b"x"}, vfs=NoModes())
    assert result.exit_code == 1
    assert result.stderr.strip() == "chmod: changing permissions of '/f': this file system keeps no permission modes"
    assert run("[ -x /f ] || echo no; [ -r /f ] && echo r", {"/f": b"x"}, vfs=NoModes()).stdout == b"no\nr\n"


def test_recursive_verbose_names_paths_as_written():
    result = run("cd /w; chmod -Rv 700 d/", {"/w/d/a": b"", "/w/d/e/b": b""})
    assert result.stdout.decode().splitlines() == [
        "mode of 'd/' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)",
        "mode of 'd/a' changed from 0644 (rw-r--r--) to 0700 (rwx------)",
        "mode of 'd/e' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)",
        "mode of 'd/e/b' changed from 0644 (rw-r--r--) to 0700 (rwx------)"]


# -- property: random arguments never crash ------------------------------------------------------

WORDS = ["-R", "-v", "-c", "-f", "--", "-", "-w", "-x", "+x", "u+x", "go-w", "a=r", "o=", "u+s", "X", "755", "0644",
         "8", "u=rwx,go=rx", "g=u", "=", "+", ",", "--reference=a.txt", "--reference", "a.txt", "sub", "nope", "-Rx",
         "--verbose", "--bogus", "ugo", "-rw"]


def test_random_arguments_never_crash():
    @fuzz_settings(60)
    @given(args=st.lists(st.one_of(st.sampled_from(WORDS), st.text(alphabet="ugoa+-=rwxXst,01234567", max_size=6)),
                         max_size=5))
    def check(args):
        quoted = " ".join("'" + arg.replace("'", "'\\''") + "'" for arg in args)
        execution = run(f"cd /w; chmod {quoted}; [ -x a.txt ]; [[ -w sub ]]",
                        {"/w/a.txt": b"a\n", "/w/sub/b": b"b\n"})
        assert "internal runtime error" not in execution.stderr, (args, execution.stderr)

    check()
