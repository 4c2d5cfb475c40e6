"""The commands agents reach for, at 100k and 1M lines: our runtime against the real tools.

    python bench/bench_commands.py [--runs N] [--small]

Prints, per command line, the median wall time of `runtime.run_detailed(line)` on this
Python (and inside Pyodide when the test runtime is built) next to `bash -c line` with the
GNU tools (gawk, Debian's jq, coreutils, findutils; LC_ALL=C, process start-up included)
over the same files in a temporary folder, the ratio, and whether the outputs agree.
`--small` runs only the 100k-line sizes (what Pyodide runs).

Measured on CPython 3.11 (a shared 2-core machine, load 4-8: CPU time of `run_detailed` by
time.process_time, one run; GNU's wall time of the same line, same machine), before and after
the fast paths (awk: plain main_rules, records in batch, lazy StrNum fields, str.split for
the default FS, num for digits; cut -f N by one regex per block; sort of lines with many
repeats by counting; uniq runs by comparing bytes; jq: C-speed json_depth, no to_jq copy
when json gave floats, compact output through json's C string escaping):

    command line                                        before ms     after ms    GNU ms
    awk '{s+=$3} END {print s}' t100k.txt                     610      250-430     30-90
    awk '{s+=$3} END {print s}' t1m.txt              (not measured)  2700-3950   350-720
    cut -d' ' -f2 t100k.txt | sort | uniq -c                  222        64-94    90-120
    cut -d' ' -f2 t1m.txt | sort | uniq -c                   2061      660-970   790-820
    jq -c '.[] | {id, name}' items.json | wc -l              5190    2650-2920 1210-2600
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import ratio_table, run_in_pyodide  # noqa: E402
from onetool_wasm import MemoryVFS, create_agent_cli  # noqa: E402

_NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy")


def table(lines: int, seed: int = 3) -> bytes:
    """`id name value` rows: a small vocabulary in field 2, integers in field 3."""
    rng = random.Random(seed)
    return "".join(f"{i} {rng.choice(_NAMES)} {rng.randrange(1000)}\n" for i in range(lines)).encode()


def items(count: int, seed: int = 5) -> bytes:
    """A JSON array of objects, about 100 bytes each."""
    rng = random.Random(seed)
    rows = [{"id": i, "name": rng.choice(_NAMES), "score": rng.random(), "tags": ["a", "b"][: rng.randrange(3)],
             "active": rng.random() < 0.5, "note": "x" * rng.randrange(20)} for i in range(count)]
    return json.dumps(rows).encode()


def world(small: bool) -> dict[str, bytes]:
    files = {"/data/t100k.txt": table(100_000), "/data/items.json": items(100_000),
             "/data/words.txt": "".join(f"w{i}\n" for i in range(10_000)).encode()}
    if not small:
        files["/data/t1m.txt"] = table(1_000_000)
    for i in range(10_000):
        files[f"/tree/d{i % 100:02d}/f{i}.log"] = b"line\n" * (i % 7)
    return files


def command_lines(small: bool) -> tuple[str, ...]:
    sizes = ("t100k",) if small else ("t100k", "t1m")
    lines: list[str] = []
    for size in sizes:
        lines.append(f"awk '{{s+=$3}} END {{print s}}' /data/{size}.txt")
        lines.append(f"cut -d' ' -f2 /data/{size}.txt | sort | uniq -c")
    lines.append("jq -c '.[] | {id, name}' /data/items.json | wc -l")
    lines.append("xargs -n 1 echo < /data/words.txt | wc -l")
    lines.append("find /tree -name '*.log' -exec wc -l {} + | grep -c log")
    return tuple(lines)


async def bench(files: dict[str, bytes], lines: tuple[str, ...], runs: int) -> dict[str, dict[str, Any]]:
    vfs = MemoryVFS()
    for path, data in files.items():
        await vfs.write_bytes(path, data)
    runtime = await create_agent_cli(vfs=vfs, execution_policy={"deadline_ms": 600_000})
    results: dict[str, dict[str, Any]] = {}
    for line in lines:
        timings, execution = [], None
        for _ in range(runs):
            started = time.perf_counter()
            execution = await runtime.run_detailed(line)
            timings.append((time.perf_counter() - started) * 1000)
        results[line] = {"median_ms": statistics.median(timings), "exit_code": execution.exit_code,
                         "stdout": execution.stdout.decode("utf-8", "replace").strip(), "stderr": execution.stderr}
    return results


def bench_gnu(files: dict[str, bytes], lines: tuple[str, ...], runs: int) -> dict[str, dict[str, Any]] | None:
    """The same lines through `bash -c` over real files; a line whose tool is missing is left out."""
    if sys.platform == "emscripten" or shutil.which("bash") is None:
        return None
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as temp:
        for path, data in files.items():
            target = Path(temp + path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
        for line in lines:
            if shutil.which(line.split()[0]) is None:
                continue
            command = line.replace("/data/", f"{temp}/data/").replace("/tree", f"{temp}/tree")
            timings, stdout = [], ""
            for _ in range(runs):
                started = time.perf_counter()
                stdout = subprocess.run(["bash", "-c", command], capture_output=True, env=env).stdout.decode()
                timings.append((time.perf_counter() - started) * 1000)
            results[line] = {"median_ms": statistics.median(timings), "stdout": stdout.replace(temp, "").strip()}
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--small", action="store_true", help="only the 100k-line sizes")
    parser.add_argument("--json", action="store_true", help="print only our medians as JSON (used for Pyodide)")
    options = parser.parse_args()
    small = options.small or options.json
    files, lines = world(small), command_lines(small)
    ours = asyncio.run(bench(files, lines, options.runs))
    if options.json:
        print(json.dumps({line: {"median_ms": r["median_ms"], "stdout": r["stdout"]} for line, r in ours.items()}))
        return
    for line, result in ours.items():
        if result["exit_code"] != 0:
            print(f"warning: {line!r} exited {result['exit_code']}: {result['stderr']}")
    print(f"files: 100k and 1M-line tables ({len(files['/data/t100k.txt']) / 1e6:.1f} / "
          f"{len(files.get('/data/t1m.txt', b'')) / 1e6:.1f} MB), a {len(files['/data/items.json']) / 1e6:.1f} MB "
          f"JSON array, 10,000 words, 10,000 .log files; median of {options.runs} runs")
    python = f"CPython {sys.version_info.major}.{sys.version_info.minor}"
    columns = {python: ours, "Pyodide": run_in_pyodide("bench/bench_commands.py", options.runs)}
    print(ratio_table(lines, columns, bench_gnu(files, lines, options.runs), width=58))


if __name__ == "__main__":
    main()
