// worker.js — the module Web Worker that runs Pyodide for web/js/onetool.js.
//
// Page -> worker calls: init(options), run, runDetailed, toolDefinition, reset, listFiles,
// readFile, writeFile, close (rpc.js). Worker -> page calls, made by Python through `host`:
// search, fetch, confirm, operation, http. Notifications: progress (to the page), interrupt
// (from the page: fail the page calls Python is waiting for, raise the soft cancel flag).

import { Channel, serializeError } from "./rpc.js";
import { bootPyodide, saveSnapshot } from "./boot.js";
import { IdbStore } from "./idb-store.js";
import { decode, encode } from "./wire.js";
import { clearInterrupt, isCancelled, signalSlot } from "./interrupt.js";

const MANIFEST_URL = new URL("../onetool-manifest.json", import.meta.url).href;
// Requests that run a command: they start with fresh interrupt flags. Others (listFiles
// during a long command) must not clear an interrupt meant for the running command.
const COMMANDS = new Set(["run", "runDetailed", "reset", "writeFile"]);

let api = null; // the Python WorkerApi (a PyProxy)
let flags = null; // the shared interrupt buffer, when the page is cross-origin isolated
let softCancel = false; // the cancel flag without shared memory (seen while Python awaits)

const host = {
  async call(method, json, buffers) {
    const value = await channel.call(method, decode({ json, buffers: Array.from(buffers ?? []) }));
    return encode(value);
  },
  cancelled() {
    return softCancel || isCancelled(flags);
  },
};

const channel = new Channel(
  self,
  {
    init,
    close,
    ...Object.fromEntries(
      ["run", "runDetailed", "toolDefinition", "reset", "listFiles", "readFile", "writeFile"].map((m) => [m, (p) => forward(m, p)]),
    ),
  },
  { interrupt: onInterrupt },
);

async function init({ interruptBuffer = null, ...options }) {
  const progress = (update) => channel.notify("progress", update);
  flags = interruptBuffer;
  // From the boot snapshot when there is a good one, else cold (boot.js). Either way nothing
  // of this worker is registered yet: the JS modules come after the snapshot, in this order.
  const { pyodide, boot, pending } = await bootPyodide({ manifestURL: MANIFEST_URL, onProgress: progress });
  if (flags) pyodide.setInterruptBuffer(signalSlot(flags));
  // What Python imports: `onetool_host` (the page, through this worker) and `onetool_idb`.
  pyodide.registerJsModule("onetool_host", host);
  pyodide.registerJsModule("onetool_idb", { open: (name) => IdbStore.open(name) });

  progress({ phase: "runtime", loaded: 0, total: 1, message: `opening the ${options.storage?.kind ?? ""} file system` });
  const entry = pyodide.pyimport("onetool_wasm.browser.worker");
  const { json, buffers } = encode(options);
  try {
    api = await entry.start(json, buffers);
  } catch (error) {
    throw pythonError(error);
  } finally {
    entry.destroy();
  }
  progress({ phase: "ready", loaded: 1, total: 1, message: "ready" });
  // A cold boot's snapshot is stored once the page has its answer (it takes a moment).
  if (pending) setTimeout(() => storeSnapshot(pending), 0);
  return {
    pyodideVersion: pyodide.version,
    boot: boot.path,
    bootReason: boot.reason,
    snapshotRestoreMs: boot.restoreMs,
    snapshotBytes: boot.snapshotBytes,
    ...JSON.parse(api.info),
  };
}

async function storeSnapshot(pending) {
  try {
    const bytes = await saveSnapshot(pending);
    console.info(`onetool: boot snapshot stored (${(bytes / 1048576).toFixed(1)} MB, taken in ${pending.makeMs} ms)`);
  } catch (error) {
    console.warn("onetool: the boot snapshot could not be stored:", error?.message ?? error);
  }
}

async function forward(method, params) {
  if (!api) throw new Error("onetool: the worker has not started");
  if (COMMANDS.has(method)) {
    clearInterrupt(flags);
    softCancel = false;
  }
  const { json, buffers } = encode(params ?? {});
  try {
    return decode(await api.request(method, json, buffers));
  } catch (error) {
    throw pythonError(error);
  }
}

async function close() {
  try {
    if (api) await forward("close", {});
  } finally {
    api?.destroy();
    api = null;
  }
}

function onInterrupt() {
  softCancel = true;
  const error = new Error("interrupted: the page called interrupt()");
  error.name = "InterruptError";
  channel.rejectPending(error);
}

// A Python exception arrives as a PythonError whose message is the whole traceback: keep its
// type as the name and its last line as the message.
function pythonError(error) {
  if (!error?.type) return error;
  if (error.type === "KeyboardInterrupt") {
    const interrupted = new Error("interrupted: the command was stopped before it finished");
    interrupted.name = "Interrupted";
    return interrupted;
  }
  const lines = String(error.message).trim().split("\n");
  const last = lines[lines.length - 1]; // "package.module.Type: message"
  const cut = last.indexOf(": ");
  const converted = new Error(cut > -1 && last.slice(0, cut).endsWith(error.type) ? last.slice(cut + 2) : last);
  converted.name = error.type;
  converted.traceback = error.message;
  return converted;
}

self.addEventListener("unhandledrejection", (event) => {
  console.warn("onetool worker: unhandled rejection", serializeError(event.reason));
});
