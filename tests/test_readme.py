"""README.md's examples run as written: the tour's outputs are exactly what `run` prints over
the demo world (durations zeroed), the truncation example is real, and the command table is
the registry's. The Python and shell blocks run in tests/test_docs_examples.py.

`ONETOOL_UPDATE_README=1 python -m pytest tests/test_readme.py` rewrites the tour's outputs
from a real run (then read the diff before committing it).
"""
from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

from onetool_wasm.testing import build_world, demo_world

from .helpers import zero_duration

README = Path(__file__).resolve().parents[1] / "README.md"
FENCE = re.compile(r"```(\w*)\n(.*?)```", re.DOTALL)
PROMPT = "$ run '"


def blocks(kind: str) -> list[tuple[int, int, str]]:
    """(start, end, body) of each fenced block of this kind."""
    text = README.read_text(encoding="utf-8")
    return [(m.start(2), m.end(2), m.group(2)) for m in FENCE.finditer(text) if m.group(1) == kind]


def tour_entries(body: str) -> list[tuple[str, str]]:
    """(command line, shown output) pairs of a `$ run '...'` block. The line is single-quoted
    as in a shell (`'\\''` is a quote) and may span lines; its output runs up to the blank
    line before the next prompt."""
    entries = []
    position = 0
    while (start := body.find(PROMPT, position)) >= 0:
        cursor, line = start + len(PROMPT), []
        while True:
            end = body.index("'", cursor)
            line.append(body[cursor:end])
            if body.startswith("'\\''", end):
                line.append("'")
                cursor = end + 4
                continue
            break
        output_start = body.index("\n", end) + 1
        following = body.find("\n" + PROMPT, output_start)
        output_end = len(body) if following < 0 else following
        entries.append(("".join(line), body[output_start:output_end].rstrip("\n")))
        position = output_end
    return entries


def tour_blocks() -> list[tuple[int, int, str]]:
    return [block for block in blocks("text") if block[2].startswith(PROMPT)]


async def run_tour(lines: list[str]) -> list[str]:
    runtime = await build_world(demo_world())
    return [zero_duration(await runtime.run(line)) for line in lines]


def test_the_tour_shows_real_output():
    found = tour_blocks()
    assert found, "README.md has no tour"
    mismatches = []
    text = README.read_text(encoding="utf-8")
    for start, end, body in reversed(found):
        entries = tour_entries(body)
        outputs = asyncio.run(run_tour([line for line, _ in entries]))
        if os.environ.get("ONETOOL_UPDATE_README"):
            rendered = "\n\n".join(f"{PROMPT}{line.replace(chr(39), chr(39) + chr(92) + chr(39) + chr(39))}'\n{out}"
                                   for (line, _), out in zip(entries, outputs))
            text = text[:start] + rendered + "\n" + text[end:]
            continue
        mismatches += [(line, shown, out) for (line, shown), out in zip(entries, outputs) if shown != out]
    if os.environ.get("ONETOOL_UPDATE_README"):
        README.write_text(text, encoding="utf-8")
    assert not mismatches, "\n\n".join(f"$ run {line!r}\nREADME:\n{shown}\nreal:\n{out}"
                                       for line, shown, out in mismatches)


def test_the_truncation_example_is_real():
    [shown] = [body for _, _, body in blocks("text") if body.startswith("--- output truncated")]
    [output] = asyncio.run(run_tour(['seq 1 300 | sed "s/^/line /"']))
    assert output.endswith(shown + "\n[exit:0 | 0ms]")
    assert output.startswith("line 1\nline 2\n")


def command_table() -> str:
    """The README's command table, as the registry has it (group order, C-locale names)."""
    from onetool_wasm.commands.selection import GROUP_NAMES, builtin_groups
    groups = builtin_groups()
    rows = ["| group | commands |", "|---|---|"]
    for name in GROUP_NAMES:
        names = sorted((spec.name for spec in groups[name].commands), key=lambda n: n.encode())
        rows.append(f"| {name} | {', '.join(f'`{n}`' for n in names)} |")
    return "\n".join(rows) + "\n"


def test_the_command_table_is_the_registry():
    text = README.read_text(encoding="utf-8")
    start = text.index("| group | commands |")
    end = text.index("\n\n", start) + 1
    if os.environ.get("ONETOOL_UPDATE_README"):
        README.write_text(text[:start] + command_table() + text[end:], encoding="utf-8")
        return
    assert text[start:end] == command_table()
