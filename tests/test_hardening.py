"""Hostile and careless use that must stay bounded and honest: the footer's time covers the
whole run (spilling the output included); the spill store has a cap and evicts oldest first;
spill files never overwrite one another across runtimes."""
from __future__ import annotations

import asyncio
import re
import time

from onetool_wasm import MemoryVFS, create_agent_cli

from .helpers import arun

SPILL_DELAY_SECONDS = 0.3


class SlowSpillVFS(MemoryVFS):
    """A VFS whose spill-file writes are slow, as a busy IndexedDB or disk can be."""

    async def write_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        if path.startswith("/.system/cmd-output/"):
            await asyncio.sleep(SPILL_DELAY_SECONDS)
        return await super().write_bytes(path, data, make_parents)


def test_the_footer_time_includes_presenting_the_output():
    async def go():
        runtime = await create_agent_cli(vfs=SlowSpillVFS())
        started = time.perf_counter()
        execution = await runtime.run_detailed("seq 100000")
        return execution, (time.perf_counter() - started) * 1000

    execution, wall_ms = arun(go())
    shown = int(re.search(r"\[exit:0 \| (\d+)ms\]$", execution.presentation.text).group(1))
    assert execution.presentation.saved_path is not None
    assert shown == execution.duration_ms == execution.presentation.duration_ms
    assert SPILL_DELAY_SECONDS * 1000 <= shown <= wall_ms


def spill_runtime(vfs=None, **limits):
    return create_agent_cli(vfs=vfs or MemoryVFS(), output_limits=limits or None)


def test_the_spill_store_keeps_under_its_cap_by_removing_the_oldest_files():
    async def go():
        vfs = MemoryVFS()
        runtime = await spill_runtime(vfs, max_spill_bytes=3_000_000)
        saved = [(await runtime.run_detailed("seq 150000")).presentation.saved_path for _ in range(5)]
        listing = sorted(await vfs.listdir("/.system/cmd-output"))
        total = sum([(await vfs.stat(f"/.system/cmd-output/{name}")).size for name in listing])
        return saved, listing, total

    saved, listing, total = arun(go())
    # Each output is 938,895 bytes: three fit under 3,000,000, so the two oldest went.
    assert saved == [f"/.system/cmd-output/cmd-000{n}.txt" for n in range(1, 6)]
    assert listing == ["cmd-0003.txt", "cmd-0004.txt", "cmd-0005.txt"]
    assert total == 3 * 938_895


def test_an_output_larger_than_the_whole_store_is_not_saved_and_says_why():
    async def go():
        runtime = await spill_runtime(max_spill_bytes=100_000)
        return await runtime.run_detailed("seq 150000")

    execution = arun(go())
    assert execution.presentation.saved_path is None
    assert execution.presentation.text.endswith(
        "--- output truncated (150000 lines, 916.9KB) ---\nFull output could not be saved: 916.9KB is more "
        f"than the spill store keeps (97.7KB, output_limits.max_spill_bytes).\n\n[exit:0 | {execution.duration_ms}ms]")


def test_a_new_runtime_numbers_its_spill_files_after_the_ones_already_there():
    async def go():
        vfs = MemoryVFS()
        first = await (await spill_runtime(vfs)).run_detailed("seq 100000")
        second = await (await spill_runtime(vfs)).run_detailed("seq 100000")
        return first.presentation.saved_path, second.presentation.saved_path

    assert arun(go()) == ("/.system/cmd-output/cmd-0001.txt", "/.system/cmd-output/cmd-0002.txt")


def test_the_spill_cap_is_an_output_limit_option():
    from onetool_wasm.presentation import OutputLimits
    assert OutputLimits.from_options({"maxSpillBytes": 10}).max_spill_bytes == 10
    assert OutputLimits.from_options(None).max_spill_bytes == 64 * 1024 * 1024
    try:
        OutputLimits.from_options({"max_spill_bytes": -1})
    except ValueError as error:
        assert str(error) == "output_limits.max_spill_bytes must be a non-negative integer"
    else:
        raise AssertionError("a negative cap was accepted")
