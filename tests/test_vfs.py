"""The VFS rules, exact values: paths, errors, resource policy, both backends (DirectoryVFS's
escapes: test_vfs_directory.py)."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from onetool_wasm.vfs import (VFS, DirectoryVFS, MemoryVFS, ResourcePolicy, VFSError, guess_media_type,
                              normalize_path, parent_of, resource_limit_error, walk)
from onetool_wasm.vfs.paths import ancestors_and_self, base_name, child_path, is_strict_descendant_path
from .helpers import arun as run, FIRST_TICK, counter_clock, examples, vfs_raises


@pytest.fixture(params=["memory", "directory"])
def make_vfs(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[..., Any]:
    """Build either backend; tests using this hold for both."""
    roots = itertools.count()

    def build(resource_policy: Any = None) -> Any:
        if request.param == "memory":
            return MemoryVFS(resource_policy=resource_policy, now_ms=counter_clock())
        return DirectoryVFS(tmp_path / f"root{next(roots)}", resource_policy=resource_policy)
    return build


@pytest.fixture
def vfs(make_vfs: Callable[..., Any]) -> Any:
    return make_vfs()


# -- paths ------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, normalized", [
    ("", "/"), (".", "/"), ("..", "/"), ("a", "/a"), ("a/./b/../c", "/a/c"), ("/a/b/", "/a/b"),
    ("///", "/"), ("/a/../../../b", "/b"), ("a/..b/c", "/a/..b/c"), ("/.../x", "/.../x"),
    ("/sp ace/é", "/sp ace/é"),
])
def test_normalize_path(raw: str, normalized: str) -> None:
    assert normalize_path(raw) == normalized


def test_path_helpers() -> None:
    assert parent_of("/a/b/c") == "/a/b"
    assert base_name("/a/b/c.txt") == "c.txt"
    assert ancestors_and_self("/a/b/c") == ["/a", "/a/b", "/a/b/c"]
    assert ancestors_and_self("/") == []
    assert child_path("/", "x") == "/x"
    assert child_path("/a", "x") == "/a/x"
    assert is_strict_descendant_path("/a", "/a/b/c") is True
    assert is_strict_descendant_path("/a/b", "/a") is False


# -- errors -----------------------------------------------------------------------------

def test_error_string_and_fields() -> None:
    error = VFSError("EINVAL", "/dir/sub", target_path="/dir")
    assert str(error) == "EINVAL:/dir/sub"
    assert (error.code, error.path, error.target_path, error.details) == ("EINVAL", "/dir/sub", "/dir", None)
    assert error.message == "cannot copy or move a directory into itself: /dir -> /dir/sub"
    assert repr(error) == "VFSError('EINVAL', '/dir/sub', target_path='/dir')"


@pytest.mark.parametrize("code, message", [
    ("ENOENT", "path not found: /p"),
    ("EISDIR", "path is a directory: /p"),
    ("ENOTDIR", "parent is not a directory: /p"),
    ("EEXIST", "path already exists: /p"),
    ("EROOT", "cannot delete root: /p"),
    ("EESCAPE", "path escapes workspace root: /p"),
    ("EINVAL", "invalid operation: /p"),
])
def test_error_messages(code: str, message: str) -> None:
    error = VFSError(code, "/p")  # type: ignore[arg-type]
    assert str(error) == f"{code}:/p"
    assert error.message == message


def test_resource_limit_error_shape() -> None:
    error = resource_limit_error("/notes/large.txt", "maxFileBytes", 3, 5)
    assert str(error) == "ERESOURCE_LIMIT:/notes/large.txt"
    assert error.details == {"limitKind": "maxFileBytes", "limit": 3, "actual": 5}
    assert error.message == "resource limit exceeded (maxFileBytes: 5 > 3) at /notes/large.txt"
    bare = VFSError("ERESOURCE_LIMIT", "/x", details={"limitKind": "diskSpace"})
    assert bare.message == "resource limit exceeded (diskSpace) at /x"


def test_unknown_error_code_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown VFS error code: EPERM"):
        VFSError("EPERM", "/x")  # type: ignore[arg-type]


# -- resource policy: construction ------------------------------------------------------

def test_policy_from_camel_and_snake_keys() -> None:
    camel = ResourcePolicy.from_value({"maxFileBytes": 3, "maxTotalBytes": 5, "maxDirectoryDepth": 2,
                                       "maxEntriesPerDirectory": 1, "maxOutputArtifactBytes": 2})
    snake = ResourcePolicy.from_value({"max_file_bytes": 3, "max_total_bytes": 5, "max_directory_depth": 2,
                                       "max_entries_per_directory": 1, "max_output_artifact_bytes": 2})
    assert camel == snake == ResourcePolicy(3, 5, 2, 1, 2)
    assert camel.to_dict() == {"maxFileBytes": 3, "maxTotalBytes": 5, "maxDirectoryDepth": 2,
                               "maxEntriesPerDirectory": 1, "maxOutputArtifactBytes": 2}
    assert camel.active


def test_policy_defaults_are_unlimited() -> None:
    for value in (None, {}, ResourcePolicy(), {"maxFileBytes": None}):
        policy = ResourcePolicy.from_value(value)
        assert policy == ResourcePolicy()
        assert not policy.active
        assert policy.to_dict() == {}
    policy = ResourcePolicy(max_file_bytes=0)
    assert ResourcePolicy.from_value(policy) is policy and policy.active


@pytest.mark.parametrize("options, message", [
    ({"maxFileBytes": -1}, "maxFileBytes must be a non-negative integer (got -1)"),
    ({"max_total_bytes": 1.5}, "max_total_bytes must be a non-negative integer (got 1.5)"),
    ({"maxDirectoryDepth": True}, "maxDirectoryDepth must be a non-negative integer (got True)"),
    ({"maxEntriesPerDirectory": "3"}, "maxEntriesPerDirectory must be a non-negative integer (got '3')"),
    ({"maxBytes": 3}, "unknown resource policy option: maxBytes"),
])
def test_policy_validation(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as caught:
        ResourcePolicy.from_value(options)
    assert str(caught.value) == message


def test_policy_validation_of_direct_construction() -> None:
    with pytest.raises(ValueError, match=r"^max_output_artifact_bytes must be a non-negative integer \(got -2\)$"):
        ResourcePolicy(max_output_artifact_bytes=-2)
    with pytest.raises(TypeError, match="resource policy must be a mapping, got int"):
        ResourcePolicy.from_value(3)  # type: ignore[arg-type]


def test_backends_validate_their_policy(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="maxFileBytes must be a non-negative integer"):
        MemoryVFS(resource_policy={"maxFileBytes": -1})
    with pytest.raises(ValueError, match="maxFileBytes must be a non-negative integer"):
        DirectoryVFS(tmp_path, resource_policy={"maxFileBytes": -1})
    assert MemoryVFS(resource_policy={"max_file_bytes": 4}).resource_policy.max_file_bytes == 4


# -- resource policy: enforcement (both backends) ----------------------------------------

def limit_of(error: VFSError) -> tuple[str, str, int, int]:
    details = error.details or {}
    return error.path, details["limitKind"], details["limit"], details["actual"]


def test_max_file_bytes_on_write_and_append(make_vfs: Callable[..., Any]) -> None:
    vfs = make_vfs({"maxFileBytes": 3})
    error = vfs_raises("ERESOURCE_LIMIT", "/notes/large.txt", vfs.write_bytes("/notes/large.txt", b"hello"))
    assert error.message == "resource limit exceeded (maxFileBytes: 5 > 3) at /notes/large.txt"
    assert run(vfs.exists("/notes")) is False  # nothing happens when a check fails
    run(vfs.write_bytes("/notes/log.txt", b"abc"))
    error = vfs_raises("ERESOURCE_LIMIT", "/notes/log.txt", vfs.append_bytes("/notes/log.txt", b"d"))
    assert limit_of(error) == ("/notes/log.txt", "maxFileBytes", 3, 4)
    assert run(vfs.read_bytes("/notes/log.txt")) == b"abc"


def test_max_total_bytes_names_the_changed_path(make_vfs: Callable[..., Any]) -> None:
    vfs = make_vfs({"maxTotalBytes": 5})
    run(vfs.write_bytes("/a.txt", b"abc"))
    error = vfs_raises("ERESOURCE_LIMIT", "/b.txt", vfs.write_bytes("/b.txt", b"def"))
    assert limit_of(error) == ("/b.txt", "maxTotalBytes", 5, 6)
    error = vfs_raises("ERESOURCE_LIMIT", "/c.txt", vfs.copy("/a.txt", "/c.txt"))
    assert limit_of(error) == ("/c.txt", "maxTotalBytes", 5, 6)
    run(vfs.write_bytes("/a.txt", b"abcde"))  # overwriting replaces, it does not add
    run(vfs.move("/a.txt", "/moved.txt"))  # a move does not count twice
    assert run(vfs.read_bytes("/moved.txt")) == b"abcde"


def test_max_directory_depth_counts_directory_levels(make_vfs: Callable[..., Any]) -> None:
    vfs = make_vfs({"maxDirectoryDepth": 2})
    run(vfs.write_bytes("/a/b/file.txt", b"x"))  # the file sits at depth 2: allowed
    error = vfs_raises("ERESOURCE_LIMIT", "/a/b/c/file.txt", vfs.write_bytes("/a/b/c/file.txt", b"x"))
    assert limit_of(error) == ("/a/b/c/file.txt", "maxDirectoryDepth", 2, 3)
    error = vfs_raises("ERESOURCE_LIMIT", "/a/b/c/d", vfs.mkdir("/a/b/c/d"))
    assert limit_of(error) == ("/a/b/c/d", "maxDirectoryDepth", 2, 3)
    assert run(vfs.exists("/a/b/c")) is False


def test_max_entries_per_directory_names_the_directory(make_vfs: Callable[..., Any]) -> None:
    vfs = make_vfs({"maxEntriesPerDirectory": 2})
    run(vfs.write_bytes("/d/one.txt", b""))
    run(vfs.mkdir("/d/sub"))
    error = vfs_raises("ERESOURCE_LIMIT", "/d", vfs.write_bytes("/d/three.txt", b""))
    assert limit_of(error) == ("/d", "maxEntriesPerDirectory", 2, 3)
    run(vfs.write_bytes("/e.txt", b""))
    error = vfs_raises("ERESOURCE_LIMIT", "/", vfs.mkdir("/x/y"))
    assert limit_of(error) == ("/", "maxEntriesPerDirectory", 2, 3)
    run(vfs.write_bytes("/d/one.txt", b"rewritten"))  # replacing an entry adds none


def test_max_output_artifact_bytes_applies_only_to_spill_files(make_vfs: Callable[..., Any]) -> None:
    vfs = make_vfs({"maxOutputArtifactBytes": 2})
    run(vfs.write_bytes("/.system/other/cmd-0001.txt", b"abcdef"))
    run(vfs.write_bytes("/cmd-output/cmd-0001.txt", b"abcdef"))
    error = vfs_raises("ERESOURCE_LIMIT", "/.system/cmd-output/cmd-0001.txt",
                   vfs.write_bytes("/.system/cmd-output/cmd-0001.txt", b"abc"))
    assert limit_of(error) == ("/.system/cmd-output/cmd-0001.txt", "maxOutputArtifactBytes", 2, 3)
    run(vfs.write_bytes("/.system/cmd-output/cmd-0002.txt", b"ab"))


def test_zero_limits(make_vfs: Callable[..., Any]) -> None:
    vfs = make_vfs({"maxFileBytes": 0, "maxDirectoryDepth": 0})
    run(vfs.write_bytes("/empty.txt", b""))
    vfs_raises("ERESOURCE_LIMIT", "/one.txt", vfs.write_bytes("/one.txt", b"1"))
    error = vfs_raises("ERESOURCE_LIMIT", "/dir", vfs.mkdir("/dir"))
    assert limit_of(error) == ("/dir", "maxDirectoryDepth", 0, 1)


def test_tree_copy_is_checked_as_a_whole(make_vfs: Callable[..., Any]) -> None:
    vfs = make_vfs({"maxTotalBytes": 10})
    run(vfs.write_bytes("/src/a.txt", b"12345"))
    run(vfs.write_bytes("/src/deep/b.txt", b"123"))
    error = vfs_raises("ERESOURCE_LIMIT", "/dst", vfs.copy("/src", "/dst"))
    assert limit_of(error) == ("/dst", "maxTotalBytes", 10, 16)
    assert run(vfs.exists("/dst")) is False
    run(vfs.move("/src", "/dst"))
    assert run(vfs.listdir("/dst")) == ["deep/", "a.txt"]


def test_check_order_follows_upstream(make_vfs: Callable[..., Any]) -> None:
    # A write that breaks every limit reports the depth first, then the file size.
    policy = {"maxFileBytes": 1, "maxTotalBytes": 1, "maxDirectoryDepth": 1, "maxEntriesPerDirectory": 0}
    vfs = make_vfs(policy)
    error = vfs_raises("ERESOURCE_LIMIT", "/a/b/c.txt", vfs.write_bytes("/a/b/c.txt", b"xy"))
    assert limit_of(error) == ("/a/b/c.txt", "maxDirectoryDepth", 1, 2)
    error = vfs_raises("ERESOURCE_LIMIT", "/c.txt", vfs.write_bytes("/c.txt", b"xy"))
    assert limit_of(error) == ("/c.txt", "maxFileBytes", 1, 2)
    error = vfs_raises("ERESOURCE_LIMIT", "/", vfs.write_bytes("/c.txt", b"x"))
    assert limit_of(error) == ("/", "maxEntriesPerDirectory", 0, 1)


# -- both backends: reading, writing, listing ---------------------------------------------

def test_vfs_protocol(vfs: Any) -> None:
    assert isinstance(vfs, VFS)
    assert vfs.normalize("a/../b//c/") == "/b/c"


def test_listdir_order(vfs: Any) -> None:
    for name in ("b.txt", "B.txt", "a.txt", "É.txt", "_x", "10.txt", "9.txt"):
        run(vfs.write_bytes("/" + name, b""))
    for name in ("zeta", "Alpha", "alpha"):
        run(vfs.mkdir("/" + name))
    assert run(vfs.listdir("/")) == ["Alpha/", "alpha/", "zeta/",
                                     "10.txt", "9.txt", "B.txt", "_x", "a.txt", "b.txt", "É.txt"]
    assert run(vfs.listdir()) == run(vfs.listdir("/"))
    assert run(vfs.listdir("/zeta")) == []


def test_listdir_errors(vfs: Any) -> None:
    vfs_raises("ENOENT", "/missing", vfs.listdir("/missing"))
    run(vfs.write_bytes("/f.txt", b"x"))
    vfs_raises("ENOTDIR", "/f.txt", vfs.listdir("/f.txt"))
    vfs_raises("ENOENT", "/f.txt/x", vfs.listdir("/f.txt/x"))


def test_write_read_roundtrip(vfs: Any) -> None:
    assert run(vfs.write_bytes("notes/../notes/./a.txt", bytearray(b"hi"))) == "/notes/a.txt"
    assert run(vfs.read_bytes("/notes/a.txt")) == b"hi"
    assert run(vfs.read_text("/notes/a.txt")) == "hi"
    assert run(vfs.is_dir("/notes")) is True
    assert run(vfs.write_bytes("/notes/a.txt", b"again")) == "/notes/a.txt"
    assert run(vfs.read_bytes("/notes/a.txt")) == b"again"


def test_read_text_decodes_like_a_browser(vfs: Any) -> None:
    run(vfs.write_bytes("/bom.txt", b"\xef\xbb\xbfhello"))
    run(vfs.write_bytes("/bad.txt", b"ok\xff\xfeend"))
    assert run(vfs.read_text("/bom.txt")) == "hello"
    assert run(vfs.read_text("/bad.txt")) == "ok\ufffd\ufffdend"
    assert run(vfs.read_bytes("/bom.txt")) == b"\xef\xbb\xbfhello"


def test_read_errors(vfs: Any) -> None:
    vfs_raises("ENOENT", "/missing", vfs.read_bytes("/missing"))
    vfs_raises("ENOENT", "/missing", vfs.read_text("missing"))
    run(vfs.mkdir("/dir"))
    vfs_raises("EISDIR", "/dir", vfs.read_bytes("/dir"))
    vfs_raises("EISDIR", "/", vfs.read_bytes("/"))


def test_write_errors(vfs: Any) -> None:
    run(vfs.mkdir("/dir"))
    vfs_raises("EISDIR", "/dir", vfs.write_bytes("/dir", b"x"))
    vfs_raises("EISDIR", "/", vfs.write_bytes("/", b"x"))
    run(vfs.write_bytes("/file.txt", b"x"))
    vfs_raises("ENOTDIR", "/file.txt", vfs.write_bytes("/file.txt/deeper/x.txt", b"x"))
    vfs_raises("ENOENT", "/nope", vfs.write_bytes("/nope/x.txt", b"x", make_parents=False))
    vfs_raises("ENOTDIR", "/file.txt", vfs.write_bytes("/file.txt/x.txt", b"x", make_parents=False))
    assert run(vfs.write_bytes("/dir/x.txt", b"x", make_parents=False)) == "/dir/x.txt"


def test_append(vfs: Any) -> None:
    assert run(vfs.append_bytes("/logs/new.txt", b"one")) == "/logs/new.txt"
    run(vfs.append_bytes("/logs/new.txt", b"+two"))
    assert run(vfs.read_bytes("/logs/new.txt")) == b"one+two"
    vfs_raises("EISDIR", "/logs", vfs.append_bytes("/logs", b"x"))
    vfs_raises("ENOENT", "/none", vfs.append_bytes("/none/x.txt", b"x", make_parents=False))
    vfs_raises("ENOTDIR", "/logs/new.txt", vfs.append_bytes("/logs/new.txt/x", b"x"))


def test_mkdir(vfs: Any) -> None:
    assert run(vfs.mkdir("/a/b/c")) == "/a/b/c"
    assert run(vfs.mkdir("/a/b/c")) == "/a/b/c"  # existing directory: fine
    assert run(vfs.mkdir("/")) == "/"
    assert run(vfs.mkdir("/a/solo", parents=False)) == "/a/solo"
    vfs_raises("ENOENT", "/x/y", vfs.mkdir("/x/y/z", parents=False))
    run(vfs.write_bytes("/f.txt", b""))
    vfs_raises("EEXIST", "/f.txt", vfs.mkdir("/f.txt"))
    vfs_raises("ENOTDIR", "/f.txt", vfs.mkdir("/f.txt/sub"))
    vfs_raises("ENOTDIR", "/f.txt", vfs.mkdir("/f.txt/sub", parents=False))
    assert run(vfs.listdir("/a")) == ["b/", "solo/"]


def test_exists_and_is_dir(vfs: Any) -> None:
    run(vfs.write_bytes("/d/f.txt", b""))
    assert [run(vfs.exists(p)) for p in ("/", "/d", "/d/f.txt", "/d/f.txt/x", "/nope")] == \
        [True, True, True, False, False]
    assert [run(vfs.is_dir(p)) for p in ("/", "/d", "/d/f.txt", "/nope")] == [True, True, False, False]


@pytest.mark.parametrize("name, media_type", [
    ("a.txt", "text/plain"), ("a.JSON", "application/json"), ("README.md", "text/markdown"),
    ("t.csv", "text/csv"), ("p.html", "text/html"), ("i.jpeg", "image/jpeg"), ("i.jpg", "image/jpeg"),
    ("i.png", "image/png"), ("i.gif", "image/gif"), ("i.webp", "image/webp"), ("i.svg", "image/svg+xml"),
    ("d.pdf", "application/pdf"), ("d.xml", "application/xml"), ("c.yaml", "application/yaml"),
    ("c.yml", "application/yaml"), ("a.tar.gz", "application/octet-stream"),
    ("Makefile", "application/octet-stream"), ("app.log", "application/octet-stream"),
    ("main.py", "application/octet-stream"), (".txt", "text/plain"),
])
def test_media_types(name: str, media_type: str) -> None:
    assert guess_media_type(name) == media_type
    assert guess_media_type(name, is_dir=True) == "inode/directory"


def test_stat(vfs: Any) -> None:
    run(vfs.write_bytes("/docs/guide.md", b"# hi\n"))
    info = run(vfs.stat("docs/guide.md"))
    assert (info.path, info.exists, info.is_dir, info.size, info.media_type) == \
        ("/docs/guide.md", True, False, 5, "text/markdown")
    assert isinstance(info.modified_epoch_ms, int) and info.modified_epoch_ms > 0
    info = run(vfs.stat("/docs"))
    assert (info.path, info.exists, info.is_dir, info.size, info.media_type) == \
        ("/docs", True, True, 0, "inode/directory")
    info = run(vfs.stat("/missing"))
    assert (info.path, info.exists, info.is_dir, info.size, info.media_type, info.modified_epoch_ms) == \
        ("/missing", False, False, 0, "", 0)


def test_delete(vfs: Any) -> None:
    run(vfs.write_bytes("/tree/sub/f.txt", b"x"))
    run(vfs.write_bytes("/tree/g.txt", b"y"))
    run(vfs.write_bytes("/treehouse.txt", b"z"))
    assert run(vfs.delete("/tree/g.txt")) == "/tree/g.txt"
    assert run(vfs.delete("tree")) == "/tree"
    assert run(vfs.listdir("/")) == ["treehouse.txt"]
    vfs_raises("ENOENT", "/tree", vfs.delete("/tree"))
    vfs_raises("EROOT", "/", vfs.delete("/"))
    vfs_raises("EROOT", "/", vfs.delete("/.."))


def test_copy_file(vfs: Any) -> None:
    run(vfs.write_bytes("/src.txt", b"copy me"))
    assert run(vfs.copy("/src.txt", "/new/dir/dst.txt")) == ("/src.txt", "/new/dir/dst.txt")
    assert run(vfs.read_bytes("/new/dir/dst.txt")) == b"copy me"
    run(vfs.write_bytes("/other.txt", b"old"))
    run(vfs.copy("/src.txt", "/other.txt"))  # an existing file is overwritten
    assert run(vfs.read_bytes("/other.txt")) == b"copy me"
    assert run(vfs.read_bytes("/src.txt")) == b"copy me"
    vfs_raises("EISDIR", "/new", vfs.copy("/src.txt", "/new"))
    vfs_raises("ENOTDIR", "/other.txt", vfs.copy("/src.txt", "/other.txt/x"))
    vfs_raises("ENOENT", "/missing", vfs.copy("/missing", "/x"))


def test_copy_tree(vfs: Any) -> None:
    run(vfs.write_bytes("/src/main.ts", b"code"))
    run(vfs.write_bytes("/src/lib/util.ts", b"util"))
    run(vfs.mkdir("/src/empty"))
    assert run(vfs.copy("/src", "/backup/src")) == ("/src", "/backup/src")
    assert run(walk(vfs, "/backup")) == [("/backup/src", True), ("/backup/src/empty", True),
                                         ("/backup/src/lib", True), ("/backup/src/lib/util.ts", False),
                                         ("/backup/src/main.ts", False)]
    assert run(vfs.read_text("/backup/src/lib/util.ts")) == "util"
    assert run(vfs.exists("/src/lib/util.ts")) is True
    vfs_raises("EEXIST", "/backup/src", vfs.copy("/src", "/backup/src"))
    vfs_raises("EEXIST", "/src", vfs.copy("/src", "/src"))
    run(vfs.write_bytes("/file.txt", b""))
    vfs_raises("EEXIST", "/file.txt", vfs.copy("/src", "/file.txt"))
    vfs_raises("ENOTDIR", "/file.txt", vfs.copy("/src", "/file.txt/x"))


def test_copy_or_move_into_own_subtree(vfs: Any) -> None:
    run(vfs.mkdir("/dir"))
    for operation in (vfs.copy, vfs.move):
        error = vfs_raises("EINVAL", "/dir/sub/deeper", operation("/dir", "/dir/sub/deeper"))
        assert error.target_path == "/dir"
        error = vfs_raises("EINVAL", "/x", operation("/", "/x"))
        assert error.target_path == "/"
    assert run(vfs.listdir("/dir")) == []


def test_move_file(vfs: Any) -> None:
    run(vfs.write_bytes("/a.txt", b"A"))
    run(vfs.write_bytes("/b.txt", b"B"))
    assert run(vfs.move("/a.txt", "/b.txt")) == ("/a.txt", "/b.txt")  # overwrites
    assert run(vfs.read_bytes("/b.txt")) == b"A"
    assert run(vfs.exists("/a.txt")) is False
    assert run(vfs.move("/b.txt", "/b.txt")) == ("/b.txt", "/b.txt")
    assert run(vfs.move("/b.txt", "/deep/er/c.txt")) == ("/b.txt", "/deep/er/c.txt")
    assert run(vfs.listdir("/")) == ["deep/"]
    vfs_raises("EISDIR", "/deep", vfs.move("/deep/er/c.txt", "/deep"))
    vfs_raises("ENOTDIR", "/deep/er/c.txt", vfs.move("/deep/er/c.txt", "/deep/er/c.txt/x"))
    vfs_raises("ENOENT", "/gone", vfs.move("/gone", "/x"))


def test_move_tree(vfs: Any) -> None:
    run(vfs.write_bytes("/dst/main.ts", b"code"))
    run(vfs.write_bytes("/dst/lib/util.ts", b"util"))
    run(vfs.mkdir("/taken"))
    vfs_raises("EEXIST", "/taken", vfs.move("/dst", "/taken"))
    assert run(vfs.move("/dst", "/archive/2024")) == ("/dst", "/archive/2024")
    assert run(walk(vfs)) == [("/archive", True), ("/archive/2024", True), ("/archive/2024/lib", True),
                              ("/archive/2024/lib/util.ts", False), ("/archive/2024/main.ts", False),
                              ("/taken", True)]
    assert run(vfs.move("/archive", "/archive")) == ("/archive", "/archive")


# -- MemoryVFS only: the clock ------------------------------------------------------------

def test_memory_clock_call_pattern() -> None:
    calls: list[int] = []
    clock = counter_clock()

    def now() -> int:
        calls.append(clock())
        return calls[-1]

    vfs = MemoryVFS(now_ms=now)
    assert len(calls) == 1 and run(vfs.stat("/")).modified_epoch_ms == FIRST_TICK  # the root
    run(vfs.write_bytes("/a/b/f.txt", b"x"))  # /a, /a/b, then the file
    assert [run(vfs.stat(p)).modified_epoch_ms for p in ("/a", "/a/b", "/a/b/f.txt")] == \
        [FIRST_TICK + 1, FIRST_TICK + 2, FIRST_TICK + 3]
    run(vfs.append_bytes("/a/b/f.txt", b"y"))
    assert run(vfs.stat("/a/b/f.txt")).modified_epoch_ms == FIRST_TICK + 4
    run(vfs.mkdir("/a/b"))  # exists: no tick
    vfs_raises("EISDIR", "/a", vfs.write_bytes("/a", b""))  # failures: no tick
    run(vfs.read_bytes("/a/b/f.txt"))
    run(vfs.delete("/a/b/f.txt"))  # deletion stamps nothing
    assert len(calls) == 5


def test_memory_clock_stamps_tree_copies_in_creation_order() -> None:
    vfs = MemoryVFS(now_ms=counter_clock())  # root: +0
    run(vfs.write_bytes("/s/z.txt", b"z"))  # /s +1, /s/z.txt +2
    run(vfs.write_bytes("/s/d/a.txt", b"a"))  # /s/d +3, /s/d/a.txt +4
    run(vfs.copy("/s", "/c/t"))  # /c +5, /c/t +6, then subdirs, then files, by creation
    times = {p: run(vfs.stat(p)).modified_epoch_ms - FIRST_TICK for p, _ in run(walk(vfs, "/c"))}
    assert times == {"/c/t": 6, "/c/t/d": 7, "/c/t/z.txt": 8, "/c/t/d/a.txt": 9}
    assert run(vfs.stat("/c")).modified_epoch_ms - FIRST_TICK == 5
    run(vfs.move("/s/z.txt", "/z.txt"))  # a moved file is stamped anew
    assert run(vfs.stat("/z.txt")).modified_epoch_ms - FIRST_TICK == 10


def test_memory_keeps_its_own_copy_of_data() -> None:
    vfs = MemoryVFS()
    buffer = bytearray(b"abc")
    run(vfs.write_bytes("/f", buffer))
    buffer[0] = ord("X")
    assert run(vfs.read_bytes("/f")) == b"abc"
    assert isinstance(run(vfs.read_bytes("/f")), bytes)


def test_memory_default_clock_is_wall_time() -> None:
    import time
    before = time.time_ns() // 1_000_000
    vfs = MemoryVFS()
    run(vfs.write_bytes("/f", b""))
    after = time.time_ns() // 1_000_000
    assert before <= run(vfs.stat("/f")).modified_epoch_ms <= after


# -- walk --------------------------------------------------------------------------------

def test_walk(vfs: Any) -> None:
    run(vfs.write_bytes("/b.txt", b""))
    run(vfs.write_bytes("/a/z.txt", b""))
    run(vfs.mkdir("/a/y"))
    assert run(walk(vfs)) == [("/a", True), ("/a/y", True), ("/a/z.txt", False), ("/b.txt", False)]
    assert run(walk(vfs, "a")) == [("/a/y", True), ("/a/z.txt", False)]
    vfs_raises("ENOTDIR", "/b.txt", walk(vfs, "/b.txt"))


# -- the two backends agree (property test) --------------------------------------------------

try:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
except ImportError:  # e.g. inside Pyodide without hypothesis: the property test is skipped
    given = None

if given is not None:
    _paths = st.lists(st.sampled_from(["a", "b", "c.txt", ".."]), min_size=0, max_size=3).map(
        lambda parts: "/" + "/".join(parts))
    _data = st.sampled_from([b"", b"x", b"hello"])
    _operations = st.one_of(
        st.tuples(st.just("write_bytes"), _paths, _data, st.booleans()),
        st.tuples(st.just("append_bytes"), _paths, _data, st.booleans()),
        st.tuples(st.just("mkdir"), _paths, st.booleans()),
        st.tuples(st.just("delete"), _paths),
        st.tuples(st.just("copy"), _paths, _paths),
        st.tuples(st.just("move"), _paths, _paths),
        st.tuples(st.just("read_bytes"), _paths),
        st.tuples(st.just("listdir"), _paths),
        st.tuples(st.just("stat"), _paths),
    )
    _policies = st.one_of(st.none(), st.fixed_dictionaries({}, optional={
        "maxFileBytes": st.integers(0, 6), "maxTotalBytes": st.integers(0, 12),
        "maxDirectoryDepth": st.integers(0, 3), "maxEntriesPerDirectory": st.integers(0, 3)}))

    async def _outcome(vfs: Any, operation: tuple[Any, ...]) -> Any:
        name, *args = operation
        try:
            result = await getattr(vfs, name)(*args)
        except VFSError as error:
            return ("error", error.code, error.path, error.target_path, error.details)
        if name == "stat":
            return result.path, result.exists, result.is_dir, result.size, result.media_type
        return result

    async def _contents(vfs: Any) -> list[tuple[str, bool, bytes]]:
        return [(path, is_dir, b"" if is_dir else await vfs.read_bytes(path))
                for path, is_dir in await walk(vfs)]

    @settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(policy=_policies, operations=st.lists(_operations, max_size=12))
    def test_backends_agree(tmp_path: Path, policy: Any, operations: list[tuple[Any, ...]]) -> None:
        import tempfile
        with tempfile.TemporaryDirectory(dir=tmp_path) as root:
            memory, directory = MemoryVFS(policy), DirectoryVFS(root, policy)

            async def scenario() -> None:
                for operation in operations:
                    assert await _outcome(memory, operation) == await _outcome(directory, operation), operation
                assert await _contents(memory) == await _contents(directory)
            run(scenario())
else:
    def test_backends_agree() -> None:
        pytest.skip("hypothesis is not installed")
