"""tools/runtime_dist.py: the distributable web runtime (docs/EMBEDDING.md).

Built here from a site made in a temporary folder: the real web/ (so the JS modules and what
they reference are the repository's), small stand-ins for the Pyodide files, a real (tiny)
onetool_wasm wheel and a dependency wheel, and the manifest written by build.py's own
write_manifest, as build_site() does. No build is needed first.
"""
from __future__ import annotations

import gzip
import hashlib
import io
import json
import shutil
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402
from tools import runtime_dist  # noqa: E402

VERSION = "9.8.7"  # the wheel's version: the package follows it
PROJECT_WHEEL = f"onetool_wasm-{VERSION}-py3-none-any.whl"
DEP_WHEEL = "attrs-26.1.0-py3-none-any.whl"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "package.json",
                 "pyodide-lock.json")
INFO = {"python": "3.14.2", "version": "314.0.7"}
LOCK = {"attrs": {"file_name": f"../wheels/{DEP_WHEEL}"}, "onetool-wasm": {"file_name": f"../wheels/{PROJECT_WHEEL}"}}

# Everything an embedding site needs, and nothing else: no page, playground, agent, world,
# test harness or site CSS.
EXPECTED_FILES = [
    "LICENSE",
    "README.md",
    "boot/site-packages.bin",
    "css/sandbox.css",
    "js/boot-preload.js",
    "js/boot.js",
    "js/download-progress.js",
    "js/idb-store.js",
    "js/interrupt.js",
    "js/offline.js",
    "js/onetool.d.ts",
    "js/onetool.js",
    "js/playground/history.js",
    "js/playground/terminal.js",
    "js/rpc.js",
    "js/sandbox-element.js",
    "js/shared-worker-pool.js",
    "js/snapshot-store.js",
    "js/wire.js",
    "js/worker.js",
    "onetool-manifest.json",
    "package.json",
    *(f"pyodide/{name}" for name in sorted(PYODIDE_FILES)),
    "sw.js",
    f"wheels/{DEP_WHEEL}",
    f"wheels/{PROJECT_WHEEL}",
]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def make_wheel(path: Path, name: str, version: str) -> None:
    with zipfile.ZipFile(path, "w") as wheel:
        dist_info = f"{name.replace('-', '_')}-{version}.dist-info"
        wheel.writestr(f"{dist_info}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
        wheel.writestr(f"{name.replace('-', '_')}/__init__.py", "")


def manifest_writer(project: Path):
    return lambda folder: build.write_manifest(folder, INFO, LOCK, project)


@pytest.fixture
def site(tmp_path) -> Path:
    """A built site's layout: web/ + pyodide/ + wheels/ + its manifest."""
    site = tmp_path / "site"
    shutil.copytree(ROOT / "web", site)
    (site / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        (site / "pyodide" / name).write_bytes(f"stand-in for {name}\n".encode())
    (site / "wheels").mkdir()
    make_wheel(site / "wheels" / PROJECT_WHEEL, "onetool-wasm", VERSION)
    make_wheel(site / "wheels" / DEP_WHEEL, "attrs", "26.1.0")
    (site / "boot").mkdir()
    (site / "boot" / "site-packages.bin").write_bytes(b"the site pack")
    manifest_writer(site / "wheels" / PROJECT_WHEEL)(site)
    return site


def build_dist(site: Path, out: Path) -> Path:
    return runtime_dist.build_runtime_dist(site, out, manifest_writer(site / "wheels" / PROJECT_WHEEL))


def files_of(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_the_folder_holds_exactly_what_embedding_needs(site, tmp_path):
    out = tmp_path / "runtime"
    folder = build_dist(site, out)
    assert folder == out / f"onetool-wasm-web-{VERSION}"
    assert sorted(p.name for p in out.iterdir()) == [f"onetool-wasm-web-{VERSION}", f"onetool-wasm-web-{VERSION}.tgz"]
    assert files_of(folder) == EXPECTED_FILES
    # copied byte for byte from the site
    for path in EXPECTED_FILES:
        if path not in ("LICENSE", "README.md", "package.json", "onetool-manifest.json"):
            assert (folder / path).read_bytes() == (site / path).read_bytes(), path
    assert (folder / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
    readme = (folder / "README.md").read_text()
    assert readme.startswith(f"# onetool-wasm-web {VERSION}\n") and "docs/EMBEDDING.md" in readme


def test_package_json(site, tmp_path):
    folder = build_dist(site, tmp_path / "runtime")
    package = json.loads((folder / "package.json").read_text())
    assert package["name"] == "onetool-wasm-web"
    assert package["version"] == VERSION
    assert package["type"] == "module"
    assert package["license"] == "MIT"
    assert package["types"] == "./js/onetool.d.ts"
    assert package["exports"] == {
        "./onetool.js": {"types": "./js/onetool.d.ts", "default": "./js/onetool.js"},
        "./sandbox-element.js": "./js/sandbox-element.js",
        "./offline.js": "./js/offline.js",
        "./package.json": "./package.json",
    }
    assert package["files"] == ["js/", "css/", "pyodide/", "wheels/", "boot/", "onetool-manifest.json", "sw.js",
                                "README.md", "LICENSE"]
    # every file of the folder is covered by `files`, and every path named exists
    for path in EXPECTED_FILES:
        assert any(path == entry or path.startswith(entry) for entry in package["files"]) or path == "package.json"
    targets = [package["types"], "./js/onetool.js", "./js/sandbox-element.js", "./js/offline.js", *package["sideEffects"]]
    for target in targets:
        assert (folder / target).is_file(), target


def test_the_manifest_lists_this_folder(site, tmp_path):
    folder = build_dist(site, tmp_path / "runtime")
    manifest = json.loads((folder / "onetool-manifest.json").read_text())
    site_manifest = json.loads((site / "onetool-manifest.json").read_text())
    # Every file but the manifest, with its size and sha256; nothing else.
    expected_files = {}
    for path in EXPECTED_FILES:
        if path != "onetool-manifest.json":
            data = (folder / path).read_bytes()
            expected_files[path] = {"size": len(data), "sha256": sha256(data)}
    assert manifest["files"] == expected_files
    assert list(manifest["files"]) == sorted(expected_files)
    listing = "".join(f"{path} {entry['sha256']}\n" for path, entry in expected_files.items())
    assert manifest["siteHash"] == sha256(listing.encode())
    assert manifest["siteHash"] != site_manifest["siteHash"]
    assert manifest["wheels"] == {name: expected_files[f"wheels/{name}"]["sha256"] for name in (DEP_WHEEL, PROJECT_WHEEL)}
    assert manifest["lockSha256"] == sha256((folder / "pyodide" / "pyodide-lock.json").read_bytes())
    # What the worker loads is the same as the site's.
    for key in ("pyodideVersion", "python", "indexURL", "lockFileURL", "packages", "wheel", "version"):
        assert manifest[key] == site_manifest[key], key
    assert manifest["version"] == VERSION and manifest["wheel"] == f"wheels/{PROJECT_WHEEL}"
    assert manifest["packages"] == ["attrs", "onetool-wasm"]


def test_the_tarball_is_the_folder_under_package(site, tmp_path):
    folder = build_dist(site, tmp_path / "runtime")
    tarball = folder.with_name(folder.name + ".tgz")
    data = tarball.read_bytes()
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        members = archive.getmembers()
        assert [m.name for m in members] == [f"package/{path}" for path in EXPECTED_FILES]
        for member in members:
            assert member.isfile() and member.mode == 0o644 and member.mtime == runtime_dist.TAR_MTIME
            assert member.uid == member.gid == 0
            assert archive.extractfile(member).read() == (folder / member.name[len("package/"):]).read_bytes()
    assert gzip.decompress(data)  # one gzip stream
    # The same inputs make the same bytes (fixed times, owners and gzip header).
    again = build_dist(site, tmp_path / "again")
    assert again.with_name(again.name + ".tgz").read_bytes() == data


def test_a_rebuild_replaces_an_older_version(site, tmp_path):
    out = tmp_path / "runtime"
    (out / "onetool-wasm-web-0.0.1").mkdir(parents=True)
    (out / "onetool-wasm-web-0.0.1.tgz").write_bytes(b"old")
    build_dist(site, out)
    assert sorted(p.name for p in out.iterdir()) == [f"onetool-wasm-web-{VERSION}", f"onetool-wasm-web-{VERSION}.tgz"]


def test_the_modules_are_found_by_their_references(site):
    # Only the entry points are named: the rest comes from imports and new URL(..., import.meta.url).
    assert runtime_dist.module_closure(site, ["js/sandbox-element.js"]) == [
        "css/sandbox.css", "js/boot-preload.js", "js/boot.js", "js/download-progress.js", "js/idb-store.js", "js/interrupt.js",
        "js/onetool.js", "js/playground/history.js", "js/playground/terminal.js", "js/rpc.js",
        "js/sandbox-element.js", "js/shared-worker-pool.js", "js/snapshot-store.js", "js/wire.js", "js/worker.js",
    ]
    assert runtime_dist.module_closure(site, ["js/offline.js"]) == ["js/offline.js", "sw.js"]
    # A module the code references but the site lacks is an error, not a silent gap.
    (site / "js" / "wire.js").unlink()
    with pytest.raises(FileNotFoundError, match=r"wire\.js: referenced by the runtime's modules"):
        runtime_dist.module_closure(site, ["js/onetool.js"])


def test_references_in_comments_are_not_followed(tmp_path):
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text(
        '// import { x } from "./js/missing.js";\n/* import "./gone.js"; */\n'
        'import { b } from "./b.js";\nexport * from "./c.js";\nconst css = new URL("../d.css", import.meta.url);\n'
        'const lazy = () => import("./e.js");\n')
    for name in ("js/b.js", "js/c.js", "d.css", "js/e.js"):
        (tmp_path / name).write_text("")
    assert runtime_dist.module_closure(tmp_path, ["js/a.js"]) == ["d.css", "js/a.js", "js/b.js", "js/c.js", "js/e.js"]
