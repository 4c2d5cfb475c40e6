// worker.js — the module Web Worker that runs Pyodide for web/js/onetool.js.
//
// Page -> worker calls: init(options), run, runDetailed, toolDefinition, reset, listFiles,
// readFile, writeFile, close (rpc.js). Worker -> page calls, made by Python through `host`:
// search, fetch, confirm, operation, http. Notifications: progress (to the page), interrupt
// (from the page: fail the page calls Python is waiting for, raise the soft cancel flag).
//
// One worker serves several page instances (shared-worker-pool.js): each call after init
// names its instance (rpc.js `instance`), `open` starts that instance's Python session and
// `close` ends it. The page sends one command at a time for the whole worker; the soft cancel
// flag is per instance, and the shared buffer's flags count only for the instance whose
// command is running (the page raises them only for that one).

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
const DEFAULT_INSTANCE = "default"; // calls that name no instance (onetool_wasm/browser/worker.py)
const softCancelled = new Set(); // instances whose command was interrupted (seen while Python awaits)
let running = null; // the instance whose command is running

const host = {
  async call(method, json, buffers, instance = DEFAULT_INSTANCE) {
    // Interrupted before Python got here: fail at once, as a waiting call would have.
    if (softCancelled.has(instance)) throw interruptError();
    const params = decode({ json, buffers: Array.from(buffers ?? []) });
    return encode(await channel.call(method, params, instance));
  },
  cancelled(instance = DEFAULT_INSTANCE) {
    return softCancelled.has(instance) || (running === instance && isCancelled(flags));
  },
};

const channel = new Channel(
  self,
  {
    init,
    close,
    ...Object.fromEntries(
      ["open", "run", "runDetailed", "toolDefinition", "reset", "listFiles", "readFile", "writeFile"]
        .map((m) => [m, (p, instance) => forward(m, p, instance)]),
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
  // A replacement worker gets the flags of the interrupt that replaced its predecessor: still
  // raised, they would stop this worker's own start (KeyboardInterrupt in its first import).
  clearInterrupt(flags);
  if (flags) pyodide.setInterruptBuffer(signalSlot(flags));
  // What Python imports: `onetool_host` (the page, through this worker) and `onetool_idb`.
  pyodide.registerJsModule("onetool_host", host);
  pyodide.registerJsModule("onetool_idb", { open: (name) => IdbStore.open(name) });

  progress({ phase: "runtime", loaded: 0, total: 1, message: `opening the ${options.storage?.kind ?? ""} file system` });
  const entry = pyodide.pyimport("onetool_wasm.browser.worker");
  const { json, buffers } = encode(options);
  const starting = performance.now();
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
    snapshotSource: boot.source,
    bootReason: boot.reason,
    snapshotRestoreMs: boot.restoreMs,
    snapshotBytes: boot.snapshotBytes,
    bootPhases: { ...boot.phases, start: Math.round(performance.now() - starting) }, // ms per phase (boot.js)
    ...JSON.parse(api.info),
  };
}

async function storeSnapshot(pending) {
  try {
    const bytes = await saveSnapshot(pending);
    const origin = pending.makeMs ? `taken in ${pending.makeMs} ms` : "the site's";
    console.info(`onetool: boot snapshot stored (${(bytes / 1048576).toFixed(1)} MB, ${origin})`);
  } catch (error) {
    console.warn("onetool: the boot snapshot could not be stored:", error?.message ?? error);
  }
}

async function forward(method, params, instance = DEFAULT_INSTANCE) {
  if (!api) throw new Error("onetool: the worker has not started");
  const command = COMMANDS.has(method);
  if (command) {
    clearInterrupt(flags);
    softCancelled.delete(instance);
    running = instance;
  }
  const { json, buffers } = encode(params ?? {});
  try {
    return decode(await api.request(method, json, buffers, instance));
  } catch (error) {
    throw pythonError(error);
  } finally {
    if (command && running === instance) running = null;
  }
}

/** End one instance's session; the worker itself ends when the page terminates it. */
async function close(params, instance = DEFAULT_INSTANCE) {
  softCancelled.delete(instance);
  if (api) await forward("close", {}, instance);
}

function onInterrupt({ instance = DEFAULT_INSTANCE } = {}) {
  softCancelled.add(instance);
  channel.rejectPending(interruptError(), instance);
}

function interruptError() {
  const error = new Error("interrupted: the page called interrupt()");
  error.name = "InterruptError";
  return error;
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
