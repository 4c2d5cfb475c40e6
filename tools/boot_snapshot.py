"""The site's boot snapshot: Pyodide's memory with the runtime imported, made at build time.

    write_boot_snapshot(pyodide_dir, pack, out, cache_dir) -> {"key", "bytes", "memoryBytes", "sitePackages"}

A first visit restores this file instead of booting cold (web/js/boot.js, docs/BROWSER.md
"Boot snapshot"): the browser then skips Pyodide's interpreter start, the stdlib and runtime
imports and the install. tools/make_boot_snapshot.mjs makes it in Node from the site's own
Pyodide and site pack (tools/site_pack.py), starting Pyodide as boot.js does (both read
web/js/boot-preload.js). The file is the gzip of pyodide.makeMemorySnapshot(); the
site-packages files are not in it (they live outside the wasm memory): boot.js writes them
back from the site pack.

`key` names the inputs (Pyodide's runtime files and the site's lock file, the pack, the
preload, the maker, Node's version); the snapshot holds it under boot-preload.js's MARKER and
the manifest carries it, so a restore checks it got the snapshot the manifest describes. The result is cached under
cache_dir by that key: a rebuild with unchanged inputs does not start Node.
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

from tools.wheels import sha256_file

ROOT = Path(__file__).resolve().parents[1]
MAKER = Path(__file__).with_name("make_boot_snapshot.mjs")
PRELOAD = ROOT / "web" / "js" / "boot-preload.js"
NODE_FLAGS = ("--experimental-wasm-stack-switching",)
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def snapshot_key(pyodide_dir: Path, pack: Path) -> str:
    inputs = [f"{name}={sha256_file(pyodide_dir / name)}" for name in PYODIDE_FILES]
    inputs += [f"{p.name}={sha256_file(p)}" for p in (pack, PRELOAD, MAKER, Path(__file__))]
    inputs.append(f"node={node_version()}")
    return hashlib.sha256("\n".join(inputs).encode()).hexdigest()[:32]


def write_boot_snapshot(pyodide_dir: Path, pack: Path, out: Path, cache_dir: Path) -> dict:
    """Write the boot snapshot of `pack` on `pyodide_dir` to `out` (from the cache when its
    inputs did not change)."""
    key = snapshot_key(pyodide_dir, pack)
    cached = cache_dir / f"boot-snapshot-{key}.bin"
    facts = cache_dir / f"boot-snapshot-{key}.json"
    if not (cached.exists() and facts.exists()):
        cache_dir.mkdir(parents=True, exist_ok=True)
        for old in cache_dir.glob("boot-snapshot-*"):
            old.unlink()
        partial = cached.with_suffix(".tmp")
        made = make(pyodide_dir, pack, key, partial)
        partial.replace(cached)
        facts.write_text(json.dumps(made))
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(cached, out)
    return {"key": key, "bytes": out.stat().st_size, **json.loads(facts.read_text())}


def make(pyodide_dir: Path, pack: Path, key: str, out: Path) -> dict:
    """Run the maker; {"memoryBytes", "sitePackages"} from what it prints."""
    completed = subprocess.run(
        ["node", *NODE_FLAGS, str(MAKER), str(pyodide_dir) + "/", str(pack), key, str(out)],
        capture_output=True, text=True)
    printed = re.fullmatch(r"snapshot (\d+) bytes \(gzip \d+\) in (/\S+)\n", completed.stdout)
    if completed.returncode != 0 or not printed:
        raise SystemExit(f"boot snapshot: making it failed ({completed.returncode}):\n"
                         f"{completed.stdout}\n{completed.stderr}")
    return {"memoryBytes": int(printed.group(1)), "sitePackages": printed.group(2)}


def node_version() -> str:
    return subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
