// compile_pyc.mjs — compile a site-packages folder to .pyc with Pyodide's own Python (Node).
//
//   node --experimental-wasm-stack-switching tools/compile_pyc.mjs <pyodide.mjs> <indexURL> <folder> <ddir>
//
// tools/site_pack.py calls it at build time: .pyc for Pyodide's Python (3.14, its magic number)
// cannot come from the build machine's CPython. The folder is mounted (NODEFS) and compiled in
// place with unchecked-hash .pyc (no source mtime check: the unpacked files get new mtimes in
// the browser); `ddir` is where the files live in the browser (tracebacks name it).
// Prints "compiled N files" and exits 1 if any file failed to compile.

import { pathToFileURL } from "node:url";

const [moduleFile, indexURL, folder, ddir] = process.argv.slice(2);
if (!ddir) {
  console.error("usage: compile_pyc.mjs <pyodide.mjs> <indexURL> <folder> <ddir>");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(moduleFile).href);
const pyodide = await loadPyodide({ indexURL, env: { PYTHONHASHSEED: "0" } });
const MOUNT = "/onetool-compile";
pyodide.FS.mkdirTree(MOUNT);
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, MOUNT);
pyodide.globals.set("MOUNT", MOUNT);
pyodide.globals.set("DDIR", ddir);
const result = pyodide.runPython(`
import compileall, io, contextlib, py_compile, sys
out = io.StringIO()
with contextlib.redirect_stdout(out):
    ok = compileall.compile_dir(MOUNT, ddir=DDIR, quiet=1, workers=1,
                                invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
import pathlib
count = sum(1 for _ in pathlib.Path(MOUNT).rglob("*.pyc"))
(bool(ok), count, out.getvalue(), sys.implementation.cache_tag)
`).toJs();
const [ok, count, output, tag] = result;
console.log(`compiled ${count} files (${tag})`);
if (!ok) {
  console.error(output);
  process.exit(1);
}
