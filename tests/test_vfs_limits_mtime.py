"""Every VFS: the path caps (ENAMETOOLONG, at once, in bounded time and memory) and
`set_mtime(path, epoch_ms)` (touch -d/-t/-r, cp -p)."""
from __future__ import annotations

import asyncio
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from onetool_wasm import create_agent_cli
from onetool_wasm.vfs import DirectoryVFS, MemoryVFS, VFSError
from onetool_wasm.vfs.cwd import CwdVFS
from onetool_wasm.vfs.paths import MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_PATH_DEPTH, checked_path

from .helpers import IN_PYODIDE, arun
from .test_browser_vfs_model import FakeDatabase, tab


@pytest.fixture(params=["memory", "directory", "browser"])
def vfs(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "memory":
        return MemoryVFS()
    if request.param == "directory":
        return DirectoryVFS(tmp_path / "root")
    return tab(FakeDatabase())


def test_checked_path_caps() -> None:
    assert checked_path("/a/../b") == "/b"
    assert checked_path("/" + "/".join(["d"] * MAX_PATH_DEPTH)).count("/") == MAX_PATH_DEPTH
    assert checked_path("/" + "n" * MAX_NAME_BYTES)
    for path, kind in (("/" + "/".join(["d"] * (MAX_PATH_DEPTH + 1)), "path length"),
                       ("/" + "n" * (MAX_NAME_BYTES + 1), "path name"),
                       ("/" + "/".join(["é" * 100] * 25), "path length"),
                       ("a/" * 20_000, "path length")):
        with pytest.raises(VFSError) as caught:
            checked_path(path)
        assert caught.value.code == "ENAMETOOLONG"
        assert caught.value.message == "File name too long"
        assert caught.value.details["limitKind"] == kind
    assert checked_path("/x/.." * 10_000) == "/"  # caps apply to the normalised path
    assert MAX_PATH_BYTES == 4096


def test_every_operation_refuses_a_too_long_path(vfs: Any) -> None:
    deep = "/" + "a/" * 20_000 + "f"

    async def go() -> None:
        for call in (vfs.mkdir(deep), vfs.write_bytes(deep, b"x"), vfs.append_bytes(deep, b"x"),
                     vfs.read_bytes(deep), vfs.listdir(deep), vfs.stat(deep), vfs.delete(deep),
                     vfs.copy("/", deep), vfs.move(deep, "/x"), vfs.chmod(deep, 0o600),
                     vfs.set_mtime(deep, 0)):
            with pytest.raises(VFSError) as caught:
                await call
            assert caught.value.code == "ENAMETOOLONG"
        assert await vfs.exists(deep) is False and await vfs.is_dir(deep) is False
        assert await vfs.listdir("/") == []
    arun(go())


@pytest.mark.parametrize("kind", ["memory", "directory"])
def test_mkdir_p_of_20000_levels_fails_at_once_in_the_vfs(kind: str, tmp_path: Path) -> None:
    vfs = MemoryVFS() if kind == "memory" else DirectoryVFS(tmp_path / "root")
    deep = "a/" * 20_000
    tracemalloc.start()
    started = time.perf_counter()
    with pytest.raises(VFSError) as caught:
        arun(vfs.mkdir(deep, True))
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert caught.value.code == "ENAMETOOLONG"
    assert elapsed < 0.5 and peak < 2_000_000, (elapsed, peak)
    assert arun(vfs.listdir("/")) == []  # nothing was created


# mkdir checks the caps before it builds the prefixes of its operand (which would take
# quadratic time and memory: 400 MB for 20,000 levels).
def test_mkdir_p_of_20000_levels_as_a_command() -> None:
    async def go() -> str:
        runtime = await create_agent_cli(vfs=MemoryVFS())
        return await runtime.run("mkdir -p " + "a/" * 20_000)
    started = time.perf_counter()
    out = asyncio.run(go())
    elapsed = time.perf_counter() - started  # timed without tracemalloc, which slows every allocation
    tracemalloc.start()
    asyncio.run(go())
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert "File name too long" in out and "exit:1" in out
    assert elapsed < 2 and peak < 50_000_000, (elapsed, peak)


def test_set_mtime_on_files_and_directories(vfs: Any) -> None:
    async def go() -> None:
        await vfs.write_bytes("/d/f", b"data")
        await vfs.chmod("/d/f", 0o600)
        assert await vfs.set_mtime("/d/f", 1_577_836_800_000) == "/d/f"
        assert await vfs.set_mtime("/d/../d", 1_500_000_000_000) == "/d"
        info = await vfs.stat("/d/f")
        assert (info.modified_epoch_ms, info.size, info.mode) == (1_577_836_800_000, 4, 0o600)
        assert (await vfs.stat("/d")).modified_epoch_ms == 1_500_000_000_000
        assert await vfs.read_bytes("/d/f") == b"data"
        with pytest.raises(VFSError) as caught:
            await vfs.set_mtime("/missing", 0)
        assert caught.value.code == "ENOENT"
        view = CwdVFS(vfs, "/d")
        assert await view.set_mtime("f", 1_600_000_000_000) == "/d/f"
        assert (await vfs.stat("/d/f")).modified_epoch_ms == 1_600_000_000_000
        assert await view.set_mtime("/dev/null", 0) == "/dev/null"
    arun(go())


def test_browser_set_mtime_persists_and_reaches_other_tabs() -> None:
    async def go() -> None:
        db = FakeDatabase()
        first, second = await tab(db).open(), await tab(db).open()
        await first.write_bytes("/d/f", b"x")
        await first.chmod("/d/f", 0o700)
        await first.set_mtime("/d/f", 1_577_836_800_000)
        await first.set_mtime("/d", 1_500_000_000_000)
        for vfs in (second, tab(db)):  # told by the broadcast; read back by a reload
            info = await vfs.stat("/d/f")
            assert (info.modified_epoch_ms, info.mode) == (1_577_836_800_000, 0o700)
            assert (await vfs.stat("/d")).modified_epoch_ms == 1_500_000_000_000
            assert await vfs.read_bytes("/d/f") == b"x"
    asyncio.run(go())


def test_cwd_view_without_a_setter_has_none() -> None:
    class Plain:
        def normalize(self, path: str) -> str:
            return path
    assert getattr(CwdVFS(Plain(), "/"), "set_mtime", None) is None  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["memory", "directory"])
def test_touch_and_cp_p_give_gnu_times(kind: str, tmp_path: Path) -> None:
    if IN_PYODIDE and kind == "directory":
        pytest.skip("DirectoryVFS is not used in Pyodide")

    async def go() -> str:
        vfs = MemoryVFS() if kind == "memory" else DirectoryVFS(tmp_path / "root")
        runtime = await create_agent_cli(vfs=vfs)
        return await runtime.run(
            "touch -d 2020-01-01 f; ls -l f; date -r f +%F; touch -t 202101020304.05 g; stat -c %Y g; "
            "touch -r g h; stat -c %Y h; mkdir dd; touch -d '2019-05-05 10:00' dd; stat -c %Y dd; "
            "chmod 600 f; cp -p f q; stat -c '%Y %a' q; cp f r; stat -c %a r")
    out = asyncio.run(go())
    lines = out.splitlines()
    assert lines[:8] == ["-rw-r--r-- 1 user user 0 Jan  1  2020 f", "2020-01-01", "1609556645",
                         "1609556645", "1557050400", "1577836800 600", "600", ""], out
