"""What the benchmarks share: the same script inside Pyodide under Node, and the table of
medians with ratios against GNU. (A leading underscore: `build.py bench` runs the others.)"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
Results = dict[str, dict[str, Any]]


def run_in_pyodide(script: str, runs: int) -> Results | None:
    """`script --json --runs N` inside Pyodide (tests/pyodide/run.mjs --script): its medians,
    or None when Node or the Pyodide test runtime (built by `build.py test`) is missing."""
    runner = ROOT / "tests" / "pyodide" / "run.mjs"
    if sys.platform == "emscripten" or shutil.which("node") is None or not (ROOT / "dist" / "pyodide-test").is_dir():
        return None
    command = ["node", "--experimental-wasm-stack-switching", str(runner), "--script", script,
               "--json", "--runs", str(runs)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if done.returncode == 0 and lines else None


def ratio_table(lines: tuple[str, ...], columns: dict[str, Results | None], gnu: Results | None,
                width: int = 40) -> str:
    """One row a command line: each runtime's median, GNU's, each ratio to GNU, and whether
    every runtime printed what GNU printed (a runtime that did not run a line shows n/a)."""
    present = {label: results for label, results in columns.items() if results}
    header = f"{'command line':{width}}" + "".join(f"{label + ' ms':>16}" for label in present) + \
        f"{'GNU ms':>9}" + "".join(f"{label + '/GNU':>20}" for label in present) + "  same output"
    rows = [header, "-" * len(header)]
    for line in lines:
        theirs = (gnu or {}).get(line)
        shown = line if len(line) < width else line[:width - 4] + "..."
        mine = [results[line] for results in present.values() if line in results]
        cells = [f"{shown:{width}}"] + [f"{results[line]['median_ms']:16.1f}" if line in results else f"{'n/a':>16}"
                                        for results in present.values()]
        cells.append(f"{theirs['median_ms']:9.1f}" if theirs else f"{'n/a':>9}")
        cells += [f"{results[line]['median_ms'] / theirs['median_ms']:19.1f}x" if theirs and line in results
                  else f"{'n/a':>20}" for results in present.values()]
        same = all(theirs and result["stdout"] == theirs["stdout"] for result in mine)
        rows.append("".join(cells) + ("  yes" if same else "  n/a" if not theirs else "  NO"))
    return "\n".join(rows)
