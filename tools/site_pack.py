"""The site's wheels as one pre-installed, pre-compiled pack for the browser's cold boot.

    write_site_pack(wheels, pyodide_dir, out, cache_dir) -> {"url", "packages", "files", "bytes"}

web/js/boot.js fetches this one file (in parallel with loadPyodide) instead of having
pyodide.loadPackage fetch and unpack 8 wheels after it, and writes its files straight into
site-packages. The pack holds what loadPackage would have installed -- every wheel unpacked,
its .dist-info folder included (plus the INSTALLER and PYODIDE_SOURCE files loadPackage adds),
so importlib.metadata, micropip and Pyodide's loadedPackages see the same packages -- and a
.pyc for every module, compiled by Pyodide's own Python in Node (tools/compile_pyc.mjs):
importing the runtime from source was most of the cold boot's work beyond Pyodide's start.

Format (all little-endian): gzip of
    b"OTPK1\\n" | u32 length of the index | index (JSON, utf-8) | the files' bytes, concatenated
where the index is [[path relative to site-packages, offset, length], ...] (offsets into the
bytes after the index). boot.js unpacks it with DecompressionStream("gzip"). The wheels
themselves stay on the site unchanged (micropip installs them: docs/BROWSER.md).

The result is cached under cache_dir by the sha256 of its inputs (the wheels, Pyodide's
runtime, this file and compile_pyc.mjs): a rebuild with unchanged wheels does not start Node.
"""
from __future__ import annotations

import gzip
import hashlib
import io
import json
import shutil
import struct
import subprocess
import tempfile
import zipfile
from pathlib import Path

from tools.wheels import canonical_name, sha256_file, wheel_metadata

MAGIC = b"OTPK1\n"
SITE_PACKAGES = "/lib/python3.14/site-packages"  # Pyodide 314's; checked against the runtime below
COMPILER = Path(__file__).with_name("compile_pyc.mjs")
NODE_FLAGS = ("--experimental-wasm-stack-switching",)
# What pyodide.loadPackage writes into each installed .dist-info (Pyodide 314.0.7).
LOADPACKAGE_METADATA = {"INSTALLER": "pyodide.loadPackage", "PYODIDE_SOURCE": "pyodide"}


def write_site_pack(wheels: list, pyodide_dir: Path, out: Path, cache_dir: Path) -> dict:
    """Write the pack of `wheels` to `out` (from the cache when its inputs did not change)."""
    wheels = sorted((Path(w) for w in wheels), key=lambda p: p.name)
    inputs = [f"{w.name}={sha256_file(w)}" for w in wheels]
    inputs += [f"{name}={sha256_file(pyodide_dir / name)}" for name in ("pyodide.asm.wasm", "python_stdlib.zip")]
    inputs += [f"{p.name}={sha256_file(p)}" for p in (Path(__file__), COMPILER)]
    key = hashlib.sha256("\n".join(inputs).encode()).hexdigest()[:32]
    cached = cache_dir / f"site-pack-{key}.bin"
    if not cached.exists():
        cache_dir.mkdir(parents=True, exist_ok=True)
        for old in cache_dir.glob("site-pack-*.bin"):
            old.unlink()
        data = build_pack(wheels, pyodide_dir)
        partial = cached.with_suffix(".tmp")
        partial.write_bytes(data)
        partial.replace(cached)
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(cached, out)
    return {"packages": sorted(canonical_name(wheel_metadata(w)["Name"]) for w in wheels),
            "bytes": out.stat().st_size}


def build_pack(wheels: list, pyodide_dir: Path) -> bytes:
    with tempfile.TemporaryDirectory(prefix="onetool-site-pack-") as tmp:
        root = Path(tmp)
        for wheel in wheels:
            install_wheel(wheel, root)
        compile_tree(root, pyodide_dir)
        return pack_tree(root)


def install_wheel(wheel: Path, root: Path) -> None:
    """Unpack a pure wheel as pyodide.loadPackage does (a .data folder is refused)."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        if any(n.split("/")[0].endswith(".data") for n in names):
            raise SystemExit(f"site pack: {wheel.name} has a .data folder; only plain wheels are packed")
        for name in names:
            target = (root / name).resolve()
            if not target.is_relative_to(root.resolve()):
                raise SystemExit(f"site pack: {wheel.name}: unsafe path {name}")
        archive.extractall(root)
        (dist_info,) = {n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info")}
    for file_name, text in LOADPACKAGE_METADATA.items():
        (root / dist_info / file_name).write_text(text)


def compile_tree(root: Path, pyodide_dir: Path) -> None:
    module = pyodide_dir / "pyodide.mjs"
    completed = subprocess.run(
        ["node", *NODE_FLAGS, str(COMPILER), str(module), str(pyodide_dir) + "/", str(root), SITE_PACKAGES],
        capture_output=True, text=True)
    if completed.returncode != 0 or "cpython-314" not in completed.stdout:
        raise SystemExit(f"site pack: compiling .pyc failed ({completed.returncode}):\n"
                         f"{completed.stdout}\n{completed.stderr}")


def pack_tree(root: Path) -> bytes:
    index, chunks, offset = [], [], 0
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        index.append([path.relative_to(root).as_posix(), offset, len(data)])
        chunks.append(data)
        offset += len(data)
    header = json.dumps(index, separators=(",", ":")).encode()
    raw = MAGIC + struct.pack("<I", len(header)) + header + b"".join(chunks)
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=9, mtime=0) as packed:
        packed.write(raw)
    return buffer.getvalue()


def read_pack(data: bytes) -> dict:
    """{path: bytes} of a pack (for tests and checks)."""
    raw = gzip.decompress(data)
    if not raw.startswith(MAGIC):
        raise ValueError("not a site pack")
    (length,) = struct.unpack_from("<I", raw, len(MAGIC))
    start = len(MAGIC) + 4
    index = json.loads(raw[start:start + length])
    body = start + length
    return {path: raw[body + offset:body + offset + size] for path, offset, size in index}
