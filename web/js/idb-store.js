// idb-store.js — the IndexedDB store behind BrowserVFS (runs in the worker).
//
// Layout (upstream's browser store): database `name`, version 1, object stores
//   files {path, data: Uint8Array, mtimeMs}   dirs {path, mtimeMs}     keyPath "path"
// The file system's rules live in Python (onetool_wasm/browser/vfs.py); this module only
// loads the index, reads a file, and applies a list of operations in ONE readwrite
// transaction, resolving when that transaction has committed (or rejecting with its
// DOMException, e.g. QuotaExceededError, after the browser rolled it back).
// After each commit the changed paths go to the other tabs over a BroadcastChannel.
//
// Operations: {op: "putFile", path, data, mtimeMs} {op: "appendFile", path, data, mtimeMs}
//   {op: "copyFile", from, path, mtimeMs} {op: "deleteFile", path} {op: "putDir", path, mtimeMs}
//   {op: "deleteTree", path}   (the directory and every key below it, by key range)
//   {op: "chmod", path, kind: "file"|"dir", mode}
// A record may carry `mode` (permission bits); puts pass an op's `mode` on when it has one
// (an append keeps the record's). Records without one read as the defaults (0644 / 0755),
// and the index then lists the node without the extra last element.

import { decode } from "./wire.js";

const DB_VERSION = 1;
const FILES = "files";
const DIRS = "dirs";

export class IdbStore {
  static async open(name) {
    return new IdbStore(await openDatabase(name).catch(rethrowAsError), name);
  }

  constructor(db, name) {
    this.db = db;
    this.name = name;
    this.listener = null;
    this.channel = new BroadcastChannel(`onetool-vfs:${name}`);
    this.channel.onmessage = (event) => this.listener?.(JSON.stringify(event.data));
  }

  /** Hand other tabs' messages ({changes} or {reset}) to `callback` as JSON text. */
  listen(callback) {
    this.listener = callback;
  }

  /** The index as JSON text: {files: [[path, size, mtimeMs, mode?]], dirs: [[path, mtimeMs, mode?]]}. */
  async loadIndex() {
    const tx = this.db.transaction([FILES, DIRS], "readonly");
    const files = [];
    const dirs = [];
    await Promise.all([
      eachRecord(tx.objectStore(FILES), (r) => files.push([r.path, byteLength(r.data), r.mtimeMs ?? 0, ...modeOf(r)])),
      eachRecord(tx.objectStore(DIRS), (r) => dirs.push([r.path, r.mtimeMs ?? 0, ...modeOf(r)])),
    ]).catch(rethrowAsError);
    return JSON.stringify({ files, dirs });
  }

  /** The bytes of `path`, or undefined. */
  async read(path) {
    const record = await request(this.db.transaction(FILES, "readonly").objectStore(FILES).get(path)).catch(rethrowAsError);
    return record ? toBytes(record.data) : undefined;
  }

  /** Apply the operations of `json` (wire text + buffers) in one transaction. */
  async commit(json, buffers) {
    const { ops, changes } = decode({ json, buffers: Array.from(buffers ?? []) });
    const tx = this.db.transaction([FILES, DIRS], "readwrite");
    const done = transactionDone(tx);
    runInOrder(tx, ops).catch((error) => abort(tx, error));
    await done.catch(rethrowAsError);
    this.channel.postMessage({ changes });
  }

  /** Empty both stores but for a new root directory; other tabs reload. */
  async clear(rootMtimeMs) {
    const tx = this.db.transaction([FILES, DIRS], "readwrite");
    const done = transactionDone(tx);
    tx.objectStore(FILES).clear();
    tx.objectStore(DIRS).clear();
    tx.objectStore(DIRS).put({ path: "/", mtimeMs: rootMtimeMs });
    await done.catch(rethrowAsError);
    this.channel.postMessage({ reset: true });
  }

  close() {
    this.channel.close();
    this.db.close();
  }
}

function openDatabase(name) {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(name, DB_VERSION);
    opening.onupgradeneeded = () => {
      const db = opening.result;
      if (!db.objectStoreNames.contains(FILES)) db.createObjectStore(FILES, { keyPath: "path" });
      if (!db.objectStoreNames.contains(DIRS)) db.createObjectStore(DIRS, { keyPath: "path" });
    };
    opening.onsuccess = () => {
      const db = opening.result;
      db.onversionchange = () => db.close(); // let another tab upgrade
      resolve(db);
    };
    opening.onerror = () => reject(opening.error);
    opening.onblocked = () => reject(new DOMException(`database ${name} is blocked by another tab`, "InvalidStateError"));
  });
}

// Each operation's requests are issued after the previous one's finished, so a copy sees
// the file an earlier put of the same transaction wrote. The transaction stays active
// because every step starts inside a request callback.
async function runInOrder(tx, ops) {
  const files = tx.objectStore(FILES);
  const dirs = tx.objectStore(DIRS);
  for (const op of ops) {
    await applyOp(files, dirs, op);
  }
}

async function applyOp(files, dirs, op) {
  switch (op.op) {
    case "putFile":
      return request(files.put(withMode({ path: op.path, data: op.data, mtimeMs: op.mtimeMs }, op.mode)));
    case "appendFile": {
      const existing = await request(files.get(op.path));
      const data = existing ? concat(toBytes(existing.data), op.data) : op.data;
      return request(files.put(withMode({ path: op.path, data, mtimeMs: op.mtimeMs }, op.mode ?? existing?.mode)));
    }
    case "copyFile": {
      const source = await request(files.get(op.from));
      if (!source) throw new DOMException(`no such file: ${op.from}`, "NotFoundError");
      return request(files.put(withMode({ path: op.path, data: toBytes(source.data), mtimeMs: op.mtimeMs }, op.mode)));
    }
    case "deleteFile":
      return request(files.delete(op.path));
    case "putDir":
      return request(dirs.put(withMode({ path: op.path, mtimeMs: op.mtimeMs }, op.mode)));
    case "chmod": {
      const table = op.kind === "dir" ? dirs : files;
      const record = await request(table.get(op.path));
      if (!record) return undefined;
      return request(table.put(withMode(record, op.mode)));
    }
    case "deleteTree": {
      // Every key that starts with "<path>/": "0" is the character after "/".
      const below = IDBKeyRange.bound(`${op.path}/`, `${op.path}0`, false, true);
      return Promise.all([request(files.delete(below)), request(dirs.delete(below)), request(dirs.delete(op.path))]);
    }
    default:
      throw new DOMException(`unknown store operation: ${op.op}`, "DataError");
  }
}

// Python sees a rejection as a JsException, but not every error class converts: Chromium's
// QuotaExceededError (now a subclass of DOMException) makes Pyodide fail with "invalid
// exception object" and the await never ends. So storage errors cross as plain Errors with
// the same name and message.
function rethrowAsError(error) {
  const converted = new Error(error?.message ?? String(error));
  converted.name = error?.name ?? "Error";
  throw converted;
}

function abort(tx, error) {
  tx.failure = error;
  try {
    tx.abort();
  } catch {
    // already finished or aborted by the browser
  }
}

function transactionDone(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? tx.failure ?? new DOMException("transaction aborted", "AbortError"));
  });
}

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function eachRecord(store, visit) {
  return new Promise((resolve, reject) => {
    const cursor = store.openCursor();
    cursor.onsuccess = () => {
      const current = cursor.result;
      if (!current) return resolve();
      visit(current.value);
      current.continue();
    };
    cursor.onerror = () => reject(cursor.error);
  });
}

// A record's `mode`, when it has one: [mode] or [] (spread into an index entry).
function modeOf(record) {
  return typeof record.mode === "number" ? [record.mode] : [];
}

// The record with `mode` set, or without the key when there is none (the default bits).
function withMode(record, mode) {
  if (typeof mode === "number") record.mode = mode;
  else delete record.mode;
  return record;
}

function byteLength(data) {
  if (data == null) return 0;
  if (typeof data === "string") return new TextEncoder().encode(data).length;
  return data.byteLength ?? 0;
}

function toBytes(data) {
  if (data instanceof Uint8Array) return data;
  if (typeof data === "string") return new TextEncoder().encode(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(0);
}

function concat(a, b) {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}
