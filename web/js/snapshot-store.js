// snapshot-store.js — the boot snapshot in IndexedDB: one record, replaced as a whole.
//
// Database "onetool-boot-snapshot" (version 1), object store "snapshots", keyPath "id"; the one
// record has id "current":
//   {id, key, marker, memory: Uint8Array (pyodide.makeMemorySnapshot()), sha256: hex of memory,
//    files: Uint8Array (the site-packages files, concatenated), fileIndex: [[path, offset,
//    length]], createdAt: ms since the epoch, makeMs}
// `memory` is kept without its all-zero 64 KiB pages (about a third of it: less to read on
// every boot): stored as {memoryLength, memoryPages: [page numbers kept], memoryData}, given
// back whole by readSnapshot().
// `key` (snapshotKey) names what the memory was made from; a record with another key is stale.
// The user's file systems live in other databases (idb-store.js): nothing here touches them.

export const SNAPSHOT_DB = "onetool-boot-snapshot";
const STORE = "snapshots";
const RECORD_ID = "current";
// Bump when what a snapshot holds changes without the site's files changing.
export const SNAPSHOT_FORMAT = 1;

/** The key a snapshot must carry to be restored: Pyodide, lock and wheels, the site's content. */
export function snapshotKey(manifest) {
  const wheels = Object.entries(manifest.wheels ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)).map(([f, sha]) => `${f}=${sha}`);
  return [
    `format=${SNAPSHOT_FORMAT}`,
    `pyodide=${manifest.pyodideVersion}`,
    `lock=${manifest.lockSha256 ?? "?"}`,
    `wheels=${wheels.join(",")}`,
    `site=${manifest.version}+${manifest.siteHash ?? "?"}`,
  ].join(";");
}

/** The stored record, or null. */
export async function readSnapshot() {
  const db = await openDb();
  try {
    const stored = await request(db.transaction(STORE, "readonly").objectStore(STORE).get(RECORD_ID));
    return stored ? withWholeMemory(stored) : null;
  } finally {
    db.close();
  }
}

export async function writeSnapshot(record) {
  const db = await openDb();
  try {
    const tx = db.transaction(STORE, "readwrite");
    tx.objectStore(STORE).put({ ...withSparseMemory(record), id: RECORD_ID });
    await committed(tx);
  } finally {
    db.close();
  }
}

export async function deleteSnapshot() {
  const db = await openDb();
  try {
    const tx = db.transaction(STORE, "readwrite");
    tx.objectStore(STORE).delete(RECORD_ID);
    await committed(tx);
  } finally {
    db.close();
  }
}

export async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// --- the memory without its zero pages -----------------------------------------------------------

const PAGE = 65536;

function withSparseMemory({ memory, ...record }) {
  if (!(memory instanceof Uint8Array)) return { ...record, memory };
  const pages = [];
  for (let start = 0; start < memory.byteLength; start += PAGE) {
    if (!isZero(memory.subarray(start, start + PAGE))) pages.push(start / PAGE);
  }
  const data = new Uint8Array(pages.reduce((sum, page) => sum + pageBytes(memory.byteLength, page), 0));
  let offset = 0;
  for (const page of pages) {
    const bytes = memory.subarray(page * PAGE, page * PAGE + PAGE);
    data.set(bytes, offset);
    offset += bytes.byteLength;
  }
  return { ...record, memoryLength: memory.byteLength, memoryPages: pages, memoryData: data };
}

function withWholeMemory({ memoryLength, memoryPages, memoryData, ...record }) {
  if (!(memoryData instanceof Uint8Array) || !Array.isArray(memoryPages)) return record; // not sparse (or broken)
  const memory = new Uint8Array(memoryLength);
  let offset = 0;
  for (const page of memoryPages) {
    const length = pageBytes(memoryLength, page);
    memory.set(memoryData.subarray(offset, offset + length), page * PAGE);
    offset += length;
  }
  return { ...record, memory };
}

function pageBytes(total, page) {
  return Math.min(PAGE, total - page * PAGE);
}

function isZero(bytes) {
  const words = bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2) : null;
  if (words) {
    for (let i = 0; i < words.length; i++) if (words[i] !== 0) return false;
  }
  for (let i = words ? words.length * 4 : 0; i < bytes.byteLength; i++) if (bytes[i] !== 0) return false;
  return true;
}

// --- the site-packages files (they live in Emscripten's MEMFS, outside the wasm memory) -------

/** Every file under `root` in the Emscripten FS as {files: Uint8Array, fileIndex}. */
export function packFiles(FS, root) {
  const found = [];
  const walk = (dir) => {
    for (const name of FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const path = `${dir}/${name}`;
      const mode = FS.lstat(path).mode;
      if (FS.isDir(mode)) walk(path);
      else if (FS.isFile(mode)) found.push([path, FS.readFile(path)]);
    }
  };
  walk(root);
  const total = found.reduce((sum, [, data]) => sum + data.length, 0);
  const files = new Uint8Array(total);
  const fileIndex = [];
  let offset = 0;
  for (const [path, data] of found) {
    files.set(data, offset);
    fileIndex.push([path, offset, data.length]);
    offset += data.length;
  }
  return { files, fileIndex };
}

/** Write the packed files back (before Python starts: Pyodide's fsInit hook). */
export function unpackFiles(FS, { files, fileIndex }) {
  for (const [path, offset, length] of fileIndex) {
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, files.subarray(offset, offset + length));
  }
}

// --- IndexedDB -----------------------------------------------------------------------------------

function openDb() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(SNAPSHOT_DB, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE, { keyPath: "id" });
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
    open.onblocked = () => reject(new Error("the snapshot database is blocked by another tab"));
  });
}

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function committed(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("transaction aborted"));
  });
}
