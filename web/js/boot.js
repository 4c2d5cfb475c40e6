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
//   snapshot  loadPyodide({_loadSnapshot: memory}) with the site-packages files written back
//             by the fsInit hook before Python runs; `random` is reseeded. The snapshot comes
//             from IndexedDB (source "stored": this browser's, from an earlier visit) or, when
//             there is none or it is stale or bad, from the site (source "site": boot/
//             snapshot.bin, made at build time by tools/make_boot_snapshot.mjs, with the files
//             from the site pack), which is then stored for the next visit. Any problem with
//             both -> the cold path.
//   cold      loadPyodide({_makeSnapshot: true}), install the wheels, import onetool_wasm, then
//             take pyodide.makeMemorySnapshot() (a copy of the wasm memory, ~0.1 s) plus the
//             site-packages files (they live in Emscripten's MEMFS, outside that memory). The
//             caller stores it (saveSnapshot) after the page got `ready`.
// A stored snapshot that is stale (a new build) or bad is deleted; the site's snapshot, or a
// cold boot's capture, replaces it. Both paths end before any JS module of the worker is
// registered: a snapshot may only reference JS objects Pyodide can find again (globals), so
// worker.js registers its modules afterwards.
// `_makeSnapshot`, `_loadSnapshot` and makeMemorySnapshot() are private Pyodide API: checked
// against Pyodide 314.0.7 only (PINNED_PYODIDE); another version never uses a snapshot.

import { MARKER, PRELOAD, PYODIDE_ENV } from "./boot-preload.js";
import { watchDownloads } from "./download-progress.js";
import { deleteSnapshot, packFiles, readSnapshot, sha256Hex, snapshotKey, unpackFiles, writeSnapshot } from "./snapshot-store.js";

export const PINNED_PYODIDE = "314.0.7";
const MB = 1024 * 1024;
const NO_SNAPSHOT_YET = "no snapshot yet";

/**
 * -> {pyodide, manifest, boot: {path: "snapshot" | "cold", source: "stored" | "site" | null,
 *     reason, restoreMs, snapshotBytes}, pending}   pending: the snapshot to store with
 *     saveSnapshot(), or null
 */
export async function bootPyodide({ manifestURL, onProgress = () => {}, useSnapshot = true }) {
  const phases = phaseClock();
  // The record (~40 MB) is read from IndexedDB while the manifest and pyodide.mjs load.
  const reading = useSnapshot ? readSnapshot().then((record) => ({ record }), (error) => ({ error })) : null;
  const manifest = await fetchJSON(manifestURL);
  const site = siteOf(manifest, manifestURL);
  const { loadPyodide } = await import(new URL("pyodide.mjs", site.indexURL).href);
  phases.mark("manifest");
  const key = snapshotKey(manifest);

  let reason = null; // why no snapshot was used so far
  let stale = false;
  const found = useSnapshot ? await findSnapshot(manifest, key, reading) : { reason: "snapshots are turned off" };
  phases.mark("snapshotLookup");
  if (found.record) {
    try {
      return await restore({ loadPyodide, manifest, site, key, record: found.record, verified: found.verified, onProgress, phases });
    } catch (error) {
      reason = error?.snapshotReason ?? `the snapshot could not be restored (${error?.message ?? error})`;
      stale = true;
    }
  } else {
    ({ reason, stale = false } = found);
  }
  // A bad record goes at once, so a failing snapshot is not tried again; what this boot
  // restores or captures replaces it.
  const cleared = stale ? deleteSnapshot().catch(() => undefined) : Promise.resolve();
  if (useSnapshot && siteSnapshotOf(manifest)) {
    const why = reason === NO_SNAPSHOT_YET ? null : reason;
    try {
      const restored = await restoreFromSite({ loadPyodide, manifest, site, key, reason: why, onProgress, phases });
      return { ...restored, pending: { ...restored.pending, after: cleared } };
    } catch (error) {
      const failed = error?.snapshotReason ?? `the site's boot snapshot could not be restored (${error?.message ?? error})`;
      reason = why ? `${why}; ${failed}` : failed;
    }
  }
  const booted = await coldBoot({ loadPyodide, manifest, site, key, reason, onProgress, makeSnapshot: useSnapshot, phases });
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

const CORRUPTED = "the snapshot is corrupted (checksum mismatch)";

/** {record, verified: Promise<bool> (the memory's sha256, checked while Pyodide compiles)} or {reason, stale}. */
async function findSnapshot(manifest, key, reading) {
  if (manifest.pyodideVersion !== PINNED_PYODIDE) {
    return { reason: `snapshots are only used with Pyodide ${PINNED_PYODIDE}, not ${manifest.pyodideVersion}` };
  }
  const { record, error } = await reading;
  if (error) return { reason: `the snapshot store could not be read (${error?.message ?? error})` };
  if (!record) return { reason: NO_SNAPSHOT_YET };
  if (record.key !== key) return { reason: "the snapshot was made for another version of the site", stale: true };
  const { memory, files, fileIndex, sha256 } = record;
  if (!(memory instanceof Uint8Array) || !(files instanceof Uint8Array) || !Array.isArray(fileIndex) ||
      typeof sha256 !== "string") {
    return { reason: CORRUPTED, stale: true };
  }
  return { record, verified: sha256Hex(memory).then((hex) => hex === sha256, () => false) };
}

/** Restore the stored snapshot `record`. */
async function restore({ loadPyodide, manifest, site, key, record, verified, onProgress, phases }) {
  const size = record.memory.byteLength + record.files.byteLength;
  onProgress({ phase: "snapshot", loaded: 0, total: 1, boot: "snapshot", bootReason: null,
               message: `restoring from the boot snapshot (${(size / MB).toFixed(1)} MB)` });
  const downloads = watchRuntime(manifest, site, onProgress, `Pyodide ${manifest.pyodideVersion}`);
  const restored = await restoreRecord({ loadPyodide, site, record, marker: record.marker ?? key, verified, downloads, onProgress, phases });
  return { ...restored, manifest, pending: null, boot: { ...restored.boot, source: "stored", snapshotBytes: size, phases: phases.done() } };
}

/** Restore the site's boot snapshot (boot/snapshot.bin and the site pack); it becomes the
 *  stored snapshot of the next visit. `reason`: why the stored one was not used (null: none yet). */
async function restoreFromSite({ loadPyodide, manifest, site, key, reason, onProgress, phases }) {
  const { path, key: marker, sitePackages } = manifest.bootSnapshot;
  const url = new URL(path, site.root).href;
  const packURL = sitePackURL(manifest, site);
  onProgress({ phase: "snapshot", loaded: 0, total: 1, boot: "snapshot", bootReason: reason,
               message: `restoring from the site's boot snapshot (${(manifest.files[path].size / MB).toFixed(1)} MB)` });
  const downloads = watchRuntime(manifest, site, onProgress, `Pyodide ${manifest.pyodideVersion} and its boot snapshot`, [url, packURL]);
  // Both files are here before Pyodide starts compiling its wasm: started together on this
  // machine's two cores, the download (checksum and gunzip included) and the compile took longer.
  let record;
  try {
    const [memory, pack] = await Promise.all([
      fetchVerified(url, manifest.files[path].sha256).then(gunzipped),
      fetchPack(packURL, manifest.files[packURL.slice(site.root.length)].sha256),
    ]);
    const fileIndex = pack.index.map(([file, offset, length]) => [`${sitePackages}/${file}`, offset, length]);
    record = { key, marker, memory, files: pack.files, fileIndex, makeMs: 0 };
  } catch (error) {
    downloads.stop();
    throw Object.assign(error, { snapshotReason: `the site's boot snapshot could not be fetched (${error?.message ?? error})` });
  }
  const restored = await restoreRecord({ loadPyodide, site, record, marker, verified: Promise.resolve(true), downloads, onProgress, phases });
  const bytes = record.memory.byteLength + record.files.byteLength;
  return { ...restored, manifest, pending: record, boot: { ...restored.boot, source: "site", reason, snapshotBytes: bytes, phases: phases.done() } };
}

/** loadPyodide from `record`'s memory and files; `marker`: what its __main__ must hold. */
async function restoreRecord({ loadPyodide, site, record, marker, verified, downloads, onProgress, phases }) {
  const started = performance.now();
  let pyodide;
  try {
    pyodide = await loadPyodide({
      ...baseOptions(site),
      _loadSnapshot: record.memory,
      createPyodideModule: await moduleBigEnoughFor(record.memory, site, verified),
      fsInit: async (FS) => unpackFiles(FS, record),
    });
  } finally {
    downloads.stop();
  }
  phases.mark("restore");
  // A snapshot of something else restores fine and then lacks the runtime: check both.
  if (pyodide.globals.get(MARKER) !== marker) throw new Error("the snapshot was not made by this site");
  pyodide.runPython(`${PRELOAD}\nimport random\nrandom.seed()`); // a restored PRNG would repeat itself
  phases.mark("import");
  const restoreMs = Math.round(performance.now() - started);
  onProgress({ phase: "snapshot", loaded: 1, total: 1, message: `restored from the boot snapshot in ${restoreMs} ms` });
  return { pyodide, boot: { path: "snapshot", reason: null, restoreMs } };
}

// Pyodide 314.0.7 sets INITIAL_MEMORY to the snapshot's size, but its wasm exports its own
// memory (30 MB at start), so restoring a bigger heap fails ("offset is out of bounds"). The
// module is created as loadPyodide would, then grown to the heap's size before the copy.
// The memory is only copied after this returns: its checksum (`verified`) is awaited here, so it
// is computed while the wasm compiles.
async function moduleBigEnoughFor(memory, site, verified) {
  const { default: createModule } = await import(new URL("pyodide.asm.mjs", site.indexURL).href);
  const header = new DataView(memory.buffer, memory.byteOffset, 8).getUint32(4, true); // header length
  const heap = memory.byteLength - header;
  return async (settings) => {
    const Module = await createModule(settings);
    if (!(await verified)) throw Object.assign(new Error(CORRUPTED), { snapshotReason: CORRUPTED });
    if (Module.HEAP8.length < heap && !Module.growMemory(heap)) throw new Error(`cannot grow the memory to ${heap} bytes`);
    return Module;
  };
}

/** The manifest's site snapshot, when this boot can use it (Pyodide pinned, the site pack there). */
function siteSnapshotOf(manifest) {
  const snapshot = manifest.bootSnapshot;
  return manifest.pyodideVersion === PINNED_PYODIDE && snapshot?.path && manifest.files?.[snapshot.path] &&
    manifest.sitePack && manifest.files?.[manifest.sitePack] ? snapshot : null;
}

// --- the cold path --------------------------------------------------------------------------------

async function coldBoot({ loadPyodide, manifest, site, key, reason, onProgress, makeSnapshot, phases }) {
  onProgress({ phase: "pyodide", loaded: 0, total: 1, boot: "cold", bootReason: reason,
               message: `cold boot (${reason}): loading Pyodide ${manifest.pyodideVersion}` });
  // The site pack (the wheels installed, with .pyc) downloads while Pyodide loads.
  const packURL = sitePackURL(manifest, site);
  const label = `Pyodide ${manifest.pyodideVersion}${packURL ? ` and ${manifest.packages.length} packages` : ""}`;
  const downloads = watchRuntime(manifest, site, onProgress, label, [packURL]);
  let pyodide;
  let pack = null;
  try {
    pack = packURL ? fetchPack(packURL, manifest.files[packURL.slice(site.root.length)].sha256) : null;
    pack?.catch(() => undefined); // reported below, after Pyodide loaded
    pyodide = await loadPyodide({ ...baseOptions(site), _makeSnapshot: makeSnapshot });
    phases.mark("loadPyodide");
    pack = await pack?.catch((error) => void console.warn("onetool: the site pack could not be fetched:", error?.message ?? error));
    phases.mark("packagesDownload");
  } finally {
    downloads.stop();
  }
  onProgress({ phase: "pyodide", loaded: 1, total: 1, message: `Pyodide ${pyodide.version} loaded` });

  if (!(pack && installPack(pyodide, manifest, pack, onProgress))) await loadPackages(pyodide, manifest, site, onProgress, phases);
  phases.mark("packagesInstall");
  onProgress({ phase: "runtime", loaded: 0, total: 1, message: "importing onetool_wasm" });
  pyodide.runPython(PRELOAD);
  phases.mark("import");

  const boot = { path: "cold", source: null, reason, restoreMs: null, snapshotBytes: null };
  let pending = null;
  if (makeSnapshot) {
    try {
      pending = capture(pyodide, key);
    } catch (error) {
      console.warn("onetool: no boot snapshot this time:", error?.message ?? error);
      boot.snapshotError = String(error?.message ?? error);
    }
    phases.mark("snapshotCapture");
  }
  boot.phases = phases.done();
  return { pyodide, manifest, boot, pending };
}

// --- the site pack (tools/site_pack.py): every wheel installed, with .pyc, in one file -----------

function sitePackURL(manifest, site) {
  const path = manifest.sitePack;
  return path && manifest.files?.[path] && Array.isArray(manifest.packages) ? new URL(path, site.root).href : null;
}

/** The pack's {files, index}; the browser checks its bytes against the manifest's sha256. */
async function fetchPack(url, sha256) {
  return unpackPack(await gunzipped(await fetchVerified(url, sha256)));
}

/** The bytes at `url`, checked by the browser against the manifest's sha256 (hex). */
async function fetchVerified(url, sha256) {
  const integrity = `sha256-${btoa(String.fromCharCode(...sha256.match(/../g).map((h) => parseInt(h, 16))))}`;
  let response;
  try {
    response = await fetch(url, { integrity });
  } catch (error) { // the browser says no more than "Failed to fetch"
    throw new Error(`${url}: ${error?.message ?? error} (missing, or not the file the manifest lists)`);
  }
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** gzip'd bytes decoded (bytes a server already decoded pass as they are). */
async function gunzipped(bytes) {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
}

const PACK_MAGIC = "OTPK1\n";

/** The pack's {files, index} (tools/site_pack.py's format). */
function unpackPack(raw) {
  if (new TextDecoder().decode(raw.subarray(0, PACK_MAGIC.length)) !== PACK_MAGIC) throw new Error("not a site pack");
  const length = new DataView(raw.buffer, raw.byteOffset + PACK_MAGIC.length, 4).getUint32(0, true);
  const start = PACK_MAGIC.length + 4;
  const index = JSON.parse(new TextDecoder().decode(raw.subarray(start, start + length)));
  return { files: raw.subarray(start + length), index };
}

function installPack(pyodide, manifest, { files, index }, onProgress) {
  const count = manifest.packages.length;
  onProgress({ phase: "packages", loaded: 0, total: 1, message: `installing ${count} packages` });
  try {
    const root = pyodide.runPython("import pyodide._package_loader as _l; str(_l.SITE_PACKAGES)");
    const FS = pyodide.FS;
    const made = new Set();
    for (const [path, offset, length] of index) {
      const full = `${root}/${path}`;
      const dir = full.slice(0, full.lastIndexOf("/"));
      if (!made.has(dir)) { FS.mkdirTree(dir); made.add(dir); }
      FS.writeFile(full, files.subarray(offset, offset + length));
    }
    pyodide.runPython("import importlib; importlib.invalidate_caches()");
  } catch (error) {
    console.warn("onetool: the site pack could not be installed, loading the wheels:", error?.message ?? error);
    return false;
  }
  // What loadPackage records for a package of the lock file (the snapshot capture reads it).
  for (const name of manifest.packages) pyodide.loadedPackages[name] = "default channel";
  onProgress({ phase: "packages", loaded: 1, total: 1, message: `installed ${count} packages` });
  return true;
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

async function loadPackages(pyodide, manifest, site, onProgress, phases) {
  phases.mark("packagesDownload");
  const wanted = manifest.packages;
  const errors = [];
  let installed = 0;
  const count = wanted.length;
  const message = () => `installing ${count} packages (${installed} done)`;
  const sizes = filesUnder(manifest, site, "wheels/");
  const downloads = watchDownloads(sizes, ({ loaded, total }) => {
    onProgress({ phase: "packages", loaded, total, message: `downloading ${count} packages: ${kb(loaded)} of ${kb(total)} kB` });
  });
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

/** Wall-clock ms per boot phase: mark(name) ends the phase `name` (a name marked twice keeps its first end). */
function phaseClock() {
  const phases = {};
  let last = performance.now();
  return {
    mark(name) {
      if (name in phases) return;
      const now = performance.now();
      phases[name] = Math.round(now - last);
      last = now;
    },
    done: () => ({ ...phases }),
  };
}

function baseOptions(site) {
  return {
    indexURL: site.indexURL,
    lockFileURL: site.lockFileURL,
    env: { ...PYODIDE_ENV },
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

/** Bytes of pyodide.asm.wasm and the standard library (and `extraURLs`) as "pyodide" progress. */
function watchRuntime(manifest, site, onProgress, label, extraURLs = []) {
  const names = ["pyodide.asm.wasm", "python_stdlib.zip"].map((name) => new URL(name, site.indexURL).href);
  names.push(...extraURLs.filter(Boolean));
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
