"""Text pipelines over a 100,000-line (~3.3 MB) log: our runtime against GNU bash/coreutils.

    python bench/bench_text.py [--runs N]

Prints, per pipeline, the median wall time of `runtime.run_detailed(line)` on this Python
and of `bash -c line` (GNU tools, LC_ALL=C, process start-up included), and the ratio.
The core, `await bench(runtime_factory)`, uses only the standard library and onetool_wasm,
so the same function runs inside Pyodide (where there is no GNU side).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import ratio_table, run_in_pyodide  # noqa: E402
from onetool_wasm import MemoryVFS, create_agent_cli  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LOG_PATH = "/logs/big.log"
LINES = 100_000
PIPELINES = (
    "cat /logs/big.log | grep ERROR | wc -l",
    "sort /logs/big.log | head -n 1",
)
_LEVELS = ("INFO", "INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR")
_EVENTS = ("login ok", "cache miss", "payment sent", "retry", "timeout", "db slow", "user saved")

RuntimeFactory = Callable[[Any], Awaitable[Any]]


def make_log(lines: int = LINES, seed: int = 7) -> bytes:
    """A deterministic log: `HH:MM:SS LEVEL event id=NNNNN`, about 33 bytes a line."""
    rng = random.Random(seed)
    out = []
    for index in range(lines):
        seconds = index * 3 // 4
        stamp = f"{seconds // 3600 % 24:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        out.append(f"{stamp} {rng.choice(_LEVELS)} {rng.choice(_EVENTS)} id={rng.randrange(100000):05d}\n")
    return "".join(out).encode("ascii")


async def default_factory(vfs: Any) -> Any:
    return await create_agent_cli(vfs=vfs)


async def bench(runtime_factory: RuntimeFactory = default_factory, runs: int = 7,
                log: bytes | None = None) -> dict[str, dict[str, Any]]:
    """Median milliseconds per pipeline through our runtime: {line: {median_ms, runs_ms, stdout}}."""
    data = log if log is not None else make_log()
    vfs = MemoryVFS()
    await vfs.write_bytes(LOG_PATH, data)
    runtime = await runtime_factory(vfs)
    results: dict[str, dict[str, Any]] = {}
    for line in PIPELINES:
        timings, stdout, exit_code = [], b"", None
        for _ in range(runs):
            started = time.perf_counter()
            execution = await runtime.run_detailed(line)
            timings.append((time.perf_counter() - started) * 1000)
            stdout, exit_code = execution.stdout, execution.exit_code
        results[line] = {"median_ms": statistics.median(timings), "runs_ms": timings,
                         "stdout": stdout.decode("utf-8", "replace").strip(), "exit_code": exit_code,
                         "stderr": execution.stderr}
    return results


def bench_gnu(log: bytes, runs: int = 7) -> dict[str, dict[str, Any]] | None:
    """The same pipelines through `bash -c` over a real file; None without GNU tools."""
    if sys.platform == "emscripten" or shutil.which("bash") is None:
        return None
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as temp:
        path = Path(temp) / "logs" / "big.log"
        path.parent.mkdir()
        path.write_bytes(log)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
        for line in PIPELINES:
            command = line.replace(LOG_PATH, str(path))
            timings, stdout = [], b""
            for _ in range(runs):
                started = time.perf_counter()
                stdout = subprocess.run(["bash", "-c", command], capture_output=True, env=env).stdout
                timings.append((time.perf_counter() - started) * 1000)
            results[line] = {"median_ms": statistics.median(timings), "stdout": stdout.decode().strip()}
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print only our medians as JSON (used for Pyodide)")
    options = parser.parse_args()
    log = make_log()
    ours = asyncio.run(bench(runs=options.runs, log=log))
    if options.json:
        print(json.dumps({line: {"median_ms": r["median_ms"], "stdout": r["stdout"]} for line, r in ours.items()}))
        return
    print(f"log: {LINES:,} lines, {len(log) / 1e6:.2f} MB; median of {options.runs} runs")
    for line, result in ours.items():
        if result["exit_code"] != 0:
            print(f"warning: {line!r} exited {result['exit_code']}: {result['stderr']}")
    python = f"CPython {sys.version_info.major}.{sys.version_info.minor}"
    columns = {python: ours, "Pyodide": run_in_pyodide("bench/bench_text.py", options.runs)}
    print(ratio_table(PIPELINES, columns, bench_gnu(log, options.runs)))


if __name__ == "__main__":
    main()
