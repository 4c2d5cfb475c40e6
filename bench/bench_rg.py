"""`rg` over a tree of 10,000 files (about 100 MB): our runtime against the real ripgrep and
GNU `grep -r` on the same files, in the same run.

    python bench/bench_rg.py [--runs N] [--files N]

Prints the median wall time of each search and the ratios. Without `rg` or `grep` on the
machine (or inside Pyodide) their columns say n/a.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from onetool_wasm import MemoryVFS, create_agent_cli  # noqa: E402

SEARCHES = ("rg -c ERROR", "rg -l def")
_WORDS = ("alpha", "beta", "return", "value", "class", "import", "print", "data", "ERROR", "INFO")


def make_tree(files: int, file_bytes: int, seed: int = 5) -> dict[str, bytes]:
    """`/repo/dNN/fNNNN.py`: lines of words; some lines hold `def` or `ERROR`."""
    rng = random.Random(seed)
    tree = {}
    for index in range(files):
        lines, size = [], 0
        while size < file_bytes:
            words = " ".join(rng.choice(_WORDS) for _ in range(8))
            line = f"def f{index}_{size}():\n" if rng.random() < 0.01 else words + "\n"
            lines.append(line)
            size += len(line)
        tree[f"/repo/d{index % 100:02d}/f{index:05d}.py"] = "".join(lines).encode()
    return tree


async def ours(tree: dict[str, bytes], runs: int) -> dict[str, tuple[float, bytes]]:
    vfs = MemoryVFS(resource_policy={"max_total_bytes": 1 << 30})
    for path, data in tree.items():
        await vfs.write_bytes(path, data)
    runtime = await create_agent_cli(vfs=vfs)
    results = {}
    for line in SEARCHES:
        timings, output = [], b""
        for _ in range(runs):
            started = time.perf_counter()
            execution = await runtime.run_detailed(f"cd /repo && {line} | sort | md5sum")
            timings.append((time.perf_counter() - started) * 1000)
            output = execution.stdout
        results[line] = (statistics.median(timings), output)
    return results


def real(tree: dict[str, bytes], runs: int) -> dict[str, dict[str, tuple[float, bytes]]]:
    """The same searches with ripgrep and with GNU grep -r (-c / -l) over a real directory."""
    tools = {"ripgrep": SEARCHES, "grep -r": ("grep -rc ERROR . | grep -v ':0$'", "grep -rl def .")}
    found: dict[str, dict[str, tuple[float, bytes]]] = {}
    if sys.platform == "emscripten":
        return found
    with tempfile.TemporaryDirectory() as temp:
        for path, data in tree.items():
            target = Path(temp) / path.lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
        for tool, lines in tools.items():
            if shutil.which(tool.split()[0].replace("ripgrep", "rg")) is None:
                continue
            found[tool] = {}
            for ours_line, line in zip(SEARCHES, lines):
                # grep -r prints ./d00/f.py; rg prints d00/f.py: normalise before comparing.
                command = f"cd {temp}/repo && {line} | sed 's|^\\./||' | sort | md5sum"
                timings, output = [], b""
                for _ in range(runs):
                    started = time.perf_counter()
                    output = subprocess.run(["bash", "-c", command], capture_output=True, env=env).stdout
                    timings.append((time.perf_counter() - started) * 1000)
                found[tool][ours_line] = (statistics.median(timings), output)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--files", type=int, default=10_000)
    options = parser.parse_args()
    tree = make_tree(options.files, 10_000)
    size = sum(len(data) for data in tree.values())
    print(f"rg: {len(tree):,} files, {size / 1e6:.0f} MB; median of {options.runs} runs "
          "(each search piped through sort | md5sum so outputs compare)")
    mine = asyncio.run(ours(tree, options.runs))
    theirs = real(tree, options.runs)
    header = f"{'search':14}{'ours ms':>10}" + "".join(f"{tool + ' ms':>16}{'ours/' + tool:>18}" for tool in theirs)
    print(header + "  same output")
    print("-" * (len(header) + 13))
    for line in SEARCHES:
        ms, output = mine[line]
        cells = f"{line:14}{ms:10.0f}"
        same = True
        for tool, results in theirs.items():
            their_ms, their_output = results[line]
            cells += f"{their_ms:16.0f}{ms / their_ms:17.1f}x"
            same = same and their_output == output
        print(cells + ("  yes" if same and theirs else "  n/a" if not theirs else "  NO"))


if __name__ == "__main__":
    main()
