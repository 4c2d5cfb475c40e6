"""Access to the recorded upstream behaviour in ../shared/parity (read at test time, never copied)."""
from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Any, Callable

import pytest

from onetool_wasm.vfs.paths import parent_of

from .helpers import FIRST_TICK, counter_clock

SNAPSHOTS = Path(os.environ.get(
    "ONETOOL_PARITY_DIR",
    Path(__file__).resolve().parents[1].parent / "shared" / "parity" / "one-tool-snapshots"))
UPSTREAM_COMMANDS = ("append calc cat cp diff echo fetch find grep head help json ls memory mkdir mv rm "
                     "search sed sort stat tail tr uniq wc write").split()


# Commands whose line-oriented output gains a final newline (docs/DIFFERENCES.md);
# replays compare their stdout modulo that one newline.
FINAL_NEWLINE_COMMANDS = frozenset({
    "grep", "sort", "uniq", "head", "tail", "sed", "cut", "ls", "find", "search", "memory", "json", "calc",
    "diff", "stat", "help", "wc", "tree"})


def same_modulo_final_newline(command: str, actual: bytes, expected: bytes) -> bool:
    return actual == expected or (command in FINAL_NEWLINE_COMMANDS and actual == expected + b"\n")


def added_commands() -> list[str]:
    """Built-ins we have beyond upstream's 26; replays of whole listings leave them out."""
    from onetool_wasm.commands import create_command_registry
    return [name for name in create_command_registry().names() if name not in UPSTREAM_COMMANDS]


def by_path(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """World entries in one order (upstream listed them in locale order, we walk in byte order)."""
    return sorted(entries, key=lambda entry: entry["path"])


def skip_unimplemented(names) -> None:
    """Skip the calling test while any of these upstream commands is not built in yet."""
    from onetool_wasm.commands import create_command_registry
    registry = create_command_registry()
    missing = sorted(name for name in set(names) if not registry.has(name))
    if missing:
        pytest.skip(f"not implemented yet: {', '.join(missing)}")


def require_corpus() -> Path:
    """The corpus folder, or skip the calling module with a printed reason."""
    if not SNAPSHOTS.is_dir():
        pytest.skip(f"parity corpus not found at {SNAPSHOTS} (set ONETOOL_PARITY_DIR)", allow_module_level=True)
    return SNAPSHOTS


def load_jsonl(relative: str) -> list[dict[str, Any]]:
    """The records of one JSON Lines file of the corpus (`utils/format.jsonl`)."""
    lines = (SNAPSHOTS / relative).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def load_json_files(folder: str) -> list[tuple[str, dict[str, Any]]]:
    root = SNAPSHOTS / folder
    if not root.is_dir():
        return []
    return [(str(path.relative_to(root).with_suffix("")), json.loads(path.read_text(encoding="utf-8")))
            for path in sorted(root.rglob("*.json"))]


def upstream_clock() -> Callable[[], int]:
    """Date.now() as the recorder saw it: 1700000000001, then +1 a call."""
    return counter_clock(FIRST_TICK)


def b64(text: str) -> bytes:
    return base64.b64decode(text)


async def snapshot_world(vfs: Any, memory: Any) -> dict[str, Any]:
    """The world in the recorded `worldAfter` shape: every path sorted, plus memory items."""
    entries: list[dict[str, Any]] = []

    async def walk(directory: str) -> None:
        for name in await vfs.listdir(directory):
            path = (directory.rstrip("/") + "/" + name.rstrip("/"))
            if name.endswith("/"):
                entries.append({"path": path, "kind": "dir"})
                await walk(path)
            else:
                data = await vfs.read_bytes(path)
                entries.append(_file_entry(path, data))

    await walk("/")
    entries.sort(key=lambda entry: entry["path"].encode("utf-8"))
    items = [{"id": item.id, "text": item.text, "createdEpochMs": item.created_epoch_ms, "metadata": {}}
             for item in sorted(memory.recent(10**9), key=lambda item: item.id)]
    return {"files": entries, "memory": items}


def _file_entry(path: str, data: bytes) -> dict[str, Any]:
    from onetool_wasm.textutil import looks_binary
    if looks_binary(data):
        return {"path": path, "kind": "bytes", "data_b64": base64.b64encode(data).decode("ascii")}
    return {"path": path, "kind": "text", "text": data.decode("utf-8")}


__all__ = ["SNAPSHOTS", "b64", "load_json_files", "load_jsonl", "parent_of", "require_corpus", "snapshot_world",
           "upstream_clock"]
