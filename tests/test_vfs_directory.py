"""DirectoryVFS only: a real directory whose root no path, `..` or symbolic link can leave."""
from __future__ import annotations

import os
import stat as stat_mode
from pathlib import Path

import pytest

from onetool_wasm.vfs import DirectoryVFS, normalize_path

from .helpers import arun as run, vfs_raises


def symlink_or_skip(target: Path, link: Path, is_dir: bool = False) -> None:
    try:
        os.symlink(target, link, target_is_directory=is_dir)
    except (OSError, NotImplementedError) as error:
        pytest.skip(f"symbolic links unavailable: {error}")


@pytest.fixture
def rooted(tmp_path: Path) -> tuple[DirectoryVFS, Path, Path]:
    root = tmp_path / "root"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_bytes(b"secret")
    return DirectoryVFS(root), root, outside


def test_directory_root_is_created_and_resolved(tmp_path: Path) -> None:
    vfs = DirectoryVFS(tmp_path / "new" / "root")
    assert Path(vfs.root) == (tmp_path / "new" / "root").resolve()
    assert run(vfs.listdir("/")) == []


def test_dotdot_and_absolute_paths_stay_inside(rooted: tuple[DirectoryVFS, Path, Path]) -> None:
    vfs, root, outside = rooted
    assert run(vfs.write_bytes("../../outside/secret.txt", b"mine")) == "/outside/secret.txt"
    assert (root / "outside" / "secret.txt").read_bytes() == b"mine"
    assert (outside / "secret.txt").read_bytes() == b"secret"
    absolute = str(outside / "abs.txt")
    assert run(vfs.write_bytes(absolute, b"x")) == normalize_path(absolute)
    assert not (outside / "abs.txt").exists()
    assert (root / absolute.lstrip("/")).read_bytes() == b"x"


def test_symlink_pointing_outside_is_refused(rooted: tuple[DirectoryVFS, Path, Path]) -> None:
    vfs, root, outside = rooted
    symlink_or_skip(outside, root / "link", is_dir=True)
    error = vfs_raises("EESCAPE", "/link", vfs.read_bytes("/link/secret.txt"))
    assert str(error) == "EESCAPE:/link"
    assert error.message == "path escapes workspace root: /link"
    vfs_raises("EESCAPE", "/link", vfs.write_bytes("/link/secret.txt", b"pwned"))
    vfs_raises("EESCAPE", "/link", vfs.append_bytes("/link/secret.txt", b"pwned"))
    vfs_raises("EESCAPE", "/link", vfs.write_bytes("/link/new.txt", b"pwned"))
    vfs_raises("EESCAPE", "/link", vfs.listdir("/link"))
    vfs_raises("EESCAPE", "/link", vfs.exists("/link"))
    vfs_raises("EESCAPE", "/link", vfs.stat("/link/secret.txt"))
    vfs_raises("EESCAPE", "/link", vfs.delete("/link"))
    vfs_raises("EESCAPE", "/link", vfs.copy("/link", "/copy"))
    vfs_raises("EESCAPE", "/link", vfs.move("/link", "/moved"))
    vfs_raises("EESCAPE", "/link", vfs.mkdir("/link/sub"))
    assert (outside / "secret.txt").read_bytes() == b"secret"
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
    assert run(vfs.listdir("/")) == []  # links are not part of the tree


def test_symlinks_inside_the_root_are_refused_too(rooted: tuple[DirectoryVFS, Path, Path]) -> None:
    vfs, root, _ = rooted
    run(vfs.write_bytes("/real/file.txt", b"inside"))
    symlink_or_skip(root / "real" / "file.txt", root / "alias.txt")
    symlink_or_skip(root / "real", root / "real-alias", is_dir=True)
    symlink_or_skip(root / "nowhere", root / "dangling")
    vfs_raises("EESCAPE", "/alias.txt", vfs.read_bytes("/alias.txt"))
    vfs_raises("EESCAPE", "/alias.txt", vfs.write_bytes("/alias.txt", b"x"))
    vfs_raises("EESCAPE", "/real-alias", vfs.read_bytes("/real-alias/file.txt"))
    vfs_raises("EESCAPE", "/dangling", vfs.write_bytes("/dangling", b"x"))
    vfs_raises("EESCAPE", "/dangling", vfs.write_bytes("/dangling/x", b"x"))
    assert not (root / "nowhere").exists()
    assert run(vfs.listdir("/")) == ["real/"]
    assert run(vfs.read_bytes("/real/file.txt")) == b"inside"


def test_tree_operations_leave_links_behind(rooted: tuple[DirectoryVFS, Path, Path]) -> None:
    vfs, root, outside = rooted
    run(vfs.write_bytes("/tree/keep.txt", b"k"))
    symlink_or_skip(outside, root / "tree" / "out", is_dir=True)
    run(vfs.copy("/tree", "/copy"))
    assert sorted(p.name for p in (root / "copy").iterdir()) == ["keep.txt"]
    run(vfs.delete("/tree"))  # removes the link itself, never what it points to
    assert (outside / "secret.txt").read_bytes() == b"secret"
    assert not (root / "tree").exists()


def test_policy_snapshot_ignores_links(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "big.bin").write_bytes(b"x" * 100)
    symlink_or_skip(tmp_path / "big.bin", root / "big-link")
    vfs = DirectoryVFS(root, resource_policy={"maxTotalBytes": 10})
    assert run(vfs.write_bytes("/small.txt", b"12345")) == "/small.txt"


def test_directory_policy_counts_existing_files(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "pre").mkdir(parents=True)
    (root / "pre" / "data.bin").write_bytes(b"x" * 8)
    vfs = DirectoryVFS(root, resource_policy={"maxTotalBytes": 10})
    error = vfs_raises("ERESOURCE_LIMIT", "/new.txt", vfs.write_bytes("/new.txt", b"abc"))
    details = error.details or {}
    assert (error.path, details["limitKind"], details["limit"], details["actual"]) == \
        ("/new.txt", "maxTotalBytes", 10, 11)


def test_nul_in_path_is_invalid(rooted: tuple[DirectoryVFS, Path, Path]) -> None:
    vfs, _, _ = rooted
    vfs_raises("EINVAL", "/a\0b", vfs.write_bytes("/a\0b", b""))


def test_directory_writes_replace_files_whole(rooted: tuple[DirectoryVFS, Path, Path]) -> None:
    vfs, root, _ = rooted
    run(vfs.write_bytes("/f.txt", b"first"))
    os.chmod(root / "f.txt", 0o640)
    run(vfs.write_bytes("/f.txt", b"second"))
    assert (root / "f.txt").read_bytes() == b"second"
    assert sorted(p.name for p in root.iterdir()) == ["f.txt"]  # no temporary file left
    if os.name == "posix":
        assert stat_mode.S_IMODE((root / "f.txt").stat().st_mode) == 0o640


def test_directory_times_come_from_the_file_system(rooted: tuple[DirectoryVFS, Path, Path]) -> None:
    vfs, root, _ = rooted
    run(vfs.write_bytes("/f.txt", b"x"))
    os.utime(root / "f.txt", ns=(1_600_000_000_123_456_789, 1_600_000_000_123_456_789))
    assert run(vfs.stat("/f.txt")).modified_epoch_ms == 1_600_000_000_123


def test_directory_skips_special_files(rooted: tuple[DirectoryVFS, Path, Path]) -> None:
    vfs, root, _ = rooted
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    try:
        os.mkfifo(root / "pipe")
    except OSError as error:
        pytest.skip(f"cannot create a FIFO: {error}")
    assert run(vfs.listdir("/")) == []
    assert run(vfs.exists("/pipe")) is False
