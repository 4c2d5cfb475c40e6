"""BrowserVFS over a fake store: MemoryVFS's semantics, one transaction a change, the index
serving reads, other tabs' changes, quota errors that leave the store as it was.

The fake store models web/js/idb-store.js: the same operations (putFile, appendFile,
copyFile, deleteFile, putDir, deleteTree), all-or-nothing commits, and a broadcast of the
changed paths to the other stores of the same database after each commit.
"""
from __future__ import annotations

import asyncio
import copy
import itertools
from typing import Any

import pytest

from onetool_wasm import create_agent_cli
from onetool_wasm.browser import BrowserVFS, StoreError
from onetool_wasm.vfs import MemoryVFS, VFSError, walk
from .corpus import upstream_clock
from .helpers import examples, zero_duration

try:
    from hypothesis import given, settings, strategies as st
except ImportError:  # pragma: no cover - hypothesis is a test dependency
    given = None

try:  # upstream's recorded MemoryVFS sequences, replayed here too
    import tests.test_parity_vfs as parity
    VFS_RECORDS = parity.VFS_RECORDS
except pytest.skip.Exception:  # no corpus: only that test is skipped
    parity, VFS_RECORDS = None, []


class FakeDatabase:
    """One IndexedDB database: `files` {path: (data, mtime)}, `dirs` {path: mtime}."""

    def __init__(self, quota: int | None = None) -> None:
        self.files: dict[str, tuple[bytes, int]] = {}
        self.dirs: dict[str, int] = {}
        self.modes: dict[str, int] = {}  # the records' optional `mode` field
        self.stores: list[FakeStore] = []
        self.quota = quota  # total bytes of file data a commit may leave
        self.commits = 0

    def used(self, files: dict[str, tuple[bytes, int]]) -> int:
        return sum(len(data) for data, _ in files.values())

    def tree(self) -> tuple[dict[str, tuple[bytes, int]], dict[str, int]]:
        return dict(self.files), dict(self.dirs)


class FakeStore:
    def __init__(self, db: FakeDatabase) -> None:
        self.db = db
        self.listeners: list[Any] = []
        self.loads = self.reads = 0
        self.interrupt_next_commit = False
        db.stores.append(self)

    async def load(self) -> tuple[list[tuple[str, int, int]], list[tuple[str, int]]]:
        self.loads += 1
        modes = self.db.modes
        files = [(path, len(data), mtime, *([modes[path]] if path in modes else []))
                 for path, (data, mtime) in sorted(self.db.files.items())]
        dirs = [(path, mtime, *([modes[path]] if path in modes else [])) for path, mtime in sorted(self.db.dirs.items())]
        return files, dirs

    async def read(self, path: str) -> bytes | None:
        self.reads += 1
        entry = self.db.files.get(path)
        return entry[0] if entry else None

    async def commit(self, ops: list[dict[str, Any]], changes: list[dict[str, Any]]) -> None:
        files, dirs, modes = copy.copy(self.db.files), copy.copy(self.db.dirs), copy.copy(self.db.modes)
        for op in ops:
            apply_op(files, dirs, op, modes)
        if self.db.quota is not None and self.db.used(files) > self.db.quota:
            raise StoreError("QuotaExceededError", "The quota has been exceeded.")
        self.db.files, self.db.dirs, self.db.modes = files, dirs, modes
        self.db.commits += 1
        self.broadcast({"changes": changes})
        if self.interrupt_next_commit:
            self.interrupt_next_commit = False
            raise asyncio.CancelledError()  # committed, but the caller never heard back

    async def clear(self, root_mtime_ms: int) -> None:
        self.db.files, self.db.dirs, self.db.modes = {}, {"/": root_mtime_ms}, {}
        self.broadcast({"reset": True})

    def broadcast(self, message: dict[str, Any]) -> None:
        for other in self.db.stores:
            if other is not self:
                for listener in other.listeners:
                    listener(copy.deepcopy(message))

    def listen(self, callback: Any) -> None:
        self.listeners.append(callback)

    def close(self) -> None:
        self.db.stores.remove(self)


def apply_op(files: dict, dirs: dict, op: dict[str, Any], modes: dict | None = None) -> None:
    """One store operation, as web/js/idb-store.js applies it (records' `mode` in `modes`)."""
    modes = {} if modes is None else modes
    kind, path = op["op"], op["path"]
    if kind in ("putFile", "copyFile", "putDir") or (kind == "appendFile" and "mode" in op):
        modes.pop(path, None)
        if "mode" in op:
            modes[path] = op["mode"]
    if kind == "chmod":
        if path in (dirs if op["kind"] == "dir" else files):
            modes[path] = op["mode"]
    elif kind == "putFile":
        files[path] = (bytes(op["data"]), op["mtimeMs"])
    elif kind == "appendFile":
        files[path] = (files.get(path, (b"", 0))[0] + op["data"], op["mtimeMs"])
    elif kind == "copyFile":
        if op["from"] not in files:
            raise StoreError("NotFoundError", f"no file {op['from']}")
        files[path] = (files[op["from"]][0], op["mtimeMs"])
    elif kind == "deleteFile":
        files.pop(path, None)
        modes.pop(path, None)
    elif kind == "putDir":
        dirs[path] = op["mtimeMs"]
    elif kind == "deleteTree":
        prefix = path + "/"
        for table in (files, dirs, modes):
            for key in [k for k in table if k == path or k.startswith(prefix)]:
                del table[key]
    else:
        raise AssertionError(f"unknown op {kind}")


def tab(db: FakeDatabase, **options: Any) -> BrowserVFS:
    return BrowserVFS("test", store=FakeStore(db), **options)


async def tree_of(vfs: Any) -> dict[str, Any]:
    """Every node: directories as None, files as their bytes."""
    return {path: None if is_dir else await vfs.read_bytes(path) for path, is_dir in await walk(vfs, "/")}


# -- the same semantics as MemoryVFS ----------------------------------------------------------

@pytest.mark.parametrize("record", VFS_RECORDS, ids=[r["id"] for r in VFS_RECORDS])
def test_upstream_vfs_records_and_a_reload(record: dict[str, Any]) -> None:
    async def go() -> None:
        db = FakeDatabase()
        vfs = await tab(db, resource_policy=record.get("resourcePolicy"), now_ms=upstream_clock()).open()
        await parity._replay(vfs, record, compare_times=True)
        reloaded = tab(db)
        assert await tree_of(reloaded) == await tree_of(vfs)
        assert [await reloaded.stat(p) for p, _ in await walk(vfs)] == [await vfs.stat(p) for p, _ in await walk(vfs)]
    asyncio.run(go())


NAMES = ["a", "b", "a/b", "a/b/c", "b/x.txt", "c.json", "a/..", ""]
OPS = ["write", "append", "mkdir", "mkdir_strict", "delete", "copy", "move", "read", "listdir", "stat"]


async def perform(vfs: Any, op: str, src: str, dst: str, data: bytes) -> Any:
    try:
        if op == "write":
            return await vfs.write_bytes(src, data)
        if op == "append":
            return await vfs.append_bytes(src, data)
        if op == "mkdir":
            return await vfs.mkdir(src)
        if op == "mkdir_strict":
            return await vfs.mkdir(src, parents=False)
        if op == "delete":
            return await vfs.delete(src)
        if op in ("copy", "move"):
            return await getattr(vfs, op)(src, dst)
        if op == "read":
            return await vfs.read_bytes(src)
        if op == "listdir":
            return await vfs.listdir(src)
        return await vfs.stat(src)
    except VFSError as error:
        return ("error", error.code, error.path, error.target_path, error.details)


if given is not None:
    step = st.tuples(st.sampled_from(OPS), st.sampled_from(NAMES), st.sampled_from(NAMES),
                     st.binary(max_size=6))
    policies = st.sampled_from([None, {"maxTotalBytes": 12}, {"maxEntriesPerDirectory": 2},
                                {"maxDirectoryDepth": 2, "maxFileBytes": 4}])

    @settings(max_examples=examples(150))
    @given(st.lists(step, max_size=25), policies)
    def test_same_results_as_memory_vfs_and_the_store_holds_them(steps: list, policy: Any) -> None:
        async def go() -> None:
            db = FakeDatabase()
            memory = MemoryVFS(resource_policy=policy, now_ms=upstream_clock())
            browser = await tab(db, resource_policy=policy, now_ms=upstream_clock()).open()
            for op, src, dst, data in steps:
                src, dst = "/" + src, "/" + dst
                assert await perform(browser, op, src, dst, data) == await perform(memory, op, src, dst, data)
            assert await tree_of(browser) == await tree_of(memory)
            assert await tree_of(tab(db)) == await tree_of(memory)  # what a reload sees
        asyncio.run(go())


# -- the index and the transactions -----------------------------------------------------------

def test_listing_and_stat_come_from_the_index() -> None:
    async def go() -> None:
        db = FakeDatabase()
        writer = tab(db)
        await writer.write_bytes("/docs/a.txt", b"alpha")
        await writer.mkdir("/docs/sub")
        reader = tab(db)
        store = reader._backend
        assert await reader.listdir("/docs") == ["sub/", "a.txt"]
        assert (await reader.stat("/docs/a.txt")).size == 5
        assert await reader.exists("/docs/sub") and await reader.is_dir("/docs/sub")
        assert [path for path, _ in await walk(reader)] == ["/docs", "/docs/sub", "/docs/a.txt"]
        assert (store.loads, store.reads) == (1, 0)
        assert await reader.read_text("/docs/a.txt") == "alpha"
        assert (store.loads, store.reads) == (1, 1)
    asyncio.run(go())


def test_one_commit_per_operation_even_for_a_tree_copy() -> None:
    async def go() -> None:
        db = FakeDatabase()
        vfs = await tab(db).open()
        before = db.commits
        await vfs.write_bytes("/a/b/c/file.txt", b"x")   # three directories and a file
        await vfs.copy("/a", "/copy")                      # four nodes
        await vfs.move("/copy", "/moved")
        await vfs.delete("/moved")
        assert db.commits - before == 4
        assert sorted(db.files) == ["/a/b/c/file.txt"]
        assert sorted(db.dirs) == ["/", "/a", "/a/b", "/a/b/c"]
    asyncio.run(go())


def test_a_new_database_gets_a_root_directory() -> None:
    async def go() -> None:
        db = FakeDatabase()
        vfs = await tab(db, now_ms=lambda: 42).open()
        assert db.dirs == {"/": 42}
        assert (await vfs.stat("/")).modified_epoch_ms == 42
    asyncio.run(go())


def test_files_without_directories_in_the_store_still_list() -> None:
    async def go() -> None:
        db = FakeDatabase()
        db.files["/orphan/dir/f.txt"] = (b"hi", 7)  # written by a tab whose mkdir was lost
        vfs = tab(db)
        assert await vfs.listdir("/orphan") == ["dir/"]
        assert await vfs.read_text("/orphan/dir/f.txt") == "hi"
    asyncio.run(go())


# -- quota ----------------------------------------------------------------------------------------

def test_quota_error_is_a_resource_limit_and_changes_nothing() -> None:
    async def go() -> None:
        db = FakeDatabase(quota=10)
        vfs = tab(db)
        await vfs.write_bytes("/keep.txt", b"12345")
        stored = db.tree()
        with pytest.raises(VFSError) as caught:
            await vfs.write_bytes("/new/dir/big.bin", b"x" * 20)
        error = caught.value
        assert (error.code, error.path, error.details) == (
            "ERESOURCE_LIMIT", "/new/dir/big.bin", {"limitKind": "browser storage quota"})
        assert error.message == "resource limit exceeded (browser storage quota) at /new/dir/big.bin"
        assert db.tree() == stored
        assert await vfs.listdir("/") == ["keep.txt"]  # the index was rolled back too
        assert not await vfs.exists("/new")
        await vfs.append_bytes("/keep.txt", b"678")
        assert await vfs.read_bytes("/keep.txt") == b"12345678"
    asyncio.run(go())


def test_quota_error_as_a_command_sees_it() -> None:
    async def go() -> str:
        runtime = await create_agent_cli(vfs=tab(FakeDatabase(quota=64)))
        return await runtime.run("echo " + "x" * 100 + " | tee /big.txt")
    text = asyncio.run(go())
    assert "resource limit exceeded (browser storage quota) at /big.txt" in text
    assert "internal runtime error" not in text


def test_other_store_failures_roll_back_and_surface() -> None:
    async def go() -> None:
        db = FakeDatabase()
        a, b = tab(db), tab(db)
        await a.write_bytes("/f.txt", b"data")
        await b.listdir("/")
        db.files.clear()  # gone behind b's back, no message
        with pytest.raises(StoreError) as caught:
            await b.move("/f.txt", "/g.txt")
        assert caught.value.name == "NotFoundError"
        assert await b.listdir("/") == ["f.txt"]
    asyncio.run(go())


# -- other tabs -----------------------------------------------------------------------------------

def test_changes_from_another_tab_arrive_before_the_next_operation() -> None:
    async def go() -> None:
        db = FakeDatabase()
        a, b = await tab(db).open(), await tab(db).open()
        await a.write_bytes("/shared/from-a.txt", b"A")
        assert await b.listdir("/shared") == ["from-a.txt"]
        await b.write_bytes("/shared/from-b.txt", b"BB")
        await b.append_bytes("/shared/from-a.txt", b"+b")
        assert await a.listdir("/shared") == ["from-a.txt", "from-b.txt"]
        assert (await a.stat("/shared/from-a.txt")).size == 3
        await a.delete("/shared")
        assert await b.listdir("/") == []
        assert db.files == {}
    asyncio.run(go())


def test_concurrent_tabs_lose_no_file() -> None:
    async def go() -> None:
        db = FakeDatabase()
        tabs = [await tab(db).open() for _ in range(3)]
        for round_ in range(5):
            for number, vfs in enumerate(tabs):
                await vfs.write_bytes(f"/out/tab{number}-{round_}.txt", b"x")
        expected = sorted(f"tab{n}-{r}.txt" for n in range(3) for r in range(5))
        for vfs in [*tabs, tab(db)]:
            assert await vfs.listdir("/out") == expected
    asyncio.run(go())


def test_a_stale_tab_deletes_only_what_it_was_asked_to() -> None:
    async def go() -> None:
        db = FakeDatabase()
        a, b = await tab(db).open(), await tab(db).open()
        b._backend.listeners.clear()  # b hears nothing from now on: the worst case
        await a.write_bytes("/keep/a.txt", b"A")
        await b.write_bytes("/mine.txt", b"B")
        await b.delete("/mine.txt")
        assert sorted(db.files) == ["/keep/a.txt"]
    asyncio.run(go())


def test_removing_a_tree_removes_files_another_tab_added_to_it() -> None:
    async def go() -> None:
        db = FakeDatabase()
        a, b = await tab(db).open(), await tab(db).open()
        await a.mkdir("/tmp")
        await b.listdir("/")
        b._backend.listeners.clear()
        await a.write_bytes("/tmp/late.txt", b"late")
        await b.delete("/tmp")
        assert db.files == {} and sorted(db.dirs) == ["/"]
        assert await a.listdir("/") == []
    asyncio.run(go())


def test_reset_from_another_tab_reloads_the_index() -> None:
    async def go() -> None:
        db = FakeDatabase()
        a, b = await tab(db).open(), await tab(db).open()
        await a.write_bytes("/x.txt", b"x")
        assert await b.listdir("/") == ["x.txt"]
        await a.clear()
        assert await b.listdir("/") == []
        assert b._backend.loads == 2
    asyncio.run(go())


def test_an_interrupted_commit_trusts_the_store_afterwards() -> None:
    async def go() -> None:
        db = FakeDatabase()
        vfs = await tab(db).open()
        vfs._backend.interrupt_next_commit = True
        with pytest.raises(asyncio.CancelledError):
            await vfs.write_bytes("/maybe.txt", b"?")
        assert await vfs.listdir("/") == ["maybe.txt"]  # it did commit: reloaded from the store
        assert vfs._backend.loads == 2
    asyncio.run(go())


def test_clear_and_entries() -> None:
    async def go() -> None:
        clock = itertools.count(100)
        vfs = await tab(FakeDatabase(), now_ms=lambda: next(clock)).open()
        await vfs.write_bytes("/.system/cmd-output/cmd-0001.txt", b"spill")
        assert vfs.is_empty()
        await vfs.write_bytes("/a/b.txt", b"bb")
        assert not vfs.is_empty()
        assert vfs.entries() == [("/.system", True, 0, 101), ("/.system/cmd-output", True, 0, 102),
                                 ("/.system/cmd-output/cmd-0001.txt", False, 5, 103),
                                 ("/a", True, 0, 104), ("/a/b.txt", False, 2, 105)]
        await vfs.clear()
        assert vfs.entries() == [] and await vfs.listdir("/") == []
    asyncio.run(go())


def test_a_runtime_over_browser_vfs_runs_pipelines() -> None:
    async def go() -> tuple[str, str]:
        db = FakeDatabase()
        runtime = await create_agent_cli(vfs=tab(db))
        first = await runtime.run("write /logs/app.log 'ERROR a' && append /logs/app.log '\nok\nERROR b\n'")
        again = await create_agent_cli(vfs=tab(db))  # a reload
        return first, await again.run("cat /logs/app.log | grep -c ERROR")
    first, second = asyncio.run(go())
    assert zero_duration(first) == "wrote 7B to /logs/app.log\nappended 12B to /logs/app.log\n\n[exit:0 | 0ms]"
    assert zero_duration(second) == "2\n\n[exit:0 | 0ms]"


# -- permission bits (chmod) ----------------------------------------------------------------------

def test_modes_persist_reload_and_reach_other_tabs() -> None:
    async def go() -> None:
        db = FakeDatabase()
        first, second = await tab(db).open(), await tab(db).open()
        await first.write_bytes("/d/f", b"x")
        assert (await first.stat("/d/f")).mode == 0o644 and (await first.stat("/d")).mode == 0o755
        await first.chmod("/d/f", 0o700)
        await first.chmod("/d", 0o750)
        assert db.modes == {"/d/f": 0o700, "/d": 0o750}
        assert (await second.stat("/d/f")).mode == 0o700          # told by the broadcast
        assert (await tab(db).stat("/d")).mode == 0o750           # read back by a reload
        await first.write_bytes("/d/f", b"new")                   # an overwrite keeps the bits
        await first.append_bytes("/d/f", b"+")
        assert db.modes["/d/f"] == 0o700 and (await tab(db).stat("/d/f")).mode == 0o700
        await first.copy("/d/f", "/g")                            # GNU cp: masked by umask 022
        await first.move("/d", "/m")                              # mv keeps them
        reloaded = tab(db)
        assert [(await reloaded.stat(p)).mode for p in ("/g", "/m", "/m/f")] == [0o700, 0o750, 0o700]
        await first.delete("/m")
        await first.write_bytes("/m/f", b"")
        assert (await tab(db).stat("/m/f")).mode == 0o644 and "/m/f" not in db.modes
    asyncio.run(go())


def test_records_without_a_mode_read_as_the_defaults() -> None:
    async def go() -> None:
        db = FakeDatabase()
        db.dirs = {"/": 1, "/old": 1}
        db.files = {"/old/f.txt": (b"x", 1)}
        vfs = await tab(db).open()
        assert (await vfs.stat("/old")).mode == 0o755 and (await vfs.stat("/old/f.txt")).mode == 0o644
    asyncio.run(go())


def test_a_refused_chmod_transaction_leaves_the_bits_as_they_were() -> None:
    async def go() -> None:
        db = FakeDatabase()
        vfs = await tab(db).open()
        await vfs.write_bytes("/f", b"x")
        failing = db.stores[0]
        original = failing.commit

        async def refuse(ops, changes):
            raise StoreError("QuotaExceededError", "full")
        failing.commit = refuse  # type: ignore[method-assign]
        with pytest.raises(VFSError):
            await vfs.chmod("/f", 0o600)
        failing.commit = original  # type: ignore[method-assign]
        assert (await vfs.stat("/f")).mode == 0o644 and db.modes == {}
    asyncio.run(go())
