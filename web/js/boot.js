// boot.js — start Pyodide from the site's own files, from the boot snapshot when there is one.
//
// The build (build.py) writes onetool-manifest.json at the site's root:
//   {pyodideVersion, indexURL, lockFileURL, packages: [names], wheel, version, lockSha256,
//    wheels: {file: sha256}, siteHash, files: {path: {size, sha256}}}
// Pyodide comes from indexURL, the wheels from the lock file beside it (URLs relative to the
// lock file, each checked by the browser against the lock's sha256). Nothing is fetched from
// another origin.
//
// Two paths (docs/BROWSER.md, "Boot snapshot"):
//   cold      loadPyodide({_makeSnapshot: true}), install the wheels, import onetool_wasm, then
//             take pyodide.makeMemorySnapshot() (a copy of the wasm memory, ~0.1 s) plus the
//             site-packages files (they live in Emscripten's MEMFS, outside that memory). The
//             caller stores it (saveSnapshot) after the page got `ready`.
//   snapshot  loadPyodide({_loadSnapshot: memory}) with the files written back by the fsInit
//             hook before Python runs; `random` is reseeded. Any problem -> the cold path.
// Both end before any JS module of the worker is registered: a snapshot may only reference
// JS objects Pyodide can find again (globals), so worker.js registers its modules afterwards.
// `_makeSnapshot`, `_loadSnapshot` and makeMemorySnapshot() are private Pyodide API: checked
// against Pyodide 314.0.7 only (PINNED_PYODIDE); another version never uses a snapshot.

import { watchDownloads } from "./download-progress.js";
import { deleteSnapshot, packFiles, readSnapshot, sha256Hex, snapshotKey, unpackFiles, writeSnapshot } from "./snapshot-store.js";

export const PINNED_PYODIDE = "314.0.7";
const ENV = { ONETOOL_RUNTIME: "browser", PYTHONDONTWRITEBYTECODE: "1" };
// What the runtime needs before worker.js registers onetool_host / onetool_idb (the rest of
// onetool_wasm.browser imports those two), and the built-in command table (cached, the same
// work start() does anyway): this is what a snapshot holds already imported.
const PRELOAD = [
  "import onetool_wasm.browser.session, onetool_wasm.browser.bridge, onetool_wasm.browser.wire, pyodide.ffi",
  "import onetool_wasm.commands",
  "onetool_wasm.commands.builtin_groups()",
].join("\n");
const MARKER = "__onetool_snapshot__"; // in __main__: the key the snapshot was made for
const MB = 1024 * 1024;

/**
 * -> {pyodide, manifest, boot: {path: "snapshot" | "cold", reason, restoreMs, snapshotBytes},
 *     pending}   pending: the snapshot to store with saveSnapshot(), or null
 */
export async function bootPyodide({ manifestURL, onProgress = () => {}, useSnapshot = true }) {
  const manifest = await fetchJSON(manifestURL);
  const site = siteOf(manifest, manifestURL);
  const { loadPyodide } = await import(new URL("pyodide.mjs", site.indexURL).href);
  const key = snapshotKey(manifest);

  let reason;
  let stale = false;
  // Without cross-origin isolation the page stops a runaway command through a soft flag the
  // restored runtime answers too slowly (seconds): snapshots are kept for isolated pages.
  const isolated = globalThis.crossOriginIsolated === true;
  useSnapshot = useSnapshot && isolated;
  const found = useSnapshot ? await findSnapshot(manifest, key)
    : { reason: isolated ? "snapshots are turned off" : "the page is not cross-origin isolated (COOP/COEP)" };
  if (found.record) {
    try {
      return await restore({ loadPyodide, manifest, site, key, record: found.record, onProgress });
    } catch (error) {
      reason = `the snapshot could not be restored (${error?.message ?? error})`;
      stale = true;
    }
  } else {
    ({ reason, stale = false } = found);
  }
  // A bad record goes at once, so a failing snapshot is not tried again; the cold boot's replaces it.
  const cleared = stale ? deleteSnapshot().catch(() => undefined) : Promise.resolve();
  const booted = await coldBoot({ loadPyodide, manifest, site, key, reason, onProgress, makeSnapshot: useSnapshot });
  return { ...booted, pending: booted.pending && { ...booted.pending, after: cleared } };
}

/** Store what a cold boot captured (hashing it first); resolves to the record's size in bytes. */
export async function saveSnapshot(pending) {
  const { after, ...record } = pending;
  await after;
  record.sha256 = await sha256Hex(record.memory);
  record.createdAt = Date.now();
  await writeSnapshot(record);
  return record.memory.byteLength + record.files.byteLength;
}

// --- the snapshot path ------------------------------------------------------------------------

async function findSnapshot(manifest, key) {
  if (manifest.pyodideVersion !== PINNED_PYODIDE) {
    return { reason: `snapshots are only used with Pyodide ${PINNED_PYODIDE}, not ${manifest.pyodideVersion}` };
  }
  let record;
  try {
    record = await readSnapshot();
  } catch (error) {
    return { reason: `the snapshot store could not be read (${error?.message ?? error})` };
  }
  if (!record) return { reason: "no snapshot yet" };
  if (record.key !== key) return { reason: "the snapshot was made for another version of the site", stale: true };
  const { memory, files, fileIndex, sha256 } = record;
  if (!(memory instanceof Uint8Array) || !(files instanceof Uint8Array) || !Array.isArray(fileIndex) ||
      typeof sha256 !== "string" || (await sha256Hex(memory)) !== sha256) {
    return { reason: "the snapshot is corrupted (checksum mismatch)", stale: true };
  }
  return { record };
}

async function restore({ loadPyodide, manifest, site, key, record, onProgress }) {
  const started = performance.now();
  const size = record.memory.byteLength + record.files.byteLength;
  onProgress({ phase: "snapshot", loaded: 0, total: 1, boot: "snapshot", bootReason: null,
               message: `restoring from the boot snapshot (${(size / MB).toFixed(1)} MB)` });
  const downloads = watchRuntime(manifest, site, onProgress, `Pyodide ${manifest.pyodideVersion}`);
  let pyodide;
  try {
    pyodide = await loadPyodide({
      ...baseOptions(site),
      _loadSnapshot: record.memory,
      createPyodideModule: await moduleBigEnoughFor(record.memory, site),
      fsInit: async (FS) => unpackFiles(FS, record),
    });
  } finally {
    downloads.stop();
  }
  // A snapshot of something else restores fine and then lacks the runtime: check both.
  const marker = pyodide.globals.get(MARKER);
  if (marker !== key) throw new Error("the snapshot was not made by this site");
  pyodide.runPython(`${PRELOAD}\nimport random\nrandom.seed()`); // a restored PRNG would repeat itself
  const restoreMs = Math.round(performance.now() - started);
  onProgress({ phase: "snapshot", loaded: 1, total: 1, message: `restored from the boot snapshot in ${restoreMs} ms` });
  return { pyodide, manifest, pending: null, boot: { path: "snapshot", reason: null, restoreMs, snapshotBytes: size } };
}

// Pyodide 314.0.7 sets INITIAL_MEMORY to the snapshot's size, but its wasm exports its own
// memory (30 MB at start), so restoring a bigger heap fails ("offset is out of bounds"). The
// module is created as loadPyodide would, then grown to the heap's size before the copy.
async function moduleBigEnoughFor(memory, site) {
  const { default: createModule } = await import(new URL("pyodide.asm.mjs", site.indexURL).href);
  const header = new DataView(memory.buffer, memory.byteOffset, 8).getUint32(4, true); // header length
  const heap = memory.byteLength - header;
  return async (settings) => {
    const Module = await createModule(settings);
    if (Module.HEAP8.length < heap && !Module.growMemory(heap)) throw new Error(`cannot grow the memory to ${heap} bytes`);
    return Module;
  };
}

// --- the cold path --------------------------------------------------------------------------------

async function coldBoot({ loadPyodide, manifest, site, key, reason, onProgress, makeSnapshot }) {
  onProgress({ phase: "pyodide", loaded: 0, total: 1, boot: "cold", bootReason: reason,
               message: `cold boot (${reason}): loading Pyodide ${manifest.pyodideVersion}` });
  const downloads = watchRuntime(manifest, site, onProgress, `Pyodide ${manifest.pyodideVersion}`);
  let pyodide;
  try {
    pyodide = await loadPyodide({ ...baseOptions(site), _makeSnapshot: makeSnapshot });
  } finally {
    downloads.stop();
  }
  onProgress({ phase: "pyodide", loaded: 1, total: 1, message: `Pyodide ${pyodide.version} loaded` });

  await loadPackages(pyodide, manifest, site, onProgress);
  onProgress({ phase: "runtime", loaded: 0, total: 1, message: "importing onetool_wasm" });
  pyodide.runPython(PRELOAD);

  const boot = { path: "cold", reason, restoreMs: null, snapshotBytes: null };
  let pending = null;
  if (makeSnapshot) {
    try {
      pending = capture(pyodide, key);
    } catch (error) {
      console.warn("onetool: no boot snapshot this time:", error?.message ?? error);
      boot.snapshotError = String(error?.message ?? error);
    }
  }
  return { pyodide, manifest, boot, pending };
}

function capture(pyodide, key) {
  const started = performance.now();
  pyodide.runPython(`${MARKER} = ${JSON.stringify(key)}`);
  const sitePackages = pyodide.runPython("import pyodide._package_loader as _l; str(_l.SITE_PACKAGES)");
  // Pyodide 314.0.7 checks that the JS object behind pyodide.loadedPackages (a fixed slot of its
  // reference table) is still `{}`; on restore it fills a new one from the installed
  // dist-info folders. So it is emptied for the moment of the copy.
  const loaded = pyodide.loadedPackages;
  const saved = { ...loaded };
  for (const name of Object.keys(loaded)) delete loaded[name];
  let memory;
  try {
    memory = pyodide.makeMemorySnapshot();
  } finally {
    Object.assign(loaded, saved);
  }
  const { files, fileIndex } = packFiles(pyodide.FS, sitePackages);
  return { key, memory, files, fileIndex, makeMs: Math.round(performance.now() - started) };
}

async function loadPackages(pyodide, manifest, site, onProgress) {
  const wanted = manifest.packages;
  const errors = [];
  let installed = 0;
  const count = wanted.length;
  const message = () => `installing ${count} packages (${installed} done)`;
  const sizes = filesUnder(manifest, site, "wheels/");
  const downloads = watchDownloads(sizes, ({ loaded, total }) =>
    onProgress({ phase: "packages", loaded, total, message: `downloading ${count} packages: ${kb(loaded)} of ${kb(total)} kB` }));
  onProgress({ phase: "packages", loaded: 0, total: downloads.total || count, message: message() });
  try {
    await pyodide.loadPackage(wanted, {
      messageCallback: (text) => {
        const done = /^Loaded (.*)$/.exec(text);
        if (done) installed = Math.min(count, installed + done[1].split(",").length);
        onProgress({ phase: "packages", loaded: downloads.loaded(), total: downloads.total || count, message: text });
      },
      errorCallback: (text) => errors.push(text),
    });
  } finally {
    downloads.stop();
  }
  const have = new Set(Object.keys(pyodide.loadedPackages));
  const missing = wanted.filter((name) => !have.has(name));
  if (errors.length || missing.length) {
    throw new Error(`packages failed to load: ${missing.join(", ") || "(none missing)"}${errors.length ? "\n" + errors.join("\n") : ""}`);
  }
  const total = downloads.total || count;
  onProgress({ phase: "packages", loaded: total, total, message: `installed ${count} packages` });
}

// --- shared ------------------------------------------------------------------------------------

function baseOptions(site) {
  return {
    indexURL: site.indexURL,
    lockFileURL: site.lockFileURL,
    env: { ...ENV },
    stdout: (line) => console.log(line),
    stderr: (line) => console.warn(line),
  };
}

function siteOf(manifest, manifestURL) {
  return {
    root: new URL("./", manifestURL).href,
    indexURL: new URL(manifest.indexURL, manifestURL).href,
    lockFileURL: new URL(manifest.lockFileURL, manifestURL).href,
  };
}

/** Bytes of pyodide.asm.wasm and the standard library as "pyodide" progress. */
function watchRuntime(manifest, site, onProgress, label) {
  const names = ["pyodide.asm.wasm", "python_stdlib.zip"].map((name) => new URL(name, site.indexURL).href);
  const sizes = Object.fromEntries(Object.entries(filesUnder(manifest, site, "")).filter(([url]) => names.includes(url)));
  return watchDownloads(sizes, ({ loaded, total }) =>
    onProgress({ phase: "pyodide", loaded, total, message: `downloading ${label}: ${(loaded / MB).toFixed(1)} of ${(total / MB).toFixed(1)} MB` }));
}

/** {absolute URL: size} of the manifest's files whose path starts with `prefix`. */
function filesUnder(manifest, site, prefix) {
  const out = {};
  for (const [path, { size }] of Object.entries(manifest.files ?? {})) {
    if (path.startsWith(prefix)) out[new URL(path, site.root).href] = size;
  }
  return out;
}

function kb(bytes) {
  return Math.round(bytes / 1024);
}

async function fetchJSON(url) {
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} (run \`python build.py build\`)`);
  return response.json();
}
