"""The shell: pipelines, early exit, a loop, and streaming memory, against GNU bash.

    python bench/bench_shell.py [--runs N] [--json]

Prints, per line, the median wall time of `runtime.run_detailed(line)` on CPython (and inside
Pyodide under Node, when the test runtime is built) next to `bash -c line` over a real file
(GNU coreutils, LC_ALL=C, process start-up included) in the same run, and the ratio. Then
the peak memory a 3-stage pipeline over a 63 MB file allocates while it runs (tracemalloc,
the file itself already in the VFS), as a multiple of the file's size.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import ratio_table, run_in_pyodide  # noqa: E402
from bench.bench_text import make_log  # noqa: E402
from onetool_wasm import MemoryVFS, create_agent_cli  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SMALL, LARGE = "/logs/100k.log", "/logs/1m.log"
LINES = (
    f"cat {SMALL} | grep ERROR | wc -l",
    f"cat {LARGE} | grep ERROR | wc -l",
    "for i in $(seq 1 10000); do echo $i; done | tail -n 1",
    "yes | head -n 100000 | wc -l",
    "seq 1 1000000000 | head -n 2",
)
MEMORY_LINE = "cat /logs/63mb.log | grep ERROR | wc -l"


def logs() -> dict[str, bytes]:
    small = make_log(100_000)
    return {SMALL: small, LARGE: make_log(1_000_000, seed=11)}


async def bench_ours(files: dict[str, bytes], runs: int) -> dict[str, dict[str, Any]]:
    vfs = MemoryVFS()
    for path, data in files.items():
        await vfs.write_bytes(path, data)
    runtime = await create_agent_cli(vfs=vfs)
    results = {}
    for line in LINES:
        timings, execution = [], None
        for _ in range(runs):
            started = time.perf_counter()
            execution = await runtime.run_detailed(line)
            timings.append((time.perf_counter() - started) * 1000)
        results[line] = {"median_ms": statistics.median(timings), "stdout": execution.stdout.decode().strip(),
                         "exit_code": execution.exit_code, "stderr": execution.stderr}
    return results


def bench_gnu(files: dict[str, bytes], runs: int) -> dict[str, dict[str, Any]] | None:
    if sys.platform == "emscripten" or shutil.which("bash") is None:
        return None
    results = {}
    with tempfile.TemporaryDirectory() as temp:
        for path, data in files.items():
            target = Path(temp) / path.lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
        for line in LINES:
            command = line.replace("/logs/", f"{temp}/logs/")
            timings, stdout = [], b""
            for _ in range(runs):
                started = time.perf_counter()
                stdout = subprocess.run(["bash", "-c", command], capture_output=True, env=env).stdout
                timings.append((time.perf_counter() - started) * 1000)
            results[line] = {"median_ms": statistics.median(timings), "stdout": stdout.decode().strip()}
    return results


async def streaming_peak() -> tuple[int, int, str]:
    """(file bytes, peak bytes allocated while the pipeline ran, its output)."""
    data = make_log(1_900_000, seed=3)
    vfs = MemoryVFS()
    await vfs.write_bytes("/logs/63mb.log", data)
    runtime = await create_agent_cli(vfs=vfs)
    tracemalloc.start()
    execution = await runtime.run_detailed(MEMORY_LINE)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return len(data), peak, execution.stdout.decode().strip() or execution.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print only our medians as JSON (used for Pyodide)")
    options = parser.parse_args()
    files = logs()
    ours = asyncio.run(bench_ours(files, options.runs))
    if options.json:
        print(json.dumps({line: {"median_ms": r["median_ms"], "stdout": r["stdout"]} for line, r in ours.items()}))
        return
    for line, result in ours.items():
        if result["exit_code"] != 0:
            print(f"warning: {line!r} exited {result['exit_code']}: {result['stderr']}")
    python = f"CPython {sys.version_info.major}.{sys.version_info.minor}"
    print(f"shell: median of {options.runs} runs; logs of 100,000 and 1,000,000 lines")
    columns = {python: ours, "Pyodide": run_in_pyodide("bench/bench_shell.py", options.runs)}
    print(ratio_table(LINES, columns, bench_gnu(files, options.runs), width=56))
    size, peak, output = asyncio.run(streaming_peak())
    print(f"\nstreaming memory: `{MEMORY_LINE}` over {size / 1e6:.1f} MB -> {output}; "
          f"peak allocated while running {peak / 1e6:.1f} MB = {peak / size:.2f}x the file (target <= 3x)")


if __name__ == "__main__":
    main()
