"""DirectoryVFS against a hostile host: a directory swapped for a link to an outside folder
while commands run, hard links and FIFOs inside the root, names that are not UTF-8."""
from __future__ import annotations

import asyncio
import os
import stat as stat_mode
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from onetool_wasm import create_agent_cli
from onetool_wasm.vfs import DirectoryVFS, VFSError
from onetool_wasm.vfs.directory import RACE_SAFE

from .helpers import IN_PYODIDE

pytestmark = pytest.mark.skipif(IN_PYODIDE or os.name != "posix" or not RACE_SAFE,
                                reason="needs POSIX dir_fd/O_NOFOLLOW and a host process")

SECRET = b"OUTSIDE-SECRET\n"

# The host: swaps root/d for a link to the outside folder and back, as fast as it can,
# in its own process (real parallelism), until the stop file appears.
_SWAPPER = r"""
import os, shutil, sys
root, outside, stop = sys.argv[1:4]
d, aside = os.path.join(root, "d"), os.path.join(root, "d.aside")
swaps = 0
while not os.path.exists(stop):
    try:
        os.rename(d, aside)
    except OSError:
        pass
    try:
        os.symlink(outside, d)
        swaps += 1
    except OSError:
        pass
    try:
        if os.path.islink(d):
            os.unlink(d)
    except OSError:
        pass
    try:
        os.rename(aside, d)
    except OSError:
        if os.path.isdir(aside) and not os.path.islink(d) and os.path.isdir(d):
            shutil.rmtree(d, ignore_errors=True)  # the runtime made a new d meanwhile
print(swaps)
"""


def _files_under(top: Path) -> dict[str, bytes]:
    found = {}
    for dirpath, _, names in os.walk(top):
        for name in names:
            path = Path(dirpath) / name
            if not path.is_symlink():
                found[str(path.relative_to(top))] = path.read_bytes()
    return found


def _temporaries(top: Path) -> list[str]:
    return [name for _, _, names in os.walk(top) for name in names if name.startswith(".onetool-")]


def test_swapping_a_directory_for_a_link_never_reaches_outside(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "d").mkdir(parents=True)
    (root / "d" / "f").write_bytes(b"inside\n")
    outside.mkdir()
    for name in ("f", "w.txt", "r.txt", "a.txt", "b.txt"):
        (outside / name).write_bytes(SECRET)
    before = _files_under(outside)
    stop = tmp_path / "stop"
    host = subprocess.Popen([sys.executable, "-c", _SWAPPER, str(root), str(outside), str(stop)],
                            stdout=subprocess.PIPE, text=True)
    vfs = DirectoryVFS(root)
    counts = {"runs": 0, "vfs_ops": 0, "inside_reads": 0, "refused": 0}

    async def go() -> list[str]:
        runtime = await create_agent_cli(vfs=vfs)
        outputs = []
        started = time.monotonic()
        line = ("cat /d/f; write /d/w.txt hello; echo x > /d/r.txt; append /d/a.txt z; "
                "echo y >> /d/b.txt; echo z | tee -a /d/a.txt; ls /d")
        while time.monotonic() - started < 5:
            outputs.append(await runtime.run(line))
            counts["runs"] += 1
        started = time.monotonic()
        while time.monotonic() - started < 5:  # the VFS alone: many more operations a second
            for call in (vfs.read_bytes("/d/f"), vfs.write_bytes("/d/w.txt", b"w"),
                         vfs.append_bytes("/d/a.txt", b"a"), vfs.listdir("/d")):
                counts["vfs_ops"] += 1
                try:
                    result = await call
                except VFSError:
                    counts["refused"] += 1
                    continue
                if result == b"inside\n":
                    counts["inside_reads"] += 1
                if isinstance(result, bytes):
                    outputs.append(result.decode("utf-8", "replace"))
                elif isinstance(result, list):
                    outputs.append(" ".join(result))
        return outputs

    started = time.monotonic()
    try:
        outputs = asyncio.run(go())
    finally:
        stop.touch()
        swaps = int(host.communicate(timeout=20)[0].strip() or 0)
    elapsed = time.monotonic() - started
    print(f"race: {counts['runs']} command lines (7 commands each), {counts['vfs_ops']} VFS calls "
          f"({counts['inside_reads']} inside reads, {counts['refused']} refused), {swaps} swaps, {elapsed:.1f}s")
    assert elapsed <= 20
    assert swaps > 100 and counts["runs"] > 50 and counts["vfs_ops"] > 2000
    assert counts["inside_reads"] > 0 and counts["refused"] > 0  # both sides of the race were seen
    assert not [out for out in outputs if "OUTSIDE-SECRET" in out]
    assert not [out for out in outputs if "internal runtime error" in out]
    assert _files_under(outside) == before  # nothing created or changed outside
    assert _temporaries(tmp_path) == []


def _run(root: Path, line: str, timeout: float = 10.0) -> str:
    """One command line on a fresh runtime over `root`, in a thread: a blocked open fails the test."""
    box: dict[str, str] = {}

    async def go() -> None:
        runtime = await create_agent_cli(vfs=DirectoryVFS(root))
        box["out"] = await runtime.run(line)
    worker = threading.Thread(target=lambda: asyncio.run(go()), daemon=True)
    worker.start()
    worker.join(timeout)
    assert not worker.is_alive(), f"blocked: {line}"
    return box["out"]


def test_a_hard_link_to_an_outside_file_is_never_written_through(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret").write_bytes(SECRET)
    os.chmod(outside / "secret", 0o640)
    os.utime(outside / "secret", ns=(1_500_000_000_000_000_000,) * 2)
    try:
        os.link(outside / "secret", root / "hl")
    except OSError as error:
        pytest.skip(f"no hard links here: {error}")
    out = _run(root, "append /hl more; echo tee | tee -a /hl; echo redir >> /hl; cat /hl")
    assert "exit:0" in out
    assert (outside / "secret").read_bytes() == SECRET
    assert (root / "hl").read_bytes() == SECRET + b"more" + b"tee\nredir\n"
    assert os.stat(root / "hl").st_nlink == 1
    assert stat_mode.S_IMODE(os.stat(root / "hl").st_mode) == 0o640  # the copy keeps the bits
    # chmod and touch -d of a linked file change a private copy, not the shared inode.
    os.unlink(root / "hl")
    os.link(outside / "secret", root / "hl")
    out = _run(root, "chmod 600 /hl; touch -d 2020-01-01 /hl; stat -c '%a %Y' /hl")
    assert "600 1577836800" in out
    info = os.stat(outside / "secret")
    assert (stat_mode.S_IMODE(info.st_mode), info.st_mtime_ns, info.st_nlink) == \
        (0o640, 1_500_000_000_000_000_000, 1)
    assert (outside / "secret").read_bytes() == SECRET
    assert _temporaries(tmp_path) == []


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    try:
        os.mkfifo(root / "p")
    except (OSError, AttributeError) as error:
        pytest.skip(f"cannot create a FIFO: {error}")
    for line in ("append /p x", "echo x | tee -a /p", "echo x >> /p", "cat /p", "write /p x",
                 "echo x > /p", "cp /p /q", "touch -d 2020-01-01 /p"):
        started = time.monotonic()
        out = _run(root, line, timeout=5)
        assert time.monotonic() - started < 5
        # Refused: an error status, or (`>>`, whose bytes are appended when the command ends)
        # the shell's error line.
        assert "exit:0" not in out or "EINVAL" in out or "regular file" in out, (line, out)
        assert "internal runtime error" not in out, (line, out)
    assert stat_mode.S_ISFIFO(os.lstat(root / "p").st_mode)  # still the host's FIFO
    assert sorted(os.listdir(root)) == ["p"] or ".system" in os.listdir(root)
    assert _temporaries(tmp_path) == []
    # With a reader waiting, opening succeeds at once, and the fstat check refuses it.
    reader = os.open(root / "p", os.O_RDONLY | os.O_NONBLOCK)
    try:
        out = _run(root, "append /p x", timeout=5)
        assert "exit:0" not in out
        assert os.read(reader, 10) == b""
    finally:
        os.close(reader)


def test_names_that_are_not_utf8_are_shown_escaped(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    raw = os.fsencode(root)
    fd = os.open(raw + b"/bad\xff\xfe.txt", os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(fd, b"needle here\n")
    os.close(fd)
    os.mkdir(raw + b"/dir\x80")
    fd = os.open(raw + b"/dir\x80/in\xe9.txt", os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(fd, b"needle deep\n")
    os.close(fd)
    shown = {"ls /": "bad\\xff\\xfe.txt", "ls -R /": "/dir\\x80:\nin\\xe9.txt",
             "find /": "/dir\\x80/in\\xe9.txt", "tree /": "in\\xe9.txt",
             "grep -r needle /": "/dir\\x80/in\\xe9.txt:needle deep",
             "rg needle /": "/bad\\xff\\xfe.txt", "du -a /": "/dir\\x80/in\\xe9.txt",
             "cat '/bad\\xff\\xfe.txt'": "needle here", "cat '/dir\\x80/in\\xe9.txt'": "needle deep"}
    for line, expected in shown.items():
        out = _run(root, line)
        assert "internal runtime error" not in out, (line, out)
        assert "exit:0" in out and expected in out, (line, out)
    out = _run(root, "cp '/bad\\xff\\xfe.txt' /copy.txt; rm '/bad\\xff\\xfe.txt'; cat /copy.txt")
    assert "needle here" in out and "exit:0" in out
    assert not os.path.exists(raw + b"/bad\xff\xfe.txt")
