"""MountVFS: a file system mounted at a path prefix of another."""
from __future__ import annotations

import asyncio

import pytest

from onetool_wasm.runtime import create_agent_cli
from onetool_wasm.vfs import DirectoryVFS, MemoryVFS, VFSError
from onetool_wasm.vfs.mount import MountVFS


def run(coroutine):
    return asyncio.run(coroutine)


def make() -> tuple[MountVFS, MemoryVFS, MemoryVFS]:
    default, system = MemoryVFS(), MemoryVFS()
    return MountVFS(default, {"/.system": system}), default, system


def error_of(coroutine) -> VFSError:
    with pytest.raises(VFSError) as caught:
        run(coroutine)
    return caught.value


def test_paths_route_by_prefix_and_come_back_in_outer_form():
    vfs, default, system = make()
    assert run(vfs.write_bytes("/.system/cmd-output/a.txt", b"spilled")) == "/.system/cmd-output/a.txt"
    assert run(system.read_bytes("/cmd-output/a.txt")) == b"spilled"
    assert not run(default.exists("/.system"))
    assert run(vfs.write_bytes("/notes/x.txt", b"mine")) == "/notes/x.txt"
    assert run(default.read_bytes("/notes/x.txt")) == b"mine"
    assert not run(system.exists("/notes"))
    assert run(vfs.read_text("/.system/cmd-output/a.txt")) == "spilled"
    assert run(vfs.append_bytes("/.system/cmd-output/a.txt", b"!")) == "/.system/cmd-output/a.txt"
    assert run(vfs.read_bytes("/.system/../.system/cmd-output/./a.txt")) == b"spilled!"
    info = run(vfs.stat("/.system/cmd-output/a.txt"))
    assert (info.path, info.exists, info.is_dir, info.size) == ("/.system/cmd-output/a.txt", True, False, 8)
    assert run(vfs.stat("/.system")).is_dir and run(vfs.stat("/.system")).path == "/.system"
    assert run(vfs.mkdir("/.system/d/e")) == "/.system/d/e"
    assert run(system.is_dir("/d/e"))


def test_listdir_of_the_root_shows_the_mount_point():
    vfs, default, _ = make()
    assert run(vfs.listdir("/")) == [".system/"]
    run(vfs.write_bytes("/b.txt", b""))
    run(vfs.mkdir("/a"))
    assert run(vfs.listdir("/")) == [".system/", "a/", "b.txt"]
    assert run(vfs.listdir("/.system")) == []
    assert run(vfs.exists("/.system")) and run(vfs.is_dir("/.system"))
    # A file of the same name below is shadowed by the mount point.
    run(default.write_bytes("/.system", b"hidden"))
    assert run(vfs.listdir("/")) == [".system/", "a/", "b.txt"]


def test_errors_name_the_outer_path():
    vfs, _, _ = make()
    assert str(error_of(vfs.read_bytes("/.system/nope"))) == "ENOENT:/.system/nope"
    assert str(error_of(vfs.read_bytes("/.system"))) == "EISDIR:/.system"
    assert str(error_of(vfs.write_bytes("/.system", b"x"))) == "EISDIR:/.system"
    assert str(error_of(vfs.listdir("/.system/none"))) == "ENOENT:/.system/none"
    assert str(error_of(vfs.delete("/"))) == "EROOT:/"
    assert str(error_of(vfs.move("/.system", "/elsewhere"))) == "EINVAL:/.system"


def test_the_mount_point_is_a_fixed_directory():
    vfs, _, system = make()
    assert run(vfs.mkdir("/.system", parents=False)) == "/.system"
    run(vfs.write_bytes("/.system/cmd-output/a.txt", b"x"))
    assert run(vfs.delete("/.system")) == "/.system"
    assert run(vfs.listdir("/.system")) == [] and run(system.listdir("/")) == []
    assert run(vfs.exists("/.system"))


def test_copy_and_move_across_mounts():
    vfs, default, system = make()
    run(vfs.write_bytes("/.system/cmd-output/cmd-0001.txt", b"long output"))
    assert run(vfs.copy("/.system/cmd-output/cmd-0001.txt", "/kept.txt")) == (
        "/.system/cmd-output/cmd-0001.txt", "/kept.txt")
    assert run(default.read_bytes("/kept.txt")) == b"long output"
    assert run(vfs.move("/kept.txt", "/.system/moved.txt")) == ("/kept.txt", "/.system/moved.txt")
    assert not run(default.exists("/kept.txt")) and run(system.read_bytes("/moved.txt")) == b"long output"
    # Directories, node by node.
    run(vfs.write_bytes("/tree/a/1.txt", b"1"))
    run(vfs.write_bytes("/tree/2.txt", b"2"))
    run(vfs.copy("/tree", "/.system/tree"))
    assert run(system.listdir("/tree")) == ["a/", "2.txt"] and run(system.read_bytes("/tree/a/1.txt")) == b"1"
    run(vfs.move("/.system/tree", "/tree2"))
    assert run(default.read_bytes("/tree2/a/1.txt")) == b"1" and not run(system.exists("/tree"))
    # The copy of the mount point itself.
    run(vfs.copy("/.system", "/backup"))
    assert run(vfs.listdir("/backup")) == ["cmd-output/", "moved.txt"]
    # TreeVFS's errors.
    assert str(error_of(vfs.copy("/nope", "/.system/x"))) == "ENOENT:/nope"
    assert str(error_of(vfs.copy("/tree2", "/.system/cmd-output"))) == "EEXIST:/.system/cmd-output"
    assert str(error_of(vfs.copy("/tree2/2.txt", "/.system/cmd-output"))) == "EISDIR:/.system/cmd-output"
    assert error_of(vfs.copy("/", "/.system/all")).code == "EINVAL"
    # A file replaces a file across mounts.
    run(vfs.copy("/tree2/2.txt", "/.system/moved.txt"))
    assert run(system.read_bytes("/moved.txt")) == b"2"


def test_modes_cross_mounts():
    vfs, _, system = make()
    run(vfs.write_bytes("/x.sh", b"#!"))
    run(vfs.chmod("/x.sh", 0o777))
    run(vfs.copy("/x.sh", "/.system/copy.sh"))
    assert run(system.stat("/copy.sh")).mode == 0o755  # masked by umask, as cp does
    run(vfs.move("/x.sh", "/.system/moved.sh"))
    assert run(system.stat("/moved.sh")).mode == 0o777  # kept, as mv does
    assert run(vfs.chmod("/.system/moved.sh", 0o600)) == "/.system/moved.sh"
    assert run(vfs.stat("/.system/moved.sh")).mode == 0o600


def test_within_one_mount_the_backend_copies(tmp_path):
    vfs = MountVFS(DirectoryVFS(tmp_path / "root"), {"/.system": DirectoryVFS(tmp_path / "private")})
    run(vfs.write_bytes("/.system/a/1.txt", b"1"))
    assert run(vfs.copy("/.system/a", "/.system/b")) == ("/.system/a", "/.system/b")
    assert run(vfs.move("/.system/b/1.txt", "/.system/c.txt")) == ("/.system/b/1.txt", "/.system/c.txt")
    assert (tmp_path / "private" / "c.txt").read_bytes() == b"1"
    assert not (tmp_path / "root" / ".system").exists()


def test_mount_points_are_checked():
    with pytest.raises(ValueError):
        MountVFS(MemoryVFS(), {"/": MemoryVFS()})
    with pytest.raises(ValueError):
        MountVFS(MemoryVFS(), {"/a": MemoryVFS(), "/a/": MemoryVFS()})


def test_a_deeper_mount_point_has_its_parents():
    vfs = MountVFS(MemoryVFS(), {"/mnt/data": MemoryVFS()})
    assert run(vfs.listdir("/")) == ["mnt/"]
    assert run(vfs.listdir("/mnt")) == ["data/"]
    assert run(vfs.is_dir("/mnt")) and run(vfs.stat("/mnt")).is_dir
    assert str(error_of(vfs.write_bytes("/mnt", b""))) == "EISDIR:/mnt"
    run(vfs.write_bytes("/mnt/other.txt", b"o"))
    assert run(vfs.listdir("/mnt")) == ["data/", "other.txt"]


def test_a_runtime_spills_into_the_mount(tmp_path):
    async def scenario():
        vfs = MountVFS(DirectoryVFS(tmp_path), {"/.system": MemoryVFS()})
        runtime = await create_agent_cli(vfs=vfs)
        text = await runtime.run("seq 1 5000")
        assert "/.system/cmd-output/cmd-0001.txt" in text
        assert (await runtime.run("wc -l < /.system/cmd-output/cmd-0001.txt")).startswith("5000\n")
        assert (await runtime.run("ls -A /")).startswith(".system\n")
        await runtime.run("cp /.system/cmd-output/cmd-0001.txt /kept.txt")
        assert (await runtime.run("find / -name 'cmd-0*'")).startswith("/.system/cmd-output/cmd-0001.txt\n\n")
    asyncio.run(scenario())
    assert not (tmp_path / ".system").exists()
    assert (tmp_path / "kept.txt").read_text().startswith("1\n2\n")
