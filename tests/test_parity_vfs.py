"""Replay upstream's recorded VFS behaviour: path utilities, and MemoryVFS operation
sequences against MemoryVFS (times included, with upstream's counter clock) and against
DirectoryVFS on a temporary directory (times aside: they come from the file system)."""
from __future__ import annotations

import asyncio
import base64
from pathlib import Path
from typing import Any

import pytest

from onetool_wasm.vfs import (DirectoryVFS, MemoryVFS, VFSError, base_name, is_strict_descendant_path,
                              normalize_path, parent_of)

from .corpus import load_jsonl, require_corpus, upstream_clock

require_corpus()  # skips this module, with the reason, when the corpus is absent
PATH_RECORDS = load_jsonl("vfs/path-utils.jsonl")
VFS_RECORDS = load_jsonl("vfs/memory-vfs.jsonl")


@pytest.mark.parametrize("record", PATH_RECORDS,
                         ids=[f"{r['kind']}:{r.get('input', r.get('candidate'))}" for r in PATH_RECORDS])
def test_path_utils(record: dict[str, Any]) -> None:
    kind = record["kind"]
    if kind == "normalize":
        assert normalize_path(record["input"]) == record["output"]
    elif kind == "parentOf":
        assert parent_of(record["input"]) == record["output"]
    elif kind == "baseName":
        assert base_name(record["input"]) == record["output"]
    elif kind == "isStrictDescendantPath":
        assert is_strict_descendant_path(record["ancestor"], record["candidate"]) is record["output"]
    else:
        pytest.fail(f"unknown path record kind: {kind}")


async def _perform(vfs: Any, step: dict[str, Any]) -> Any:
    op = step["op"]
    if op == "writeBytes":
        return await vfs.write_bytes(step["path"], base64.b64decode(step["data_b64"]))
    if op == "appendBytes":
        return await vfs.append_bytes(step["path"], base64.b64decode(step["data_b64"]))
    if op == "readBytes":
        return base64.b64encode(await vfs.read_bytes(step["path"])).decode("ascii")
    if op == "readText":
        return await vfs.read_text(step["path"])
    if op == "mkdir":
        return await vfs.mkdir(step["path"], step.get("parents", True))
    if op == "listdir":
        return await vfs.listdir(step["path"])
    if op == "exists":
        return await vfs.exists(step["path"])
    if op == "isDir":
        return await vfs.is_dir(step["path"])
    if op == "delete":
        return await vfs.delete(step["path"])
    if op in ("copy", "move"):
        src, dst = await getattr(vfs, op)(step["src"], step["dst"])
        return {"src": src, "dst": dst}
    if op == "stat":
        info = await vfs.stat(step["path"])
        return {"path": info.path, "exists": info.exists, "isDir": info.is_dir, "size": info.size,
                "mediaType": info.media_type, "modifiedEpochMs": info.modified_epoch_ms}
    raise AssertionError(f"unknown op {op}")


def _error_record(error: VFSError) -> dict[str, Any]:
    record: dict[str, Any] = {"code": error.code, "path": error.path}
    if error.target_path is not None:
        record["targetPath"] = error.target_path
    if error.details is not None:
        record["details"] = error.details
    record["message"] = str(error)
    return record


async def _replay(vfs: Any, record: dict[str, Any], compare_times: bool) -> None:
    for index, step in enumerate(record["steps"]):
        where = f"step {index} ({step['op']})"
        try:
            result = await _perform(vfs, step)
        except VFSError as error:
            assert "error" in step, f"{where}: unexpected {error!r}"
            assert _error_record(error) == step["error"], where
            continue
        assert "error" not in step, f"{where}: expected {step['error']}, got {result!r}"
        expected = step["result"]
        if not compare_times and isinstance(expected, dict) and "modifiedEpochMs" in expected:
            expected = {**expected, "modifiedEpochMs": result["modifiedEpochMs"]}
        assert result == expected, where


@pytest.mark.parametrize("record", VFS_RECORDS, ids=[r["id"] for r in VFS_RECORDS])
def test_memory_vfs_records(record: dict[str, Any]) -> None:
    vfs = MemoryVFS(resource_policy=record.get("resourcePolicy"), now_ms=upstream_clock())
    asyncio.run(_replay(vfs, record, compare_times=True))


@pytest.mark.parametrize("record", VFS_RECORDS, ids=[r["id"] for r in VFS_RECORDS])
def test_directory_vfs_records(record: dict[str, Any], tmp_path: Path) -> None:
    vfs = DirectoryVFS(tmp_path / "root", resource_policy=record.get("resourcePolicy"))
    asyncio.run(_replay(vfs, record, compare_times=False))
