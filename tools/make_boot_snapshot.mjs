// make_boot_snapshot.mjs — the site's boot snapshot, made in Node at build time.
//
//   node --experimental-wasm-stack-switching tools/make_boot_snapshot.mjs <pyodide dir> <site pack> <key> <out>
//
// tools/boot_snapshot.py calls it. It starts Pyodide as a browser's cold boot does (web/js/
// boot-preload.js: the same environment, the same imports), installs the site pack into
// site-packages, records `key` under MARKER and writes pyodide.makeMemorySnapshot(), gzipped,
// to <out>. A first visit restores it instead of booting cold (web/js/boot.js). The snapshot
// is of the wasm memory only: the site-packages files come back from the site pack.
// Prints "snapshot N bytes (gzip M) in <site-packages folder>".

import fs from "node:fs";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

const [pyodideDir, packFile, key, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: make_boot_snapshot.mjs <pyodide dir> <site pack> <key> <out>");
  process.exit(2);
}
// Emscripten names the program after Node's script (sys.executable, $_): as in a browser, it is
// "./this.program" once the script's path is out of argv.
process.argv.length = 1;

const { MARKER, PRELOAD, PYODIDE_ENV } = await import(new URL("../web/js/boot-preload.js", import.meta.url).href);
const PACK_MAGIC = "OTPK1\n";

const indexURL = pyodideDir.endsWith("/") ? pyodideDir : pyodideDir + "/";
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL, env: { ...PYODIDE_ENV }, _makeSnapshot: true });

const { index, files } = readPack(fs.readFileSync(packFile));
const root = pyodide.runPython("import pyodide._package_loader as _l; str(_l.SITE_PACKAGES)");
for (const [path, offset, length] of index) {
  const full = `${root}/${path}`;
  pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
  pyodide.FS.writeFile(full, files.subarray(offset, offset + length));
}
pyodide.runPython("import importlib; importlib.invalidate_caches()");
pyodide.runPython(PRELOAD);
pyodide.runPython(`${MARKER} = ${JSON.stringify(key)}`);

const memory = pyodide.makeMemorySnapshot();
const packed = zlib.gzipSync(memory, { level: 9 });
fs.writeFileSync(out, packed);
console.log(`snapshot ${memory.byteLength} bytes (gzip ${packed.byteLength}) in ${root}`);

/** The site pack's {index, files} (tools/site_pack.py's format). */
function readPack(bytes) {
  const raw = bytes[0] === 0x1f && bytes[1] === 0x8b ? zlib.gunzipSync(bytes) : bytes;
  if (raw.subarray(0, PACK_MAGIC.length).toString() !== PACK_MAGIC) throw new Error(`${packFile}: not a site pack`);
  const length = raw.readUInt32LE(PACK_MAGIC.length);
  const start = PACK_MAGIC.length + 4;
  return { index: JSON.parse(raw.subarray(start, start + length).toString()), files: raw.subarray(start + length) };
}
