"""Records the agent-line corpus from real GNU bash: tests/data/bash_corpus.txt in,
tests/data/bash_corpus.json out (replayed against our shell by tests/test_bash_corpus.py).

Every case runs in a fresh copy of the world (tests/data/bash_corpus_world.json) inside a
bubblewrap sandbox whose root filesystem IS a temporary folder: only /usr comes from the host
(read-only), so a script can write nothing outside its own copy and sees no host files.

    python tools/record_bash_corpus.py           # record, write the JSON, print a summary
    python tools/record_bash_corpus.py --check   # record again to a temp file, report drift

Corpus format: a line `### <id>` opens a case; an optional `# tags: a b` line follows; the
rest, up to the next `### ` line, is the script (trailing blank lines dropped, no final
newline), given to `bash -c` exactly as written.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
CORPUS = DATA / "bash_corpus.txt"
WORLD = DATA / "bash_corpus_world.json"
RECORDING = DATA / "bash_corpus.json"
TIMEOUT_SECONDS = 10

HEADER = re.compile(r"^### (\S+)$")
TAGS = re.compile(r"^# tags:(.*)$")

# After `--bind TMP /`: the host's /usr read-only, nothing else shared, a clean environment.
SANDBOX_OPTIONS = ["--ro-bind", "/usr", "/usr",
                   "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
                   "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
                   "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--chdir", "/",
                   "env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/", "bash", "-c"]


@dataclass(frozen=True)
class Case:
    id: str
    tags: tuple[str, ...]
    script: str


def parse_corpus(text: str) -> list[Case]:
    """The cases of a corpus file, in file order; raises ValueError on a malformed file."""
    cases: list[Case] = []
    current: list[str] | None = None
    case_id = ""
    for number, line in enumerate(text.splitlines(), 1):
        header = HEADER.match(line)
        if header:
            if current is not None:
                cases.append(_make_case(case_id, current))
            case_id, current = header.group(1), []
        elif current is None:
            if line.strip():
                raise ValueError(f"line {number}: text before the first `### <id>` header")
        else:
            current.append(line)
    if current is not None:
        cases.append(_make_case(case_id, current))
    duplicates = sorted(case_id for case_id, count in Counter(case.id for case in cases).items() if count > 1)
    if duplicates:
        raise ValueError(f"duplicate case ids: {', '.join(duplicates)}")
    return cases


def _make_case(case_id: str, lines: list[str]) -> Case:
    tags: tuple[str, ...] = ()
    tag_line = TAGS.match(lines[0]) if lines else None
    if tag_line:
        tags = tuple(tag_line.group(1).split())
        lines = lines[1:]
    script = "\n".join(lines).rstrip("\n")
    if not script.strip():
        raise ValueError(f"case {case_id} has no script")
    return Case(case_id, tags, script)


def build_world(root: Path, world: dict[str, Any]) -> None:
    """Create the world's folders and files under `root` (world paths are absolute)."""
    for folder in world.get("dirs", []):
        (root / folder.lstrip("/")).mkdir(parents=True, exist_ok=True)
    for path, text in world["files"].items():
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))


def record_case(case: Case, world: dict[str, Any]) -> dict[str, Any]:
    """Run one case in a fresh sandboxed world and return its record."""
    root = Path(tempfile.mkdtemp(prefix="bash-corpus-"))
    try:
        build_world(root, world)
        argv = ["bwrap", "--bind", str(root), "/", *SANDBOX_OPTIONS, case.script]
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_SECONDS)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return {"id": case.id, "tags": list(case.tags), "script": case.script,
            "stdout": done.stdout.decode("utf-8"), "stderr_nonempty": bool(done.stderr),
            "exit_code": done.returncode}


def record_all(cases: list[Case], world: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """Records of every case that ran, and a problem line for each that could not be recorded."""
    records, problems = [], []
    for case in cases:
        try:
            records.append(record_case(case, world))
        except subprocess.TimeoutExpired:
            problems.append(f"{case.id}: timed out after {TIMEOUT_SECONDS} s")
        except UnicodeDecodeError:
            problems.append(f"{case.id}: stdout is not UTF-8 text")
    return records, problems


def write_records(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def summary(records: list[dict[str, Any]]) -> str:
    """Counts by exit code and tag, for a quick look after recording."""
    codes = Counter(record["exit_code"] for record in records)
    tags = Counter(tag for record in records for tag in record["tags"])
    multi_line = sum("\n" in record["script"] for record in records)
    lines = [f"{len(records)} cases ({multi_line} multi-line), "
             f"{sum(r['stderr_nonempty'] for r in records)} with stderr",
             "exit codes: " + ", ".join(f"{code}x{count}" for code, count in sorted(codes.items())),
             "tags: " + ", ".join(f"{tag}:{count}" for tag, count in sorted(tags.items()))]
    return "\n".join(lines)


def differences(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[str]:
    """Ids whose record differs between two recordings (or that only one of them has)."""
    before = {record["id"]: record for record in old}
    after = {record["id"]: record for record in new}
    return [case_id for case_id in dict.fromkeys([*before, *after]) if before.get(case_id) != after.get(case_id)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="re-record into a temp file and report cases that differ from the stored recording")
    options = parser.parse_args(argv)
    if shutil.which("bwrap") is None:
        print("bwrap (bubblewrap) is required", file=sys.stderr)
        return 2
    cases = parse_corpus(CORPUS.read_text(encoding="utf-8"))
    world = json.loads(WORLD.read_text(encoding="utf-8"))
    records, problems = record_all(cases, world)
    for problem in problems:
        print(f"PROBLEM {problem}", file=sys.stderr)
    if options.check:
        return _check(records, problems)
    if problems:
        print("not written: fix the cases above first", file=sys.stderr)
        return 1
    write_records(RECORDING, records)
    print(summary(records))
    print(f"written: {RECORDING}")
    return 0


def _check(records: list[dict[str, Any]], problems: list[str]) -> int:
    with tempfile.TemporaryDirectory() as folder:
        fresh = Path(folder) / "bash_corpus.json"
        write_records(fresh, records)
        stored = json.loads(RECORDING.read_text(encoding="utf-8")) if RECORDING.exists() else []
        changed = differences(stored, json.loads(fresh.read_text(encoding="utf-8")))
    for case_id in changed:
        print(f"DIFFERS {case_id}")
    print(f"{len(records)} cases re-recorded, {len(changed)} differ from {RECORDING.name}")
    return 1 if changed or problems else 0


if __name__ == "__main__":
    sys.exit(main())
