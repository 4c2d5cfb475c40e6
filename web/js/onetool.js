// onetool.js — the public JavaScript API: one `run` tool, running in a Web Worker.
//
//   import { createOneTool } from "./js/onetool.js";
//   const tool = await createOneTool({storage: {kind: "indexeddb", name: "my-world"}});
//   await tool.run("ls / && cat /README.md | head -n 5");   // -> text for the model
//
// createOneTool(options) -> Promise<OneTool>. Every option is optional:
//   storage         {kind: "indexeddb", name = "one-tool-vfs"} (default) | {kind: "memory"}
//   files           {path: string | Uint8Array}: seeds the world when the store holds no files
//   adapters        {search(query, limit) -> [{title, snippet, source}],
//                    fetch(resource) -> {contentType, payload}}     (sync or async)
//   confirm         (request) -> "approved" | "declined" | {approved: true, input}  (sync or async)
//                   request: {ref, namespace, operation, kind, reason, summary, input,
//                             inputSchema, commandLine}
//   policy          {mode, allow, confirm, deny, sensitive, onNoConfirm, confirmTimeoutSeconds}
//   providers       [{namespace, summary, secrets: [values to redact], operations: [{name,
//                     summary, description, kind, inputSchema, outputSchema, handler(input) -> result}]}
//                    | {namespace, openapi: url | document, baseUrl, headers, query, summary,
//                       fetch?: (url, init) -> Response}   (HTTP goes through the page's fetch)
//                    | {namespace, mcp: url of an MCP server (streamable HTTP), headers, summary,
//                       secrets, fetch?}]   (its tools as operations; the server must allow CORS)
//   outputLimits    {maxLines, maxBytes}
//   grammar         "bash" (default: the bash-compatible shell) | "strict" (the upstream grammar)
//   shellSession    true: variables, functions and the cwd carry over between runs (default false)
//   executionPolicy {deadlineMs, maxCommands, maxLoopIterations, maxFunctionDepth,
//                    maxExpansionBytes, maxHeredocBytes, maxOutputBytes, maxSourceDepth,
//                    maxMaterializedBytes}   the limits of one run (defaults in
//                    docs/ARCHITECTURE.md)
//   builtinCommands {preset, includeGroups, excludeCommands} | false
//   resourcePolicy  {maxFileBytes, maxTotalBytes, maxDirectoryDepth, maxEntriesPerDirectory,
//                    maxOutputArtifactBytes}
//   onProgress      ({phase, loaded, total, message}) -> void   phases: worker, pyodide,
//                   packages, runtime, ready (again after a worker is replaced)
//   workerURL       default: worker.js beside this file; on another origin than the page it
//                   starts through a same-origin blob: worker (shared-worker-pool.js)
//   interruptGraceMs  how long interrupt() waits for Python before replacing the worker (3000)
//   sharedInterrupt   use the SharedArrayBuffer interrupt when cross-origin isolated (true)
//   shared          true: share the page's one worker and Pyodide with the other shared
//                   instances and every <onetool-sandbox> (shared-worker-pool.js), keeping its
//                   own runtime, files, memory, policy, consent and providers; commands of all
//                   of them run one at a time. Default false: a worker of its own.
//
// OneTool:
//   run(line) -> Promise<string>                 the text block for the model
//   runDetailed(line) -> Promise<{commandLine, exitCode, durationMs, stdout: Uint8Array,
//       stderr, contentType, trace, presentation: {text, body, stdoutMode, savedPath,
//       totalBytes, totalLines}}>
//   toolDefinition(format = "openai", {toolName, descriptionVariant}) -> Promise<object>
//   interrupt() -> Promise<{outcome: "idle" | "interrupted" | "restarted"}>
//   reset() -> Promise<void>        empties the file system and memory, seeds `files` again
//   close() -> Promise<void>
//   listFiles() -> Promise<[{path, isDir, size, mtimeMs}]>   the whole tree, sorted by path
//   readFile(path) -> Promise<Uint8Array>;  writeFile(path, data) -> Promise<string>
//   info: {pyodideVersion, storage, crossOriginIsolated, sharedInterrupt, bootMs, restarts, shared}
//   booting: Promise of the boot's info (which boot path ran: docs/BROWSER.md)
//   events (OneTool is an EventTarget): "restarted" (CustomEvent, detail {storage, lostState,
//       interruptedBy: "self" | "sibling", error}) after its worker was replaced and its
//       session opened again from its storage (a memory file system from its seed files)
//
// Commands run one at a time, in call order. An interrupted command resolves like any other
// command, with exit code 130.

import { WorkerPool, sharedPool } from "./shared-worker-pool.js";

export const INTERRUPTED_EXIT_CODE = 130;
/** Dispatched on the page's global object each time an instance has booted. */
export const READY_EVENT = "onetool-ready";
const DEFAULT_GRACE_MS = 3000;
// A run that ends with one of these errors ended because of interrupt().
const INTERRUPTED = new Set(["WorkerReplaced", "Interrupted"]);
const DEFAULT_STORAGE = Object.freeze({ kind: "indexeddb", name: "one-tool-vfs" });
let instances = 0; // ids of this page's instances: the worker's sessions are named by them

export async function createOneTool(options = {}) {
  const tool = new OneTool(options);
  await tool.start();
  return tool;
}

export class OneTool extends EventTarget {
  constructor(options = {}) {
    super();
    this.options = options;
    this.id = `onetool-${++instances}`;
    this.storage = normalizeStorage(options.storage);
    this.workerURL = options.workerURL ?? new URL("./worker.js", import.meta.url);
    this.graceMs = options.interruptGraceMs ?? DEFAULT_GRACE_MS;
    this.wantsSharedInterrupt = options.sharedInterrupt !== false;
    this.providers = new ProviderHandlers(options.providers ?? []);
    this.handlers = pageHandlers(this);
    this.pool = null; // the worker this instance runs in (shared-worker-pool.js)
    this.queue = Promise.resolve();
    this.current = null; // this instance's command, waiting or running: {done}
    this.closed = false;
    this.info = {
      pyodideVersion: null,
      storage: this.storage,
      crossOriginIsolated: Boolean(globalThis.crossOriginIsolated),
      sharedInterrupt: false,
      bootMs: null,
      restarts: 0,
      shared: Boolean(options.shared),
      onetoolVersion: null,
      boot: null, // "snapshot" | "cold": how the worker's Pyodide started (docs/BROWSER.md)
      snapshotSource: null, // "stored" (IndexedDB) or "site" (boot/snapshot.bin) when boot is "snapshot"
      bootReason: null, // why a cold boot did not restore the snapshot
      snapshotRestoreMs: null,
      snapshotBytes: null,
      bootPhases: null, // ms per boot phase, in order (docs/BROWSER.md)
    };
  }

  // --- the API -------------------------------------------------------------------------

  async run(line) {
    return this.serialized("run", { line: String(line) }, (error, ms) => interruptedText(error, ms));
  }

  async runDetailed(line) {
    const commandLine = String(line);
    return this.serialized("runDetailed", { line: commandLine }, (error, ms) => interruptedExecution(commandLine, error, ms));
  }

  async toolDefinition(format = "openai", { toolName = "run", descriptionVariant = "full-tool-description" } = {}) {
    return this.request("toolDefinition", { format, toolName, descriptionVariant });
  }

  async reset() {
    await this.serialized("reset", {}, (error) => { throw error; });
  }

  async listFiles() {
    return this.request("listFiles", {});
  }

  async readFile(path) {
    return this.request("readFile", { path: String(path) });
  }

  async writeFile(path, data) {
    return this.serialized("writeFile", { path: String(path), data: toBytesOrText(data) }, (error) => { throw error; });
  }

  /** Stop this instance's command: dropped if still waiting its turn in a shared worker; if
   *  running, the cancel flag and the shared-memory interrupt, then a new worker. */
  async interrupt() {
    if (!this.current || !this.pool) return { outcome: "idle" };
    return this.pool.interrupt(this, this.graceMs);
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    await this.pool?.leave(this);
  }

  // --- the worker --------------------------------------------------------------------

  async start() {
    const started = performance.now();
    const o = this.options;
    this.pool = o.shared ? sharedPool(this.workerURL) : new WorkerPool(this.workerURL, { sharedInterrupt: this.wantsSharedInterrupt });
    this.info.sharedInterrupt = Boolean(this.pool.flags) && this.wantsSharedInterrupt;
    this.booting = this.pool.join(this);
    const info = await this.booting;
    this.info.pyodideVersion = info.pyodideVersion;
    this.info.onetoolVersion = info.onetoolVersion ?? null;
    for (const key of ["boot", "snapshotSource", "bootReason", "snapshotRestoreMs", "snapshotBytes", "bootPhases"]) this.info[key] = info[key] ?? null;
    this.info.bootMs = Math.round(performance.now() - started);
    // offline.js waits for this before its service worker caches the site (no competing downloads).
    globalThis.dispatchEvent?.(new Event(READY_EVENT));
    return this;
  }

  /** The options of this instance's Python session (BrowserSession). */
  workerOptions() {
    const o = this.options;
    return {
      storage: this.storage,
      files: normalizeFiles(o.files),
      adapters: { search: typeof o.adapters?.search === "function", fetch: typeof o.adapters?.fetch === "function" },
      confirm: typeof o.confirm === "function",
      policy: o.policy ?? null,
      providers: this.providers.descriptors(),
      outputLimits: o.outputLimits ?? null,
      builtinCommands: o.builtinCommands ?? null,
      grammar: o.grammar ?? "bash",
      shellSession: Boolean(o.shellSession),
      executionPolicy: o.executionPolicy ?? null,
      resourcePolicy: o.resourcePolicy ?? null,
    };
  }

  /** What the worker asks of the page for this instance: search, fetch, confirm, operation, http. */
  pageCall(method, params) {
    return this.handlers[method](params);
  }

  /** Its worker was replaced and its session opened again (the pool says so). */
  restarted(detail) {
    this.info.restarts += 1;
    this.dispatchEvent(new CustomEvent("restarted", { detail }));
  }

  progress(update) {
    try {
      this.options.onProgress?.(update);
    } catch (error) {
      console.error("onetool: onProgress failed", error);
    }
  }

  // --- calling the worker ----------------------------------------------------------------

  async request(method, params) {
    if (this.closed) throw new Error("onetool: closed");
    await this.booting;
    return this.pool.request(this, method, params);
  }

  /** Commands run one at a time; an interrupted one resolves through `onInterrupted`. */
  serialized(method, params, onInterrupted) {
    const task = this.queue.then(async () => {
      if (this.closed) throw new Error("onetool: closed");
      await this.booting;
      const startedAt = performance.now();
      const done = this.pool.command(this, method, params);
      this.current = { done: done.then(() => undefined, () => undefined) };
      try {
        return await done;
      } catch (error) {
        if (INTERRUPTED.has(error.name)) return onInterrupted(error, performance.now() - startedAt);
        throw error;
      } finally {
        this.current = null;
      }
    });
    this.queue = task.then(() => undefined, () => undefined);
    return task;
  }
}

// --- what the worker asks of the page -------------------------------------------------------

function pageHandlers(tool) {
  const { adapters = {}, confirm } = tool.options;
  return {
    async search({ query, limit }) {
      const hits = await adapters.search(query, limit);
      return Array.from(hits ?? [], (hit) => ({
        title: String(hit?.title ?? ""), snippet: String(hit?.snippet ?? ""), source: String(hit?.source ?? ""),
      }));
    },
    async fetch({ resource }) {
      const response = await adapters.fetch(resource);
      if (response == null) return null;
      return { contentType: response.contentType ?? null, payload: toCloneable(response.payload) };
    },
    async confirm({ request }) {
      return toCloneable(await confirm(request));
    },
    async operation({ namespace, name, input }) {
      return toCloneable(await tool.providers.handler(namespace, name)(input));
    },
    async http({ namespace, method, url, headers, body }) {
      return tool.providers.http(namespace, { method, url, headers, body });
    },
  };
}

class ProviderHandlers {
  constructor(providers) {
    this.providers = Array.from(providers);
  }

  /** What the worker needs: everything but functions (OpenAPI documents still as URLs). */
  descriptors() {
    return this.providers.map((p) => (p.openapi !== undefined ? openApiDescriptor(p) : p.mcp !== undefined ? mcpDescriptor(p) : jsDescriptor(p)));
  }

  handler(namespace, name) {
    const provider = this.providers.find((p) => p.namespace === namespace);
    const operation = provider?.operations?.find((op) => op.name === name);
    if (typeof operation?.handler !== "function") throw new Error(`no handler for ${namespace}:${name}`);
    return operation.handler;
  }

  async http(namespace, { method, url, headers, body }) {
    const provider = this.providers.find((p) => p.namespace === namespace);
    const fetchFn = provider?.fetch ?? globalThis.fetch.bind(globalThis);
    const response = await fetchFn(url, { method, headers, body: body ?? undefined });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, headers: Object.fromEntries(response.headers ?? []), body: bytes };
  }
}

function jsDescriptor({ namespace, summary = "", operations = [], secrets = [] }) {
  return {
    type: "js",
    namespace,
    summary,
    secrets, // values redacted wherever they would reach the model
    operations: operations.map(({ name, summary = "", description = "", kind = null, inputSchema = null, outputSchema = null }) =>
      ({ name, summary, description, kind, inputSchema, outputSchema })),
  };
}

function openApiDescriptor({ namespace = null, summary = null, openapi, baseUrl = null, headers = null, query = null }) {
  return { type: "openapi", namespace, summary, openapi, baseUrl, headers, query };
}

function mcpDescriptor({ namespace, mcp, headers = null, summary = null, secrets = [] }) {
  return { type: "mcp", namespace, mcp: String(mcp), headers, summary, secrets };
}

// --- values ----------------------------------------------------------------------------------

function normalizeStorage(storage) {
  if (!storage) return { ...DEFAULT_STORAGE };
  if (storage.kind === "memory") return { kind: "memory" };
  if (storage.kind === "indexeddb") return { kind: "indexeddb", name: storage.name || DEFAULT_STORAGE.name };
  throw new Error(`onetool: storage.kind must be "indexeddb" or "memory", got ${JSON.stringify(storage.kind)}`);
}

function normalizeFiles(files) {
  if (!files) return {};
  const out = {};
  for (const [path, data] of Object.entries(files)) out[path] = toBytesOrText(data);
  return out;
}

function toBytesOrText(data) {
  if (typeof data === "string") return data;
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new TypeError("onetool: file contents must be a string or bytes");
}

/** Page values cross postMessage by structured clone: drop what cannot (functions, proxies). */
function toCloneable(value) {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (value === undefined) return null;
  try {
    return structuredClone(value);
  } catch {
    return JSON.parse(JSON.stringify(value));
  }
}

// The result of a command whose worker was replaced, shaped as Python presents one.
function interruptedText(error, ms) {
  return `[error] ${error.message}\n\n[exit:${INTERRUPTED_EXIT_CODE} | ${formatDuration(ms)}]`;
}

function interruptedExecution(commandLine, error, ms) {
  const text = interruptedText(error, ms);
  return {
    commandLine,
    exitCode: INTERRUPTED_EXIT_CODE,
    durationMs: Math.round(ms),
    stdout: new Uint8Array(0),
    stderr: error.message,
    contentType: "text/plain",
    trace: [],
    presentation: { text, body: `[error] ${error.message}`, stdoutMode: "plain", savedPath: null, totalBytes: null, totalLines: null },
  };
}

function formatDuration(ms) {
  ms = Math.round(ms);
  if (ms < 1000) return `${ms}ms`;
  const seconds = ms / 1000;
  const minutes = Math.floor(seconds / 60);
  const rest = (seconds - minutes * 60).toFixed(1);
  return minutes ? `${minutes}m${rest}s` : `${rest}s`;
}
