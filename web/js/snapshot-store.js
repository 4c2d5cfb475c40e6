// snapshot-store.js — the boot snapshot in IndexedDB: one record, replaced as a whole.
//
// Database "onetool-boot-snapshot" (version 1), object store "snapshots", keyPath "id"; the one
// record has id "current":
//   {id, key, memory: Uint8Array (pyodide.makeMemorySnapshot()), sha256: hex of memory,
//    files: Uint8Array (the site-packages files, concatenated), fileIndex: [[path, offset,
//    length]], createdAt: ms since the epoch, makeMs}
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
    return (await request(db.transaction(STORE, "readonly").objectStore(STORE).get(RECORD_ID))) ?? null;
  } finally {
    db.close();
  }
}

export async function writeSnapshot(record) {
  const db = await openDb();
  try {
    const tx = db.transaction(STORE, "readwrite");
    tx.objectStore(STORE).put({ ...record, id: RECORD_ID });
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
