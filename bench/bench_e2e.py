"""The browser suite's wall time (a benchmark, not a test): `pytest e2e` as build.py's e2e stage
runs it, timed, with the slowest tests.

    python bench/bench_e2e.py [--no-build]

Prints the stage's time next to its target (60 s) and the ten slowest test phases (setup,
call), which say where the time goes: boots of pages in fresh profiles, mostly. The suite runs
on the pytest plugin (docs/TESTING_PAGES.md): runtimes share one page and one worker, and new
browser contexts are seeded with the session's boot snapshot.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 60


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-build", action="store_true", help="use dist/site as it is")
    args = parser.parse_args(argv)
    if not args.no_build:
        subprocess.run([sys.executable, str(ROOT / "build.py"), "build"], cwd=ROOT, check=True)
    env = {**os.environ, "ONETOOL_E2E_BUILT": "1"}
    if "ONETOOL_CHROMIUM" not in env and Path("/usr/bin/chromium").exists():
        env["ONETOOL_CHROMIUM"] = "/usr/bin/chromium"
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", "e2e", "-q", "-p", "no:cacheprovider", "--durations=10"],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - started
    summary = [line for line in done.stdout.splitlines() if re.search(r"\d+ (passed|failed)", line)]
    slowest = re.findall(r"^([0-9.]+)s (setup|call|teardown)\s+(\S+)$", done.stdout, re.M)
    print("== e2e stage (pytest e2e, headless Chromium) ==")
    print(f"  wall time {seconds:7.1f} s   target <= {TARGET_SECONDS} s   ratio {seconds / TARGET_SECONDS:4.2f}x   "
          f"({summary[-1].strip('= ') if summary else 'no summary'})")
    for duration, phase, test in slowest:
        print(f"  {float(duration):6.1f} s  {phase:<8} {test}")
    if done.returncode != 0:
        print(done.stdout[-3000:], done.stderr[-2000:], sep="\n")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
