"""tools/boot_snapshot.py: the site's boot snapshot, its key and its build cache.

The maker itself (tools/make_boot_snapshot.mjs) runs Pyodide in Node on every build, and the
e2e suite restores what it made (e2e/test_snapshot.py); here what decides when it runs and
what the manifest is told, exactly."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tools import boot_snapshot
from tools.boot_snapshot import PYODIDE_FILES, snapshot_key, write_boot_snapshot

PRINTED = "snapshot 37748864 bytes (gzip 8941238) in /lib/python3.14/site-packages\n"


@pytest.fixture
def inputs(tmp_path, monkeypatch):
    pyodide = tmp_path / "pyodide"
    pyodide.mkdir()
    for name in PYODIDE_FILES:
        (pyodide / name).write_text(f"the {name}")
    pack = tmp_path / "site-packages.bin"
    pack.write_bytes(b"a pack")
    monkeypatch.setattr(boot_snapshot, "node_version", lambda: "v20.20.2")
    return pyodide, pack


@pytest.fixture
def runs(monkeypatch):
    """The maker's runs, each writing `snapshot of <key>` where it was asked to."""
    made = []

    def fake_run(command, capture_output, text):
        key, out = command[-2], Path(command[-1])
        out.write_text(f"snapshot of {key}")
        made.append(key)
        return subprocess.CompletedProcess(command, 0, PRINTED, "")

    monkeypatch.setattr(boot_snapshot.subprocess, "run", fake_run)
    return made


def test_the_key_names_every_input(inputs, monkeypatch):
    pyodide, pack = inputs
    first = snapshot_key(pyodide, pack)
    assert first == snapshot_key(pyodide, pack) and len(first) == 32
    keys = {first}
    for name in PYODIDE_FILES:
        (pyodide / name).write_text("changed")
        keys.add(snapshot_key(pyodide, pack))
    pack.write_bytes(b"another pack")
    keys.add(snapshot_key(pyodide, pack))
    monkeypatch.setattr(boot_snapshot, "node_version", lambda: "v22.0.0")
    keys.add(snapshot_key(pyodide, pack))
    assert len(keys) == len(PYODIDE_FILES) + 3


def test_it_is_made_once_per_key_and_the_manifest_learns_its_facts(inputs, runs, tmp_path):
    pyodide, pack = inputs
    cache = tmp_path / "cache"
    out = tmp_path / "site" / "boot" / "snapshot.bin"
    key = snapshot_key(pyodide, pack)
    made = write_boot_snapshot(pyodide, pack, out, cache)
    assert made == {"key": key, "bytes": len(f"snapshot of {key}"), "memoryBytes": 37748864,
                    "sitePackages": "/lib/python3.14/site-packages"}
    assert out.read_text() == f"snapshot of {key}"
    assert write_boot_snapshot(pyodide, pack, out, cache) == made and runs == [key]  # from the cache

    pack.write_bytes(b"a new pack")  # a new wheel: a new snapshot, the old one leaves the cache
    new = write_boot_snapshot(pyodide, pack, out, cache)
    assert runs == [key, new["key"]] and new["key"] != key
    assert sorted(p.name for p in cache.iterdir()) == [f"boot-snapshot-{new['key']}.bin", f"boot-snapshot-{new['key']}.json"]


@pytest.mark.parametrize("code, printed", [(1, ""), (0, "something else\n")])
def test_a_failed_maker_stops_the_build_and_says_what_it_printed(inputs, tmp_path, monkeypatch, code, printed):
    pyodide, pack = inputs
    monkeypatch.setattr(boot_snapshot.subprocess, "run",
                        lambda command, capture_output, text: subprocess.CompletedProcess(command, code, printed, "boom"))
    with pytest.raises(SystemExit, match=rf"boot snapshot: making it failed \({code}\):\n{printed}\nboom"):
        write_boot_snapshot(pyodide, pack, tmp_path / "snapshot.bin", tmp_path / "cache")
    assert not (tmp_path / "snapshot.bin").exists()
