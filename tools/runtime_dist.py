"""The distributable web runtime: what another site copies to embed onetool (docs/EMBEDDING.md).

`build_runtime_dist(site, out, write_manifest)` (called by build.py's build_site() after
dist/site is written) makes

    out/onetool-wasm-web-<version>/       a folder to copy under any path of a site
    out/onetool-wasm-web-<version>.tgz    the same files under `package/` (like `npm pack`)

holding only what embedding needs:

* the JS modules `js/onetool.js` (createOneTool) and `js/sandbox-element.js` (<onetool-sandbox>)
  reach, found by following their relative `import`s and `new URL("...", import.meta.url)`
  references (worker.js, boot.js, ..., css/sandbox.css), so a new module is picked up without
  a list to keep; plus `js/offline.js` and `sw.js`, optional (a page imports offline.js to get
  offline use; nothing else loads them), and `js/onetool.d.ts`;
* `pyodide/` (the runtime and the site's own lock file), `wheels/` and `boot/` (the site pack
  boot.js installs in one piece: tools/site_pack.py) as in dist/site;
* `onetool-manifest.json` for this folder: written by build.py's write_manifest (passed in),
  so its `files` and `siteHash` are this folder's;
* `package.json` (onetool-wasm-web, the wheel's version), `README.md`, `LICENSE`.

No demo page, playground or agent module, world, or test harness. Standard library only.
"""
from __future__ import annotations

import gzip
import io
import json
import re
import shutil
import tarfile
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_NAME = "onetool-wasm-web"
MANIFEST_NAME = "onetool-manifest.json"
# The modules a page imports: the API and the element (the rest is what they reference).
ENTRY_MODULES = ("js/onetool.js", "js/sandbox-element.js")
# Optional: offline use (js/offline.js registers ../sw.js), and the TypeScript declarations.
OPTIONAL_FILES = ("js/offline.js", "sw.js", "js/onetool.d.ts")
RUNTIME_FOLDERS = ("pyodide", "wheels", "boot")  # boot/: the site pack (tools/site_pack.py)
# npm pack's fixed time stamp (1985-10-26), so the same files make the same tarball.
TAR_MTIME = 499162500

# import x from "./a.js" | import "./a.js" | export ... from "./a.js" | import("./a.js")
# | new URL("../css/a.css", import.meta.url)
_REFERENCE = re.compile(
    r"""(?:\bimport\s*(?:[\w*${}\s,]+?\s*from\s*)?|\bexport\s*[\w*${}\s,]+?\s*from\s*|\bimport\s*\(\s*)"""
    r"""["'](\.{1,2}/[^"']+)["']"""
    r"""|\bnew\s+URL\(\s*["'](\.{1,2}/[^"']+)["']\s*,\s*import\.meta\.url\s*\)"""
)


def build_runtime_dist(site: Path, out: Path, write_manifest: Callable[[Path], None]) -> Path:
    """Write out/onetool-wasm-web-<version>/ and its .tgz from the built `site` (dist/site);
    `write_manifest(folder)` writes folder/onetool-manifest.json. Returns the folder."""
    site, out = Path(site), Path(out)
    version = json.loads((site / MANIFEST_NAME).read_text())["version"]
    name = f"{PACKAGE_NAME}-{version}"
    folder = out / name
    if out.exists():
        shutil.rmtree(out)  # no stale version left beside the new one
    folder.mkdir(parents=True)

    for relative in runtime_files(site):
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(site / relative, target)
    shutil.copy2(ROOT / "LICENSE", folder / "LICENSE")
    (folder / "README.md").write_text(package_readme(version))
    (folder / "package.json").write_text(json.dumps(package_json(version), indent=2) + "\n")
    write_manifest(folder)  # last: it lists every other file of the folder
    write_tarball(folder, out / f"{name}.tgz")
    return folder


def runtime_files(site: Path) -> list[str]:
    """Paths (relative to `site`, "/"-separated, sorted) of the site files the runtime needs."""
    files = set(module_closure(site, ENTRY_MODULES))
    files.update(path for path in OPTIONAL_FILES if (site / path).is_file())
    for folder in RUNTIME_FOLDERS:
        files.update(p.relative_to(site).as_posix() for p in (site / folder).rglob("*") if p.is_file())
    return sorted(files)


def module_closure(site: Path, entries) -> list[str]:
    """The entry modules and every site file they reference, transitively (JS files are read
    for their references; others, like CSS, are leaves). The manifest is written, not copied."""
    seen, todo = set(), list(entries)
    while todo:
        relative = todo.pop()
        if relative in seen or relative == MANIFEST_NAME:
            continue
        path = site / relative
        if not path.is_file():
            raise FileNotFoundError(f"{path}: referenced by the runtime's modules but not in the site")
        seen.add(relative)
        if path.suffix in (".js", ".mjs"):
            base = path.parent
            for match in _REFERENCE.finditer(without_comments(path.read_text())):
                target = (base / (match.group(1) or match.group(2))).resolve()
                todo.append(target.relative_to(site.resolve()).as_posix())
    return sorted(seen)


def without_comments(source: str) -> str:
    """JS source without /* */ blocks and whole-line // comments (their usage examples name
    paths relative to a page, not to the module)."""
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    return re.sub(r"(?m)^\s*//.*$", "", source)


def package_json(version: str) -> dict:
    return {
        "name": PACKAGE_NAME,
        "version": version,
        "description": "onetool-wasm in the browser: a bash-like `run` tool for AI agents on Pyodide, "
                       "in a Web Worker (createOneTool and <onetool-sandbox>)",
        "license": "MIT",
        "type": "module",
        "types": "./js/onetool.d.ts",
        "exports": {
            "./onetool.js": {"types": "./js/onetool.d.ts", "default": "./js/onetool.js"},
            "./sandbox-element.js": "./js/sandbox-element.js",
            "./offline.js": "./js/offline.js",
            "./package.json": "./package.json",
        },
        "files": ["js/", "css/", "pyodide/", "wheels/", "boot/", MANIFEST_NAME, "sw.js", "README.md", "LICENSE"],
        "sideEffects": ["./js/sandbox-element.js", "./js/offline.js"],
    }


def package_readme(version: str) -> str:
    return f"""# {PACKAGE_NAME} {version}

The browser runtime of onetool-wasm {version}: one `run` tool for AI
agents (a bash-like shell over a virtual file system), running on Pyodide in a Web Worker.
Everything it loads is in this folder: serve the folder as static files, under any path, on
your site's origin or on another one.

```js
import {{ createOneTool }} from "./onetool/js/onetool.js";   // where you put this folder
const tool = await createOneTool({{ storage: {{ kind: "memory" }} }});
console.log(await tool.run("echo hello | wc -c"));
```

```html
<script type="module" src="./onetool/js/sandbox-element.js"></script>
<onetool-sandbox label="try it" autorun="help"></onetool-sandbox>
```

* `js/` the API (`onetool.js`, types in `onetool.d.ts`), the element (`sandbox-element.js`)
  and the worker they start; `js/offline.js` + `sw.js` are optional (offline use).
* `pyodide/` Pyodide (MPL-2.0) with this folder's own `pyodide-lock.json`; `wheels/` the
  Python packages (each wheel carries its license); `onetool-manifest.json` lists every file
  with its size and sha256 (do not edit the files: the boot snapshot is keyed by them).
* Serve `.wasm` as `application/wasm` and `.js`/`.mjs` as `text/javascript`. From another
  origin, send `Access-Control-Allow-Origin` and `Cross-Origin-Resource-Policy: cross-origin`.
  For the shared-memory interrupt the page needs `Cross-Origin-Opener-Policy: same-origin` and
  `Cross-Origin-Embedder-Policy: require-corp`.

The full guide (same-origin and cross-origin setups, headers, service worker, limits) is
docs/EMBEDDING.md in the onetool-wasm repository.
"""


def write_tarball(folder: Path, path: Path) -> None:
    """`npm pack`-like: every file under `package/`, sorted, fixed times and owners, gzip."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for file in sorted(p for p in folder.rglob("*") if p.is_file()):
            info = tarfile.TarInfo("package/" + file.relative_to(folder).as_posix())
            info.size = file.stat().st_size
            info.mtime = TAR_MTIME
            info.mode = 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            with file.open("rb") as data:
                archive.addfile(info, data)
    # Level 3: 7.6 MB in 0.4 s here; level 6 saves 0.3 MB for 0.6 s more (measured on this build).
    with path.open("wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=3) as out:
        out.write(buffer.getvalue())


def folder_size(folder: Path) -> tuple[int, int]:
    """(files, bytes) of a folder."""
    files = [p for p in Path(folder).rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def build_and_report(site: Path, out: Path, write_manifest: Callable[[Path], None]) -> Path:
    """build_runtime_dist, then one line: the folder, its files and size, the tarball's size."""
    folder = build_runtime_dist(site, out, write_manifest)
    count, size = folder_size(folder)
    tarball = folder.with_name(folder.name + ".tgz")
    try:
        shown = folder.relative_to(ROOT).as_posix()
    except ValueError:
        shown = str(folder)
    print(f"build: {shown}/ ready ({count} files, {size / 1e6:.1f} MB; "
          f"{tarball.name} {tarball.stat().st_size / 1e6:.1f} MB)", flush=True)
    return folder
