"""Pathological regular expressions (catastrophic backtracking) and two ordinary ones.

    python bench/bench_regex.py [--runs N] [--limit SECONDS]

Per row: the pattern, the input, the median wall time of `grep -c PATTERN FILE` through our
runtime, its outcome (the count, or the error), and GNU grep's time on the same file
(LC_ALL=C, in a temp dir; process start-up included). The core, `await bench()`, uses only
the standard library and onetool_wasm, so it also runs inside Pyodide.

Before the linear engines (same machine, CPython 3.11, grep -c through the runtime):
`a.*a.*a.*a.*b` on 300 B of `a` took 35.9 s and on 500 B over 60 s; `.*.*=.*` on 10 KB and
`[a-z]*[a-z]*[a-z]*!` on 2 KB ran for minutes. Ordinary patterns on the 100,000-line log
(bench_text's log plus a `N event` line every tenth line): `grep -c ERROR` 20.4 ms,
`grep -cE '^[0-9]+ [a-z]+$'` 74.9 ms, `grep ERROR | wc -l` 87.6 ms,
`grep -E '^[0-9]+ [a-z]+$' | wc -l` 197.0 ms. Those stay on `re` (see posix.py's rules).
After (same machine, shared and busier): every pathological row ends in milliseconds
(1 MB of `a` against `a.*a.*a.*a.*b`: 73 ms, the DFA; the others are cut short by the
literal prefilter or run the DFA on short lines); `ERROR` 28 ms, `^[0-9]+ [a-z]+$` 35 ms
(the same `re` path as before: the differences are the machine's load).
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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import run_in_pyodide  # noqa: E402
from bench.bench_text import make_log  # noqa: E402
from onetool_wasm import MemoryVFS, create_agent_cli  # noqa: E402

KB, MB = 1000, 1_000_000


def _line(byte: bytes, size: int) -> bytes:
    return byte * size + b"\n"


def ordinary_log() -> bytes:
    lines = make_log().split(b"\n")[:-1]
    out: list[bytes] = []
    for index, line in enumerate(lines):
        out.append(line)
        if index % 10 == 0:
            out.append(b"%d event" % index)
    return b"\n".join(out[:100_000]) + b"\n"


# (label, grep flags, pattern, input name, input maker)
CASES: tuple[tuple[str, str, str, str, Any], ...] = (
    ("a.*a.*a.*a.*b", "", "a.*a.*a.*a.*b", "300 B of a", lambda: _line(b"a", 300)),
    ("a.*a.*a.*a.*b", "", "a.*a.*a.*a.*b", "10 KB of a", lambda: _line(b"a", 10 * KB)),
    ("a.*a.*a.*a.*b", "", "a.*a.*a.*a.*b", "1 MB of a", lambda: _line(b"a", MB)),
    (".*.*=.*", "-E", ".*.*=.*", "10 KB line", lambda: _line(b"x", 10 * KB)),
    (".*.*=.*", "-E", ".*.*=.*", "1 MB line", lambda: _line(b"x", MB)),
    ("[a-z]*[a-z]*[a-z]*!", "-E", "[a-z]*[a-z]*[a-z]*!", "2 KB of a", lambda: _line(b"a", 2 * KB)),
    ("[a-z]*[a-z]*[a-z]*!", "-E", "[a-z]*[a-z]*[a-z]*!", "1 MB of a", lambda: _line(b"a", MB)),
    ("(a|aa)*c (ERE)", "-E", "(a|aa)*c", "30 B of a", lambda: _line(b"a", 30)),
    ("(a|aa)*c (ERE)", "-E", "(a|aa)*c", "10 KB of a", lambda: _line(b"a", 10 * KB)),
    ("\\(a*\\)*b (BRE)", "", "\\(a*\\)*b", "10 KB of a", lambda: _line(b"a", 10 * KB)),
    ("(x+x+)+y", "-E", "(x+x+)+y", "5 KB of x", lambda: _line(b"x", 5 * KB)),
    ("ERROR", "", "ERROR", "100k-line log", ordinary_log),
    ("^[0-9]+ [a-z]+$", "-E", "^[0-9]+ [a-z]+$", "100k-line log", ordinary_log),
)


def _argv(flags: str, pattern: str, path: str) -> list[str]:
    return ["grep", "-c", *([flags] if flags else []), pattern, path]


def _quote(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


async def bench(runs: int = 3) -> dict[str, dict[str, Any]]:
    """{row key: {median_ms, outcome}} through our runtime."""
    results: dict[str, dict[str, Any]] = {}
    for label, flags, pattern, name, make in CASES:
        vfs = MemoryVFS()
        await vfs.write_bytes("/in.txt", make())
        runtime = await create_agent_cli(vfs=vfs)
        line = " ".join(_quote(word) for word in _argv(flags, pattern, "/in.txt"))
        timings, outcome = [], ""
        for _ in range(runs):
            started = time.perf_counter()
            execution = await runtime.run_detailed(line)
            timings.append((time.perf_counter() - started) * 1000)
            outcome = execution.stdout.decode().strip() or execution.stderr.strip()[:40]
        results[f"{label} | {name}"] = {"median_ms": statistics.median(timings), "outcome": outcome}
    return results


def bench_gnu(runs: int = 3, limit: float = 60.0) -> dict[str, dict[str, Any]] | None:
    """GNU grep on the same inputs (LC_ALL=C, a temp dir); None without it."""
    if sys.platform == "emscripten" or shutil.which("grep") is None:
        return None
    results: dict[str, dict[str, Any]] = {}
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
    with tempfile.TemporaryDirectory() as temp:
        for label, flags, pattern, name, make in CASES:
            path = Path(temp) / "in.txt"
            path.write_bytes(make())
            timings, outcome = [], ""
            for _ in range(runs):
                started = time.perf_counter()
                try:
                    done = subprocess.run(_argv(flags, pattern, str(path)), capture_output=True, env=env,
                                          cwd=temp, timeout=limit)
                    outcome = done.stdout.decode().strip()
                except subprocess.TimeoutExpired:
                    outcome = f"> {limit:g} s"
                timings.append((time.perf_counter() - started) * 1000)
            results[f"{label} | {name}"] = {"median_ms": statistics.median(timings), "outcome": outcome}
    return results


def table(ours: dict[str, dict[str, Any]], pyodide: dict | None, gnu: dict | None) -> str:
    header = f"{'pattern':24}{'input':16}{'ours ms':>10}{'Pyodide ms':>12}  {'outcome':10}{'GNU ms':>9}  GNU outcome"
    rows = [header, "-" * len(header)]
    for key, result in ours.items():
        label, name = key.split(" | ")
        theirs = (gnu or {}).get(key)
        there = (pyodide or {}).get(key)
        rows.append(f"{label:24}{name:16}{result['median_ms']:10.1f}"
                    f"{there['median_ms'] if there else float('nan'):12.1f}  {result['outcome']:10}"
                    + (f"{theirs['median_ms']:9.1f}  {theirs['outcome']}" if theirs else f"{'n/a':>9}"))
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=float, default=60.0, help="GNU grep's time limit per run")
    parser.add_argument("--json", action="store_true", help="print only our medians as JSON (used for Pyodide)")
    options = parser.parse_args()
    ours = asyncio.run(bench(options.runs))
    if options.json:
        print(json.dumps(ours))
        return
    pyodide = run_in_pyodide("bench/bench_regex.py", options.runs)
    print(f"grep -c PATTERN FILE, median of {options.runs} runs; CPython {sys.version_info.major}."
          f"{sys.version_info.minor}")
    print(table(ours, pyodide, bench_gnu(options.runs, options.limit)))


if __name__ == "__main__":
    main()
